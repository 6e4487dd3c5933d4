// The registrar's contact outbox (registrar_contact_sync): queued with a profile change, claimed by
// workers, removed once the registry holds the profile that was read, pushed back while it fails.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { RegistrarContactSync } from '../schema.ts';

/** A profile changed: its account's contacts are synced, if it holds any domain (a newer change supersedes an older one). */
export async function queueContactSync(trx: Db, accountId: string): Promise<boolean> {
  const r = await sql<{ account_id: string }>`
    INSERT INTO registrar_contact_sync (account_id)
    SELECT ${accountId}
    WHERE EXISTS (SELECT 1 FROM domains WHERE account_id = ${accountId} AND status <> 'cancelled')
    ON CONFLICT (account_id) DO UPDATE
      SET version = registrar_contact_sync.version + 1, requested_at = now(), due_at = now(), attempts = 0, last_error = NULL, refused = false
    RETURNING account_id`.execute(trx);
  return r.rows.length > 0;
}

/** Up to `limit` rows come due, each held for `leaseS` (a worker that dies with one leaves it to the next after that). */
export async function claimContactSyncs(db: Db, limit: number, leaseS: number): Promise<RegistrarContactSync[]> {
  const r = await sql<RegistrarContactSync>`
    UPDATE registrar_contact_sync s SET due_at = now() + make_interval(secs => ${leaseS}), attempts = s.attempts + 1
    WHERE s.account_id IN (
      SELECT account_id FROM registrar_contact_sync WHERE NOT refused AND due_at <= now() ORDER BY due_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
    )
    RETURNING s.*`.execute(db);
  return r.rows;
}

/** Synced: gone, unless a newer change came meanwhile (its row stays due). */
export async function finishContactSync(db: Db, accountId: string, version: string): Promise<void> {
  await db.deleteFrom('registrar_contact_sync').where('account_id', '=', accountId).where('version', '=', version).execute();
}

/** Failed: tried again after `waitS`, or parked when the registry refused the data (a new change frees it). */
export async function failContactSync(db: Db, accountId: string, version: string, error: string, waitS: number | null): Promise<void> {
  await db.updateTable('registrar_contact_sync')
    .set(waitS === null ? { last_error: error, refused: true } : { last_error: error, due_at: sql<Date>`now() + make_interval(secs => ${waitS})` })
    .where('account_id', '=', accountId).where('version', '=', version).execute();
}

export function findContactSync(db: Db, accountId: string): Promise<RegistrarContactSync | undefined> {
  return db.selectFrom('registrar_contact_sync').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}
