// Idempotency-Key for billable POSTs. The record is claimed at the start of the request's own
// transaction and filled with the response before it commits, so the charge and the record
// commit together; a failed request rolls its claim back and leaves nothing behind. A duplicate
// arriving while the first is in flight blocks on the unique key until the first finishes, then
// replays it (or, past the connection's lock_timeout of 10 s, is told to retry with 409).
import { createHash } from 'node:crypto';
import { LOCK_TIMEOUT_MS } from '../../db/connection.ts';
import { isLockNotAvailable } from '../../db/refusals.ts';
import { type RecordOutcome, claimIdempotencyKey, findIdempotencyRecord, findLiveIdempotencyRecord, saveIdempotentResponse } from '../../db/queries/idempotency.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { ApiError, invalid } from '../errors.ts';
import type { Db } from '../types.ts';

/** How long a duplicate waits for the first request with its key (the connections' lock_timeout). */
export const IDEMPOTENCY_WAIT_MS = LOCK_TIMEOUT_MS;
/** Records live this long. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What a request did, as its answer says: it created something, or did what it was asked. The
 * adapters pick the status (v2: 201 and 200; v1: 200 for both); the core never does.
 */
export type Outcome = 'created' | 'done';

/** A request's answer: its outcome and the body a replay gives back. */
export interface Answer {
  outcome: Outcome;
  body: unknown;
}

/** A request's Idempotency-Key (undefined without one) and fingerprint (requestFingerprint). */
export interface Idempotency {
  key: string | undefined;
  fingerprint: string;
}

/** An answer, and whether it is the stored one of an earlier request with the same key. */
export type Replayable = Answer & { replayed: boolean };

/** A record's answer, a placeholder's too (a request spanning several transactions). */
interface RecordAnswer {
  outcome: RecordOutcome;
  body: unknown;
}

/** The header's value, checked: undefined when absent; a UUID in lower case otherwise. */
export function parseIdempotencyKey(raw: string | string[] | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const text = Array.isArray(raw) ? raw.join(',') : raw;
  if (!UUID.test(text.trim())) throw invalid('Idempotency-Key', 'must be a UUID, such as 3f1c2a9e-8b7d-4c6e-9f00-1a2b3c4d5e6f');
  return text.trim().toLowerCase();
}

/**
 * Test keys get a key space of their own (a UUID derived from the key), so a sandbox request
 * never replays, nor waits for, a live request of the same account that used the same key.
 */
