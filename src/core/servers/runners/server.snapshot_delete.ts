// server.snapshot_delete: the platform's part of deleting a snapshot (snapshot-manage.ts).
import { findSnapshotById } from '../../../db/queries/snapshots.ts';
import type { Runner } from '../../operations/runner.ts';

/** The snapshot a server.snapshot_delete or server.restore acts on. */
export interface SnapshotRef {
  snapshot_id: number;
}

/** server.snapshot_delete: the snapshot left the customer's side when asked; this frees it upstream. */
export const serverSnapshotDeleteRunner: Runner<SnapshotRef> = {
  async run(rc, op) {
    const snapshot = await findSnapshotById(rc.db, op.params.snapshot_id);
    if (!snapshot?.provider_ref) return { detail: 'Snapshot deleted' };
    await rc.compute.deleteSnapshot(snapshot.provider_ref);
    return { detail: `Snapshot ${snapshot.name} deleted` };
  },
};
