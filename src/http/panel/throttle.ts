// Sign-in throttling: failed attempts are counted per email, per second factor (per person) and
// per client address, in PostgreSQL (rate-limiter-flexible's store, table panel_sign_in_limits of
// migration 0050) so that every API process counts together. Past the limit an attempt is refused
// before the password is even checked, until the window ends; a success clears the email's count.
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract, type RateLimiterRes } from 'rate-limiter-flexible';
import { ApiError } from '../../core/errors.ts';
import type { Db } from '../../core/types.ts';
import { poolOf } from '../../db/connection.ts';

export const SIGN_IN_LIMITS = {
  /** Failed sign-ins of one email (whoever tries) per window. */
  perEmail: 8,
  /** Failed codes (TOTP or recovery) of one person per window. */
  perPersonCodes: 8,
  /** Failed sign-ins and codes from one address (or IPv6 /64) per window. */
  perAddress: 40,
  windowS: 15 * 60,
};

export interface SignInThrottle {
  /** Refuses (429) when any of these counters is spent. */
  check(keys: string[]): Promise<void>;
  /** Counts a failure against each key. */
  fail(keys: string[]): Promise<void>;
  /** Forgets a key's failures (a successful sign-in). */
  clear(key: string): Promise<void>;
}

function limitOf(key: string): number {
  if (key.startsWith('email:')) return SIGN_IN_LIMITS.perEmail;
  if (key.startsWith('code:')) return SIGN_IN_LIMITS.perPersonCodes;
  return SIGN_IN_LIMITS.perAddress;
}

const unavailable = () => new ApiError('SERVICE_UNAVAILABLE', 'Sign-in attempts cannot be counted right now; retry shortly', [], { retryAfterS: 1 });

export function createSignInThrottle(db: Db): SignInThrottle {
  const pool = poolOf(db);
  const opts = { points: 1_000_000, duration: SIGN_IN_LIMITS.windowS, keyPrefix: 'panel' };
  // A handle without a pool of its own (none in practice) counts in this process alone.
  const store: RateLimiterAbstract = pool
    ? new RateLimiterPostgres({ ...opts, storeClient: pool, storeType: 'pool', tableName: 'panel_sign_in_limits', tableCreated: true })
    : new RateLimiterMemory(opts);
  return {
    async check(keys) {
      let found: (RateLimiterRes | null)[];
      try {
        found = await Promise.all(keys.map((k) => store.get(k)));
      } catch {
        throw unavailable();
      }
      let waitS = 0;
      keys.forEach((k, i) => {
        const r = found[i];
        if (r && r.consumedPoints >= limitOf(k)) waitS = Math.max(waitS, Math.ceil(r.msBeforeNext / 1000));
      });
      if (waitS > 0) {
        const minutes = Math.ceil(waitS / 60);
        throw new ApiError('RATE_LIMITED', `Too many failed attempts; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`, [], { retryAfterS: waitS });
      }
    },
    async fail(keys) {
      try {
        await Promise.all(keys.map((k) => store.penalty(k, 1)));
      } catch {
        throw unavailable();
      }
    },
    async clear(key) {
      await store.delete(key).catch(() => {});
    },
  };
}