export function sandboxKey(key: string): string {
  const h = createHash('sha256').update(`sandbox:${key}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** The key a request's record is stored under (a test key's own key space; see sandboxKey). */
export function recordKey(ctx: Pick<Ctx, 'sandbox'>, key: string): string {
  return ctx.sandbox ? sandboxKey(key) : key;
}

/** JSON with object keys sorted at every level: equal bodies hash equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256').update(`${method.toUpperCase()} ${path}\n${canonicalJson(body ?? null)}`).digest('hex');
}

export interface IdempotentOptions {
  /**
   * Checks that ask an upstream system (is there room on the hosting panel?), run before the
   * transaction: a request never holds a database connection while it waits for an upstream (a
   * burst of them would starve the pool). A repeat whose first answer is stored is replayed
   * without them — the state they check may have changed since, because of that very request.
   */
  beforeTransaction?: () => Promise<void>;
}

/**
 * Runs `work` in one transaction, once per (account, key): a repeat with the same fingerprint
 * gets the stored response (`replayed: true`), a different one 409 IDEMPOTENCY_KEY_CONFLICT.
 */
export function idempotent(
  ctx: Ctx,
  key: string | undefined,
  fingerprint: string,
  work: (trx: Db) => Promise<Answer>,
  opts: IdempotentOptions = {},
): Promise<Replayable> {
  // A record in flight belongs to a request of several steps (idempotentSteps), whose key and
  // fingerprint no single-transaction request shares: its answer is never a placeholder.
  return once(ctx, key, fingerprint, work, opts) as Promise<Replayable>;
}

async function once(
  ctx: Ctx,
  key: string | undefined,
  fingerprint: string,
  work: (trx: Db) => Promise<RecordAnswer>,
  opts: IdempotentOptions = {},
): Promise<RecordAnswer & { replayed: boolean }> {
  if (key !== undefined && ctx.sandbox) key = sandboxKey(key);
  if (opts.beforeTransaction) {
    const k = key;
    const look = () => (k === undefined ? Promise.resolve(undefined) : findLiveIdempotencyRecord(ctx.db, ctx.accountId, k));
    const stored = await look();
    if (stored && stored.request_hash === fingerprint && stored.outcome !== null) {
      return { outcome: stored.outcome, body: stored.response, replayed: true };
    }
    // A record still running, or another request's, is settled in the transaction (wait and
    // replay, or 409). Without one, the checks run; if they fail because a twin with this key
    // committed meanwhile (its record commits with what it did), the transaction replays it.
    if (!stored) {
      try {
        await opts.beforeTransaction();
      } catch (e) {
        if (!(await look())) throw e;
      }
    }
  }
  if (key === undefined) return { ...(await inTransaction(ctx.db, work)), replayed: false };
  return inTransaction(ctx.db, async (trx) => {
    let claimed: boolean;
    try {
      claimed = await claimIdempotencyKey(trx, ctx.accountId, key, fingerprint, new Date(ctx.now.getTime() + IDEMPOTENCY_TTL_MS));
    } catch (e) {
      if (isLockNotAvailable(e)) {
        throw new ApiError('IDEMPOTENCY_KEY_CONFLICT', 'A request with this Idempotency-Key is still being processed; retry shortly');
      }
      throw e;
    }
    if (!claimed) {
      const existing = await findIdempotencyRecord(trx, ctx.accountId, key);
      if (!existing || existing.request_hash !== fingerprint || existing.outcome === null) {
        throw new ApiError('IDEMPOTENCY_KEY_CONFLICT', 'This Idempotency-Key was already used with a different request');
      }
      return { outcome: existing.outcome, body: existing.response, replayed: true };
    }
    const result = await work(trx);
    await saveIdempotentResponse(trx, ctx.accountId, key, result.outcome, result.body);
    return { ...result, replayed: false };
  });
}

const POLL_MS = 100;

/**
 * For requests that span several transactions (an upstream call between them): the record is
 * claimed as a placeholder that commits with `first`'s work, and the request stores its answer
 * later (saveIdempotentResponse under `key`, the record's key) or frees the key if it fails
 * (forgetIdempotencyKey). A duplicate that finds the placeholder waits up to IDEMPOTENCY_WAIT_MS
 * for the answer (it may also find the key freed and claim it), then 409. `placeholder` is the
 * record's body meanwhile; `takeOver` may claim a placeholder whose request is presumed dead (see
 * batch.ts), returning what `first` would.
 */
export async function idempotentSteps<T>(
  ctx: Ctx, key: string, fingerprint: string, first: (trx: Db, key: string) => Promise<T>,
  opts: { placeholder?: unknown; takeOver?: (key: string) => Promise<T | undefined> } = {},
): Promise<{ claimed: T; key: string } | { stored: Replayable }> {
  const deadline = Date.now() + IDEMPOTENCY_WAIT_MS;
  const own = recordKey(ctx, key);
  for (;;) {
    const claim: { value?: T } = {};
    // The placeholder: the record of a request spanning several transactions, claimed in its first.
    const stored = await once(ctx, key, fingerprint, async (trx) => {
      claim.value = await first(trx, own);
      return { outcome: 'in_flight', body: opts.placeholder ?? null };
    });
    if ('value' in claim) return { claimed: claim.value as T, key: own };
    if (stored.outcome !== 'in_flight') return { stored: { ...stored, outcome: stored.outcome } };
    const taken = opts.takeOver ? await opts.takeOver(own) : undefined;
    if (taken !== undefined) return { claimed: taken, key: own };
    // The first request is between its transactions (or died there): wait, then look again —
    // it may have finished, or failed and freed the key for this one.
    if (Date.now() >= deadline) {
      throw new ApiError('IDEMPOTENCY_KEY_CONFLICT', 'A request with this Idempotency-Key is still being processed; retry shortly');
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
