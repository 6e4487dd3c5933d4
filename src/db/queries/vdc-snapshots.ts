// Snapshots of VDC VMs: written `creating` with their operation; the operation makes them
// `available` (or, if it finally fails, deleted).
import { type Insertable, sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { VdcSnapshot, VdcSnapshotsTable } from '../schema.ts';

export function insertVdcSnapshot(db: Db, row: Insertable<VdcSnapshotsTable>): Promise<VdcSnapshot> {
  return db.insertInto('vdc_snapshots').values(row).returningAll().executeTakeFirstOrThrow();
}

/** A live snapshot of the VM. */
export function findVmSnapshot(db: Db, vmId: string, id: number): Promise<VdcSnapshot | undefined> {
  return db.selectFrom('vdc_snapshots').selectAll().where('id', '=', id).where('vm_id', '=', vmId).where('deleted_at', 'is', null).executeTakeFirst();
}

export function findVdcSnapshotById(db: Db, id: number): Promise<VdcSnapshot | undefined> {
  return db.selectFrom('vdc_snapshots').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Live snapshots of a VM, newest first. */
export async function listVmSnapshotsPage(db: Db, vmId: string, limit: number, offset: number): Promise<{ rows: VdcSnapshot[]; total: number }> {
  const base = db.selectFrom('vdc_snapshots').where('vm_id', '=', vmId).where('deleted_at', 'is', null);
  const [rows, count] = await Promise.all([
    base.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}

/** creating → available; false when it is no longer creating (finished or discarded before). */
export async function markVdcSnapshotAvailable(db: Db, id: number, f: { sizeGb: number; providerRef: string }): Promise<boolean> {
  const r = await db.updateTable('vdc_snapshots').set({ status: 'available', size_gb: f.sizeGb, provider_ref: f.providerRef })
    .where('id', '=', id).where('status', '=', 'creating').where('deleted_at', 'is', null)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Removes a snapshot still being created; false when it is not. */
export async function discardCreatingVdcSnapshot(db: Db, id: number, at: Date): Promise<boolean> {
  const r = await db.updateTable('vdc_snapshots').set({ deleted_at: at })
    .where('id', '=', id).where('status', '=', 'creating').where('deleted_at', 'is', null)
    .executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

/** Deletes live snapshots (`ids`, or every one of the VM when omitted); returns those it deleted. */
export function deleteVmSnapshots(db: Db, vmId: string, at: Date, ids?: number[]): Promise<VdcSnapshot[]> {
  let q = db.updateTable('vdc_snapshots').set({ deleted_at: at }).where('vm_id', '=', vmId).where('deleted_at', 'is', null);
  if (ids) q = q.where('id', 'in', ids.length ? ids : [-1]);
  return q.returningAll().execute();
}

/** Platform refs of the VM's deleted snapshots (the VM's delete removes them upstream too). */
export async function deletedVmSnapshotRefs(db: Db, vmId: string): Promise<string[]> {
  const rows = await db.selectFrom('vdc_snapshots').select('provider_ref')
    .where('vm_id', '=', vmId).where('deleted_at', 'is not', null).where('provider_ref', 'is not', null).execute();
  return rows.map((r) => r.provider_ref!);
}
