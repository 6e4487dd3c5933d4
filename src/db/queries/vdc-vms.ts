// VDC VMs. Changing a row's held_* or deleted_at moves its pool's used counters in the same
// statement (the trigger of migration 0008), and fails it with a CHECK violation when the pool
// cannot hold the change.
import { type Insertable, sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { PowerState, VdcVm, VdcVmStatus, VdcVmsTable } from '../schema.ts';

export function insertVdcVm(db: Db, row: Insertable<VdcVmsTable>): Promise<VdcVm> {
  return db.insertInto('vdc_vms').values(row).returningAll().executeTakeFirstOrThrow();
}

/**
 * The VM row found by its primary key alone, in a subquery the planner keeps apart (OFFSET 0), the
 * account and `deleted_at IS NULL` checked around it: as with servers (queries/servers.ts), given
 * all three PostgreSQL may pick the account's partial list index and walk the whole account.
 */
const vdcVmById = (db: Db, id: string) => db.selectFrom('vdc_vms').selectAll().where('id', '=', id).offset(0).as('vdc_vms');

/** A live (not deleted) VM of the account. */
export function findAccountVdcVm(db: Db, accountId: string, id: string): Promise<VdcVm | undefined> {
  return db.selectFrom(vdcVmById(db, id)).selectAll()
    .where('account_id', '=', accountId).where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Same, locked for the rest of the transaction (state checks that lead to a write; another account's id is never returned). */
export function lockAccountVdcVm(db: Db, accountId: string, id: string): Promise<VdcVm | undefined> {
  return db.selectFrom(vdcVmById(db, id)).selectAll()
    .where('account_id', '=', accountId).where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

export function findVdcVmById(db: Db, id: string): Promise<VdcVm | undefined> {
  return db.selectFrom('vdc_vms').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface VdcVmRow extends VdcVm {
  os_slug: string | null;
  /** The OS as v1 names it: family ("Ubuntu") and version ("24.04"). */
  os_family: string | null;
  os_version: string | null;
  /** The compute provider its location routes to ("primary" for the main platform). */
  location_provider: string;
}

function withOsAndLocation(db: Db, id?: string) {
  return (id === undefined ? db.selectFrom('vdc_vms') : db.selectFrom(vdcVmById(db, id)))
    .innerJoin('locations', 'locations.id', 'vdc_vms.location_id')
    .leftJoin('operating_systems', 'operating_systems.id', 'vdc_vms.os_version_id')
    .selectAll('vdc_vms')
    .select(['operating_systems.slug as os_slug', 'operating_systems.family as os_family', 'operating_systems.version as os_version', 'locations.provider as location_provider']);
}

/** A live VM of the account with its OS slug and location's provider, in one round trip. */
export function findAccountVdcVmDetail(db: Db, accountId: string, id: string): Promise<VdcVmRow | undefined> {
  return withOsAndLocation(db, id)
    .where('vdc_vms.account_id', '=', accountId).where('vdc_vms.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** A page of the account's live VMs, newest first, and their number. */
export async function listVdcVmsPage(db: Db, accountId: string, limit: number, offset: number): Promise<{ rows: VdcVmRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    withOsAndLocation(db).where('vdc_vms.account_id', '=', accountId).where('vdc_vms.deleted_at', 'is', null)
      .orderBy('vdc_vms.created_at', 'desc').orderBy('vdc_vms.id', 'desc').limit(limit).offset(offset).execute(),
    db.selectFrom('vdc_vms').where('account_id', '=', accountId).where('deleted_at', 'is', null)
      .select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}

export interface VdcVmPatch {
  status?: VdcVmStatus;
  power_state?: PowerState;
  os_version_id?: number | null;
  cpu_cores?: number;
  ram_mb?: number;
  storage_gb?: number;
  held_cpu?: number;
  held_ram_mb?: number;
  held_storage_gb?: number;
  held_ipv4?: number;
  held_ipv6?: number;
  deleted_at?: Date;
}

export function updateVdcVmRow(db: Db, id: string, patch: VdcVmPatch): Promise<VdcVm | undefined> {
  return db.updateTable('vdc_vms').set({ ...patch, updated_at: new Date() }).where('id', '=', id).returningAll().executeTakeFirst();
}

/** pending → active once the platform reports the machine; false if it is no longer pending. */
export async function markVdcVmProvisioned(db: Db, id: string, f: { providerRef: string; primaryIp: string | null; primaryIpv6: string | null }): Promise<boolean> {
  const res = await db.updateTable('vdc_vms')
    .set({ status: 'active', power_state: 'running', provider_ref: f.providerRef, primary_ip: f.primaryIp, primary_ipv6: f.primaryIpv6, updated_at: new Date() })
    .where('id', '=', id).where('status', '=', 'pending').where('deleted_at', 'is', null)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}
