// Events (migration 0041): written by hc_emit_event in the caller's transaction, read by the
// account they belong to, removed after the retention period.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { EventRow } from '../schema.ts';

export interface NewEvent {
  accountId: string;
  type: string;
  resourceType: string;
  resourceId: string;
  /** The resource's facts, for a resource hc_event_snapshot does not read (DNS zones); default: read by the database. */
  data?: Record<string, unknown>;
}

/** Writes one event in `trx`, its data read from the resource as the transaction sees it now; its id. */
export async function insertEvent(trx: Db, e: NewEvent): Promise<string> {
  const r = e.data === undefined
    ? await sql<{ id: string }>`SELECT hc_emit_event(${e.accountId}, ${e.type}, ${e.resourceType}, ${e.resourceId}) AS id`.execute(trx)
    : await sql<{ id: string }>`SELECT hc_emit_event(${e.accountId}, ${e.type}, ${e.resourceType}, ${e.resourceId}, ${JSON.stringify(e.data)}::jsonb) AS id`.execute(trx);
  return r.rows[0]!.id;
}

export interface EventFilter {
  type?: string;
  resourceType?: string;
  resourceId?: string;
}

/** One page of the account's events, newest first, and how many match. */
export async function listEventsPage(db: Db, accountId: string, f: EventFilter, limit: number, offset: number): Promise<{ rows: EventRow[]; total: number }> {
  let q = db.selectFrom('events').where('account_id', '=', accountId);
  if (f.type !== undefined) q = q.where('type', '=', f.type);
  if (f.resourceType !== undefined) q = q.where('resource_type', '=', f.resourceType);
  if (f.resourceId !== undefined) q = q.where('resource_id', '=', f.resourceId);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy('seq', 'desc').limit(limit).offset(offset).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}

export function findAccountEvent(db: Db, accountId: string, id: string): Promise<EventRow | undefined> {
  return db.selectFrom('events').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
}

/**
 * Removes events written more than `days` ago, `batch` at a time (each batch its own short
 * statement, so a large backlog never holds locks for long); how many went.
 */
export async function deleteEventsOlderThan(db: Db, days: number, batch = 5_000): Promise<number> {
  let removed = 0;
  for (;;) {
    const r = await sql`
      DELETE FROM events WHERE id IN (
        SELECT id FROM events WHERE created_at < now() - make_interval(days => ${days}) LIMIT ${batch})`.execute(db);
    const n = Number(r.numAffectedRows ?? 0);
    removed += n;
    if (n < batch) return removed;
  }
}
