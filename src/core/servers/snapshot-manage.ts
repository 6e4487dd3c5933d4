// Deleting and restoring server snapshots. Both are operations on the server, like taking one,
// so one at a time runs on it: a snapshot cannot be deleted while it is being taken or restored
// from. Delete: the snapshot leaves the list and stops billing at once (its monthly fee is no
// longer due; the month already paid is not refunded), and server.snapshot_delete frees it at the
// platform. Restore: server.restore rewrites the disk from the snapshot and boots the server.
import { findAccountSnapshot, findSnapshotById, markSnapshotDeleted } from '../../db/queries/snapshots.ts';
import { updateServerRow } from '../../db/queries/servers.ts';
import type { Operation, Snapshot } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { resourceWrite } from '../one-at-a-time.ts';
import { ProviderError } from '../../providers/compute/types.ts';
import type { Ctx } from '../context.ts';
import { ApiError, notFound } from '../errors.ts';
import type { Runner } from '../operations/runner.ts';
import { startOperation } from '../operations/service.ts';
import type { Db } from '../types.ts';
import { lockServer, machineRefOf, requireActive } from './guards.ts';

export const SNAPSHOT_DELETE_OPERATION = 'server.snapshot_delete';
export const RESTORE_OPERATION = 'server.restore';

interface SnapshotRef {
  snapshot_id: number;
}

async function lockServerAndSnapshot(ctx: Ctx, trx: Db, serverId: string, snapshotId: number) {
  const server = await lockServer(ctx, trx, serverId);
  const snapshot = await findAccountSnapshot(trx, ctx.accountId, snapshotId);
  if (!snapshot || snapshot.server_id !== server.id) throw notFound('Snapshot');
  return { server, snapshot };
}

export async function deleteServerSnapshot(ctx: Ctx, serverId: string, snapshotId: number): Promise<{ snapshot: Snapshot; operation: Operation }> {
  return resourceWrite(ctx, 'server', serverId, () => inTransaction(ctx.db, async (trx) => {
    const { server, snapshot } = await lockServerAndSnapshot(ctx, trx, serverId, snapshotId);
    const params: SnapshotRef = { snapshot_id: snapshot.id };
    // A snapshot still being taken holds the server with its own operation: the 409 names it.
    const operation = await startOperation(ctx, trx, {
      type: SNAPSHOT_DELETE_OPERATION, resourceType: 'server', resourceId: server.id, params: { ...params }, detail: `Queued: delete snapshot ${snapshot.name}`,
    });
    await markSnapshotDeleted(trx, snapshot.id, ctx.now);
    return { snapshot, operation };
  }));
}

export async function restoreServerSnapshot(ctx: Ctx, serverId: string, snapshotId: number): Promise<{ snapshot: Snapshot; operation: Operation }> {
  return resourceWrite(ctx, 'server', serverId, () => inTransaction(ctx.db, async (trx) => {
    const { server, snapshot } = await lockServerAndSnapshot(ctx, trx, serverId, snapshotId);
    requireActive(server);
    const params: SnapshotRef = { snapshot_id: snapshot.id };
    const operation = await startOperation(ctx, trx, {
      type: RESTORE_OPERATION, resourceType: 'server', resourceId: server.id, params: { ...params }, detail: `Queued: restore snapshot ${snapshot.name}`,
    });
    if (snapshot.status !== 'available') throw new ApiError('STATE_CONFLICT', `Snapshot ${snapshot.id} is ${snapshot.status}; only an available snapshot can be restored`);
    return { snapshot, operation };
  }));
}

const snapshotIdOf = (op: Operation) => (op.params as Partial<SnapshotRef>).snapshot_id ?? 0;

/** server.snapshot_delete: the snapshot left the customer's side when asked; this frees it upstream. */
export const serverSnapshotDeleteRunner: Runner = {
  async run(rc, op) {
    const snapshot = await findSnapshotById(rc.db, snapshotIdOf(op));
    if (!snapshot?.provider_ref) return { detail: 'Snapshot deleted' };
    await rc.compute.deleteSnapshot(snapshot.provider_ref);
    return { detail: `Snapshot ${snapshot.name} deleted` };
  },
};

/**
 * server.restore: the platform rewrites the disk from the snapshot and boots the server, which
 * takes the OS it had then; its size stays (a disk never shrinks). A final failure leaves the
 * power state `unknown`: the machine may have stopped part of the way.
 */
export const serverRestoreRunner: Runner = {
  async run(rc, op) {
    const snapshot = await findSnapshotById(rc.db, snapshotIdOf(op));
    if (!snapshot || snapshot.deleted_at || snapshot.status !== 'available' || !snapshot.provider_ref) {
      throw new ProviderError('UPSTREAM_ERROR', `snapshot ${snapshotIdOf(op)} is no longer available`, false);
    }
    const ref = await machineRefOf(rc.db, op.resource_id);
    await rc.progress(5, `Restoring snapshot ${snapshot.name}`);
    await rc.compute.restoreSnapshot(ref, snapshot.provider_ref, op.id, rc.progress);
    return {
      detail: `Restored snapshot ${snapshot.name}; the server is running`,
      apply: async (trx: Db) => {
        await updateServerRow(trx, op.resource_id, { power_state: 'running', ...(snapshot.os_version_id !== null ? { os_version_id: snapshot.os_version_id } : {}) });
      },
    };
  },

  async compensate(trx, op) {
    await updateServerRow(trx, op.resource_id, { power_state: 'unknown' });
  },
};
