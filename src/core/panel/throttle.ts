// Sign-in throttling: attempts are counted per email, per person's second factor (and current
// password) and per client address, in PostgreSQL (panel_sign_in_limits) so that every API process
// counts together. An attempt is taken before its password or code is checked — one statement
// counts it or refuses it past the limit — and given back only when it turns out not to be a
// failure, so parallel attempts get no more checks than the same attempts one after another.
// A success gives back its own attempt but does not wipe the failures before it: in a burst, a
// right password among the wrong ones would otherwise reopen the window for those still in flight.
// Keys are stored as hashes, so an email of any allowed length has a key of one size.
import { deleteEndedLimits, giveBackAttempt, spentUntil, takeAttempt } from '../../db/queries/sign-in-limits.ts';
import { ApiError } from '../errors.ts';
import type { Db } from '../types.ts';
import { sha256 } from './secrets.ts';

export const SIGN_IN_LIMITS = {
  /** Failed sign-ins of one email (whoever tries) per window. */
  perEmail: 8,
  /** Failed codes (TOTP or recovery) or current passwords of one person per window. */
  perPersonCodes: 8,
  /** Failed sign-ins and codes, sign-ups and reset requests from one address (or IPv6 /64) per window. */
  perAddress: 40,
  windowS: 15 * 60,
};

/**
 * What a counter counts: `email:<address>`, `code:<user id>` or `addr:<client address>`; a staff
 * member's sign-in (the console) counts `staff-email:<address>` and `staff-code:<member id>`.
 */
export type ThrottleKey = `email:${string}` | `code:${number}` | `addr:${string}` | `staff-email:${string}` | `staff-code:${string}`;

export const emailKey = (email: string): ThrottleKey => `email:${email.trim().toLowerCase()}`;

function limitOf(key: ThrottleKey): number {
  if (key.startsWith('email:') || key.startsWith('staff-email:')) return SIGN_IN_LIMITS.perEmail;
  if (key.startsWith('code:') || key.startsWith('staff-code:')) return SIGN_IN_LIMITS.perPersonCodes;
  return SIGN_IN_LIMITS.perAddress;
}

function stored(key: ThrottleKey): string {
  const i = key.indexOf(':');
  return `panel:${key.slice(0, i)}:${sha256(key.slice(i + 1))}`;
}

const unavailable = () => new ApiError('SERVICE_UNAVAILABLE', 'Sign-in attempts cannot be counted right now; retry shortly', [], { retryAfterS: 1 });

function tooMany(untilMs: number | null, nowMs: number): ApiError {
  const waitS = Math.max(1, Math.ceil(((untilMs ?? nowMs + SIGN_IN_LIMITS.windowS * 1000) - nowMs) / 1000));
  const minutes = Math.ceil(waitS / 60);
  return new ApiError('RATE_LIMITED', `Too many failed attempts; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`, [], { retryAfterS: waitS });
}

export interface SignInThrottle {
  /** Refuses (429) when any of these counters is spent; counts nothing. */
  check(keys: ThrottleKey[]): Promise<void>;
  /** Counts one attempt against every key, or refuses (429) counting none when one is spent. */
  take(keys: ThrottleKey[]): Promise<void>;
  /** Uncounts an attempt taken (best effort: a lost give-back only shortens the budget). */
  giveBack(keys: ThrottleKey[]): Promise<void>;
  /**
   * One throttled check: the attempt is taken first, `verify` runs, and the attempt stays counted
   * only when `verify` fails in a way `isFailure` says is a wrong guess.
   */
  attempt<T>(keys: ThrottleKey[], isFailure: (e: unknown) => boolean, verify: () => Promise<T>): Promise<T>;
}

export function createSignInThrottle(db: Db, now: () => Date): SignInThrottle {
  const windowMs = SIGN_IN_LIMITS.windowS * 1000;
  const giveBack = async (keys: ThrottleKey[]) => {
    const nowMs = now().getTime();
    await Promise.all(keys.map((k) => giveBackAttempt(db, stored(k), nowMs).catch(() => {})));
  };
  const take = async (keys: ThrottleKey[]) => {
    const nowMs = now().getTime();
    const done: ThrottleKey[] = [];
    for (const k of keys) {
      let r;
      try {
        r = await takeAttempt(db, stored(k), limitOf(k), windowMs, nowMs);
      } catch {
        await giveBack(done);
        throw unavailable();
      }
      if (!r.taken) {
        await giveBack(done);
        throw tooMany(r.expireMs, nowMs);
      }
      done.push(k);
    }
  };
  return {
    async check(keys) {
      const nowMs = now().getTime();
      let found: (number | null)[];
      try {
        found = await Promise.all(keys.map((k) => spentUntil(db, stored(k), limitOf(k), nowMs)));
      } catch {
        throw unavailable();
      }
      const until = found.reduce<number | null>((a, b) => (b !== null && (a === null || b > a) ? b : a), null);
      if (until !== null) throw tooMany(until, nowMs);
    },
    take,
    giveBack,
    async attempt(keys, isFailure, verify) {
      await take(keys);
      try {
        const result = await verify();
        await giveBack(keys);
        return result;
      } catch (e) {
        if (!isFailure(e)) await giveBack(keys);
        throw e;
      }
    },
  };
}

/** Counters whose window has ended (the hourly sweep). */
export function sweepSignInLimits(db: Db, now: Date): Promise<number> {
  return deleteEndedLimits(db, now.getTime());
}
