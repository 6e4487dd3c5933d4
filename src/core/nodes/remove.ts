// Retiring an empty node or location. "Empty" is what the database's foreign keys say: servers and
// VDC VMs placed on a node (deleted ones too, until purged), and a location's nodes, pools,
// machines, hosting nodes and web hosting all keep it.
import { deleteLocationRow, deleteNodeRow } from '../../db/queries/placement-deletes.ts';
import { type NodeUsageRow, findNodeWithUsage } from '../../db/queries/nodes.ts';
import type { Location } from '../../db/schema.ts';
import { ApiError, notFound } from '../errors.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Db } from '../types.ts';

const USERS: Record<string, string> = {
  servers: 'servers (deleted ones count until they are purged)',
  vdc_vms: 'VDC VMs (deleted ones count until they are purged)',
  nodes: 'hypervisor nodes',
  ip_pools: 'IP pools',
  hosting_nodes: 'hosting nodes',
  web_hosting: 'web hosting accounts',
  sim_hosting_servers: 'servers of the simulated hosting platform',
};

function inUse(what: string, table: string): ApiError {
  return new ApiError('STATE_CONFLICT', `${what} is still used by ${USERS[table] ?? table}; move or remove them first`);
}

/** Deletes a node nothing was ever placed on (or whose machines are all purged); the node as it was. */
export async function deleteNode(db: Db, id: number): Promise<NodeUsageRow> {
  const before = await findNodeWithUsage(db, id);
  if (!before) throw notFound('Node');
  // A refusal throws inside the transaction: the failed statement leaves nothing to commit.
  await inTransaction(db, async (trx) => {
    const outcome = await deleteNodeRow(trx, id);
    if (!outcome) throw notFound('Node');
    if ('usedBy' in outcome) throw inUse(`Node ${before.name}`, outcome.usedBy);
  });
  return before;
}

/** Deletes a location nothing refers to; the deleted row. */
export async function deleteLocation(db: Db, id: number): Promise<Location> {
  return inTransaction(db, async (trx) => {
    const outcome = await deleteLocationRow(trx, id);
    if (!outcome) throw notFound('Location');
    if ('usedBy' in outcome) throw inUse(`Location ${id}`, outcome.usedBy);
    return outcome.row;
  });
}
