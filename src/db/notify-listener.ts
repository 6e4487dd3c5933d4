// A dedicated connection that LISTENs on one channel, outside the pool (a pooled connection would
// be taken from requests for good). It reports whether it is listening: while it is not, nothing
// it would have said is known, and its user must not trust what the notifications guard (see
// core/api-keys/key-cache.ts). It reconnects by itself, with backoff, and never throws.
import pg from 'pg';

export interface NotifyListener {
  /** True while LISTEN is in effect on a live connection. */
  readonly listening: boolean;
  close(): Promise<void>;
}

export interface ListenHandlers {
  notify(payload: string): void;
  /** The connection is (again) listening: anything sent while it was not was missed. */
  up(): void;
  down(): void;
}

const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;
/** A silent half-open connection is found by this probe; the TTL backstop covers the wait. */
const PROBE_MS = 5_000;

/**
 * Ends a client without waiting on the server: a frozen or unreachable one would never answer
 * the goodbye, and a close (a process stopping) must not wait for it.
 */
function drop(c: pg.Client): Promise<void> {
  const socket = (c as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream;
  const ended = c.end().catch(() => {});
  const timer = setTimeout(() => socket?.destroy(), 500);
  return ended.finally(() => clearTimeout(timer));
}

export function listenOn(pool: pg.Pool, channel: string, handlers: ListenHandlers, name = `hostcloud ${channel}`): NotifyListener {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`bad channel name ${channel}`);
  let client: pg.Client | null = null;
  let listening = false;
  let closed = false;
  let backoffMs = 100;
  let retry: NodeJS.Timeout | undefined;
  let probe: NodeJS.Timeout | undefined;

  const lost = (c: pg.Client) => {
    if (client !== c) return;
    client = null;
    clearInterval(probe);
    if (listening) {
      listening = false;
      handlers.down();
    }
    void drop(c);
    if (closed) return;
    retry = setTimeout(start, backoffMs);
    retry.unref();
    backoffMs = Math.min(backoffMs * 2, 2_000);
  };

  const start = () => {
    if (closed) return;
    // The pool's own settings (URL, timeouts), on a client of its own.
    const c = new pg.Client({ ...(pool.options as pg.ClientConfig), statement_timeout: 2_000, query_timeout: 3_000, application_name: name });
    client = c;
    c.on('error', () => lost(c));
    c.on('end', () => lost(c));
    c.on('notification', (msg) => { if (msg.channel === channel) handlers.notify(msg.payload ?? ''); });
    c.connect()
      .then(() => c.query(`LISTEN ${channel}`))
      .then(() => {
        if (client !== c || closed) return;
        listening = true;
        backoffMs = 100;
        handlers.up();
        probe = setInterval(() => { c.query('SELECT 1').catch(() => lost(c)); }, PROBE_MS);
        probe.unref();
      })
      .catch(() => lost(c));
  };
  start();

  return {
    get listening() { return listening; },
    async close() {
      closed = true;
      clearTimeout(retry);
      clearInterval(probe);
      const c = client;
      client = null;
      listening = false;
      if (c) await drop(c);
    },
  };
}
