// Server snapshots. A row is written `creating` with the charge that pays for it; the snapshot
// operation turns it `available` (or, if it finally fails, deleted and refunded).
import { type Insertable, sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { Snapshot, SnapshotsTable } from '../schema.ts';

/** A snapshot of the account's (not deleted). */
export function findAccountSnapshot(db: Db, accountId: string, id: number): Promise<Snapshot | undefined> {
  return db.selectFrom('snapshots').selectAll()
    .where('id', '=', id).where('account_id', '=', accountId).where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export function findSnapshotById(db: Db, id: number): Promise<Snapshot | undefined> {
  return db.selectFrom('snapshots').selectAll().where('id', '=', id).executeTakeFirst();
}

export function insertSnapshot(db: Db, row: Insertable<SnapshotsTable>): Promise<Snapshot> {
  return db.insertInto('snapshots').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Live snapshots of a server, newest first. */
export async function listServerSnapshotsPage(db: Db, serverId: string, limit: number, offset: number): Promise<{ rows: Snapshot[]; total: number }> {
  const base = db.selectFrom('snapshots').where('server_id', '=', serverId).where('deleted_at', 'is', null);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}

/** creating → available; false when it is no longer creating (finished or discarded before). */
export async function markSnapshotAvailable(db: Db, id: number, f: { sizeGb: number; providerRef: string }): Promise<boolean> {
  const r = await db.updateTable('snapshots').set({ status: 'available', size_gb: f.sizeGb, provider_ref: f.providerRef })
    .where('id', '=', id).where('status', '=', 'creating').where('deleted_at', 'is', null)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Removes a snapshot still being created; false when it is not (then nothing is to undo). */
export async function discardCreatingSnapshot(db: Db, id: number, at: Date): Promise<boolean> {
  const r = await db.updateTable('snapshots').set({ deleted_at: at })
    .where('id', '=', id).where('status', '=', 'creating').where('deleted_at', 'is', null)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Removes a snapshot from the customer's side (billing stops); false when it was already gone. */
export async function markSnapshotDeleted(db: Db, id: number, at: Date): Promise<boolean> {
  const r = await db.updateTable('snapshots').set({ deleted_at: at }).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  return r.numUpdatedRows > 0n;
}
