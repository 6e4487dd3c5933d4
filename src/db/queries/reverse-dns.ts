// Reverse DNS of server addresses: ours (read back by the API) and the simulated platform's.
import type { Db } from '../connection.ts';
import type { ServerReverseDns } from '../schema.ts';

export function listServerReverseDns(db: Db, serverId: string): Promise<ServerReverseDns[]> {
  return db.selectFrom('server_reverse_dns').selectAll().where('server_id', '=', serverId).execute();
}

/** Sets (or, with null, removes) the name we hold for an address of a server. */
export async function saveServerReverseDns(db: Db, serverId: string, address: string, hostname: string | null, at: Date): Promise<void> {
  if (hostname === null) {
    await db.deleteFrom('server_reverse_dns').where('server_id', '=', serverId).where('address', '=', address).execute();
    return;
  }
  await db.insertInto('server_reverse_dns').values({ server_id: serverId, address, hostname, updated_at: at })
    .onConflict((oc) => oc.columns(['server_id', 'address']).doUpdateSet({ hostname, updated_at: at }))
    .execute();
}

// --- the simulated platform ----------------------------------------------------------------------

export async function setSimReverseDns(db: Db, vmId: string, address: string, hostname: string | null): Promise<void> {
  if (hostname === null) {
    await db.deleteFrom('sim_reverse_dns').where('address', '=', address).execute();
    return;
  }
  await db.insertInto('sim_reverse_dns').values({ address, vm_id: vmId, hostname, updated_at: new Date() })
    .onConflict((oc) => oc.column('address').doUpdateSet({ vm_id: vmId, hostname, updated_at: new Date() }))
    .execute();
}

export async function findSimReverseDns(db: Db, address: string): Promise<string | null> {
  const row = await db.selectFrom('sim_reverse_dns').select('hostname').where('address', '=', address).executeTakeFirst();
  return row?.hostname ?? null;
}

/** Released addresses lose their records: one address, or (address omitted) all of a machine's. */
export async function clearSimReverseDns(db: Db, vmId: string, address?: string): Promise<void> {
  let q = db.deleteFrom('sim_reverse_dns').where('vm_id', '=', vmId);
  if (address !== undefined) q = q.where('address', '=', address);
  await q.execute();
}
