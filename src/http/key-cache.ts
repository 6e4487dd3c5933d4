// The API process's key cache and what keeps it true: the NOTIFY of migration 0014 (every
// process) and this process's own writes (at once). See core/api-keys/key-cache.ts.
import { KeyCache } from '../core/api-keys/key-cache.ts';
import type { Db } from '../core/types.ts';
import { onLocalAuthWrite } from '../db/auth-writes.ts';
import { poolOf } from '../db/connection.ts';
import { AUTH_CHANNEL } from '../db/names.ts';
import { listenOn } from '../db/notify-listener.ts';

export const KEY_CACHE = { max: 10_000, ttlMs: 60_000, backstopMs: 1_000 };

export function startKeyCache(db: Db): { keys: KeyCache; close(): Promise<void> } {
  const keys = new KeyCache(KEY_CACHE);
  const unsubscribe = onLocalAuthWrite(() => keys.clear());
  const pool = poolOf(db);
  const listener = pool && listenOn(pool, AUTH_CHANNEL, {
    notify: (accountId) => (accountId ? keys.evictAccount(accountId) : keys.clear()),
    // Whatever was announced while not listening was missed.
    up: () => { keys.clear(); keys.listening = true; },
    down: () => { keys.listening = false; },
  }, 'hostcloud auth listener');
  return {
    keys,
    async close() {
      unsubscribe();
      await listener?.close();
    },
  };
}
