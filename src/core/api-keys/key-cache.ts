// Keys found by their token, kept in process so that an authenticated request costs no round
// trip. Bounded (least recently used first out). An entry is trusted for `ttlMs` while the
// process hears every change (LISTEN on the triggers of migration 0014, plus this process's own
// writes), and for only `backstopMs` while it does not (the listen connection is down or not yet
// up): a revocation then still takes effect within that bound. Unknown tokens are not kept (they
// would let anyone fill the cache).
import type { ApiKey } from '../../db/schema.ts';
import type { SubUserGrant } from '../sub-users/access.ts';

/** A key as authenticated (authenticate.ts), as the cache keeps it. */
export interface Identity {
  key: ApiKey;
  accountStatus: string;
  /** The sub-user the key belongs to, as read with it; null for the account's own keys. */
  subUser: SubUserGrant | null;
  /** The key's allowlist, parsed once. */
  allows(ip: string): boolean;
}

export interface KeyCacheOptions {
  /** Most keys held. */
  max: number;
  /** How long an entry is trusted while changes are heard. */
  ttlMs: number;
  /** How long while they are not. */
  backstopMs: number;
  now?: () => number;
}

interface Entry {
  identity: Identity;
  at: number;
}

export class KeyCache {
  readonly #entries = new Map<string, Entry>();
  readonly #opts: Required<KeyCacheOptions>;
  /** Whether every change is being heard now; set by whoever listens. */
  listening = false;
  /** Bumped by every eviction: a lookup that overlapped one does not keep what it read. */
  #generation = 0;

  constructor(opts: KeyCacheOptions) {
    this.#opts = { now: Date.now, ...opts };
  }

  get generation(): number {
    return this.#generation;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(token: string): Identity | undefined {
    const e = this.#entries.get(token);
    if (!e) return undefined;
    const age = this.#opts.now() - e.at;
    if (age >= (this.listening ? this.#opts.ttlMs : this.#opts.backstopMs)) {
      this.#entries.delete(token);
      return undefined;
    }
    // Most recently used last (Map keeps insertion order).
    this.#entries.delete(token);
    this.#entries.set(token, e);
    return e.identity;
  }

  /** Keeps `identity` unless something was evicted since `generation` was read (it may be stale). */
  set(token: string, identity: Identity, generation: number): void {
    if (generation !== this.#generation || this.#opts.max <= 0) return;
    this.#entries.delete(token);
    this.#entries.set(token, { identity, at: this.#opts.now() });
    if (this.#entries.size > this.#opts.max) this.#entries.delete(this.#entries.keys().next().value!);
  }

  /** Forgets the keys of one account (a change announced for it). */
  evictAccount(accountId: string): void {
    this.#generation++;
    for (const [token, e] of this.#entries) {
      if (e.identity.key.account_id === accountId) this.#entries.delete(token);
    }
  }

  clear(): void {
    this.#generation++;
    this.#entries.clear();
  }
}
