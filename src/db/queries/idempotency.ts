import { sql } from 'kysely';
import type { Db } from '../connection.ts';

/**
 * What a stored answer says its request did: created something, did what it was asked, or is
 * still at it (a request spanning several transactions). The core speaks of outcomes only; the
 * column keeps each as a number — the HTTP status v2 gives it, 0 in flight — so that records
 * written before read the same.
 */
export type RecordOutcome = 'created' | 'done' | 'in_flight';

const CODE_OF: Record<RecordOutcome, number> = { created: 201, done: 200, in_flight: 0 };

/** The column's number for an outcome (billable-create.ts writes it too). */
export function outcomeCode(outcome: RecordOutcome): number {
  return CODE_OF[outcome];
}

function outcomeOf(code: number | null): RecordOutcome | null {
  return code === null ? null : code === 0 ? 'in_flight' : code === 201 ? 'created' : 'done';
}

export interface IdempotencyRecord {
  request_hash: string;
  /** null: claimed by a request whose transaction has not committed its answer. */
  outcome: RecordOutcome | null;
  response: unknown;
}

function recordOf(row: { request_hash: string; status_code: number | null; response: unknown } | undefined): IdempotencyRecord | undefined {
  return row && { request_hash: row.request_hash, outcome: outcomeOf(row.status_code), response: row.response };
}

/**
 * Claims (account, key) for this request, or takes over an expired claim. While another
 * transaction holds an uncommitted claim on the same key, this waits for it (the unique index)
 * — up to the transaction's lock_timeout. Returns false when a live record already exists.
 */
export async function claimIdempotencyKey(db: Db, accountId: string, key: string, hash: string, expiresAt: Date): Promise<boolean> {
  const row = await db.insertInto('idempotency_keys')
    .values({ account_id: accountId, key, request_hash: hash, expires_at: expiresAt })
    .onConflict((oc) => oc.columns(['account_id', 'key']).doUpdateSet({
      request_hash: hash, status_code: null, response: null, expires_at: expiresAt,
    }).where('idempotency_keys.expires_at', '<=', sql<Date>`now()`))
    .returning('key')
    .executeTakeFirst();
  return row !== undefined;
}

export async function findIdempotencyRecord(db: Db, accountId: string, key: string): Promise<IdempotencyRecord | undefined> {
  return recordOf(await db.selectFrom('idempotency_keys').select(['request_hash', 'status_code', 'response'])
    .where('account_id', '=', accountId).where('key', '=', key).executeTakeFirst());
}

/** The same, unless it has expired (an expired record is taken over by the next claim). */
export async function findLiveIdempotencyRecord(db: Db, accountId: string, key: string): Promise<IdempotencyRecord | undefined> {
  return recordOf(await db.selectFrom('idempotency_keys').select(['request_hash', 'status_code', 'response'])
    .where('account_id', '=', accountId).where('key', '=', key).where('expires_at', '>', sql<Date>`now()`).executeTakeFirst());
}

export async function saveIdempotentResponse(db: Db, accountId: string, key: string, outcome: RecordOutcome, response: unknown): Promise<void> {
  await db.updateTable('idempotency_keys').set({ status_code: outcomeCode(outcome), response: JSON.stringify(response) })
    .where('account_id', '=', accountId).where('key', '=', key).execute();
}

export async function deleteExpiredIdempotencyKeys(db: Db): Promise<number> {
  const res = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', sql<Date>`now()`).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Drops a record whose request finally failed after it was stored (a multi-step request), so the key can be used again. */
export async function forgetIdempotencyKey(db: Db, accountId: string, key: string): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('account_id', '=', accountId).where('key', '=', key).execute();
}

// --- batches (core/idempotency/batch.ts) ------------------------------------------------------
// A batch's placeholder body is {"lease_until": timestamp, "items": {"<index>": result}}.

/** The request is alive: its placeholder's lease runs `leaseS` more seconds (database clock). */
export async function renewBatchLease(db: Db, accountId: string, key: string, leaseS: number): Promise<void> {
  await db.updateTable('idempotency_keys')
    .set({ response: sql`jsonb_set(response, '{lease_until}', to_jsonb(now() + make_interval(secs => ${leaseS})))` })
    .where('account_id', '=', accountId).where('key', '=', key).where('status_code', '=', outcomeCode('in_flight')).execute();
}

/** Lets a retry take the batch over at once (its request gave up). */
export async function releaseBatchLease(db: Db, accountId: string, key: string): Promise<void> {
  await db.updateTable('idempotency_keys')
    .set({ response: sql`jsonb_set(response, '{lease_until}', to_jsonb(now()))` })
    .where('account_id', '=', accountId).where('key', '=', key).where('status_code', '=', outcomeCode('in_flight')).execute();
}

/**
 * Claims the placeholder of a batch whose lease lapsed (its request is presumed dead) for this
 * request with the same fingerprint; one UPDATE, so one taker wins. The items it finished, or
 * undefined when the placeholder is not up for taking.
 */
export async function takeOverBatch(db: Db, accountId: string, key: string, hash: string, leaseS: number): Promise<Record<string, unknown> | undefined> {
  const row = await db.updateTable('idempotency_keys')
    .set({ response: sql`jsonb_set(response, '{lease_until}', to_jsonb(now() + make_interval(secs => ${leaseS})))` })
    .where('account_id', '=', accountId).where('key', '=', key).where('status_code', '=', outcomeCode('in_flight')).where('request_hash', '=', hash)
    .where(sql<boolean>`jsonb_typeof(response->'items') = 'object' AND (response->>'lease_until')::timestamptz < now()`)
    .returning(sql<Record<string, unknown>>`response->'items'`.as('items'))
    .executeTakeFirst();
  return row?.items;
}

/** Records one finished item of a batch, in the transaction of the item's own work. */
export async function recordBatchItem(trx: Db, accountId: string, key: string, index: number, result: unknown): Promise<void> {
  await trx.updateTable('idempotency_keys')
    .set({ response: sql`jsonb_set(response, ARRAY['items', ${String(index)}::text], ${JSON.stringify(result)}::jsonb)` })
    .where('account_id', '=', accountId).where('key', '=', key).where('status_code', '=', outcomeCode('in_flight')).execute();
}
