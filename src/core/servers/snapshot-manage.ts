// Deleting and restoring server snapshots. Both are operations on the server, like taking one,
// so one at a time runs on it: a snapshot cannot be deleted while it is being taken or restored
// from. Delete: the snapshot leaves the list and stops billing at once (its monthly fee is no
// longer due; the month already paid is not refunded), and server.snapshot_delete frees it at the
// platform. Restore: server.restore rewrites the disk from the snapshot and boots the server.
import { findAccountSnapshot, markSnapshotDeleted } from '../../db/queries/snapshots.ts';
import type { Operation, Snapshot } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { resourceWrite } from '../one-at-a-time.ts';
import type { Ctx } from '../context.ts';
import { ApiError, notFound } from '../errors.ts';
import { startOperation } from '../operations/service.ts';
import type { Db } from '../types.ts';
import { lockServer, requireActive } from './guards.ts';
import type { SnapshotRef } from './runners/server.snapshot_delete.ts';

export const SNAPSHOT_DELETE_OPERATION = 'server.snapshot_delete';
export const RESTORE_OPERATION = 'server.restore';

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
      type: SNAPSHOT_DELETE_OPERATION, resourceId: server.id, params, detail: `Queued: delete snapshot ${snapshot.name}`,
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
      type: RESTORE_OPERATION, resourceId: server.id, params, detail: `Queued: restore snapshot ${snapshot.name}`,
    });
    if (snapshot.status !== 'available') throw new ApiError('STATE_CONFLICT', `Snapshot ${snapshot.id} is ${snapshot.status}; only an available snapshot can be restored`);
    return { snapshot, operation };
  }));
}
