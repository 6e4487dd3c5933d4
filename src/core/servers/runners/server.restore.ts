import { findSnapshotById } from '../../../db/queries/snapshots.ts';
import { updateServerRow } from '../../../db/queries/servers.ts';
import { ProviderError } from '../../../providers/compute/types.ts';
import type { Runner } from '../../operations/runner.ts';
import type { Db } from '../../types.ts';
import { machineRefOf } from '../guards.ts';
import type { SnapshotRef } from './server.snapshot_delete.ts';

/**
 * server.restore: the platform rewrites the disk from the snapshot and boots the server, which
 * takes the OS it had then; its size stays (a disk never shrinks). A final failure leaves the
 * power state `unknown`: the machine may have stopped part of the way.
 */
export const serverRestoreRunner: Runner<SnapshotRef> = {
  async run(rc, op) {
    const snapshot = await findSnapshotById(rc.db, op.params.snapshot_id);
    if (!snapshot || snapshot.deleted_at || snapshot.status !== 'available' || !snapshot.provider_ref) {
      throw new ProviderError('UPSTREAM_ERROR', `snapshot ${op.params.snapshot_id} is no longer available`, false);
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
