// server.snapshot: asks the platform for the snapshot (the operation id is the request token, so
// a run repeated after a lost worker gets the same snapshot), then makes it available with its
// size and provider ref. If it finally fails, the snapshot disappears and its fee is refunded.
import { findServerById } from '../../../db/queries/servers.ts';
import { discardCreatingSnapshot, findSnapshotById, markSnapshotAvailable } from '../../../db/queries/snapshots.ts';
import { ProviderError } from '../../../providers/compute/types.ts';
import { refund } from '../../billing/ledger.ts';
import type { Runner } from '../../operations/runner.ts';
import type { Db } from '../../types.ts';

/** What the snapshot runner needs; the charge is what a final failure refunds. */
export interface SnapshotParams {
  snapshot_id: number;
  charged_cents: number;
}

export const serverSnapshotRunner: Runner<SnapshotParams> = {
  async run(rc, op) {
    const snapshotId = op.params.snapshot_id ?? 0;
    const [snapshot, server] = await Promise.all([findSnapshotById(rc.db, snapshotId), findServerById(rc.db, op.resource_id)]);
    if (!snapshot || snapshot.deleted_at || snapshot.status !== 'creating') {
      return { detail: 'Nothing to do: the snapshot is no longer being created' };
    }
    if (!server || server.deleted_at || server.provider_ref === null) {
      // No retry can bring the machine back: fail now, which refunds.
      throw new ProviderError('UPSTREAM_ERROR', `server ${op.resource_id} no longer has a machine`, false);
    }
    await rc.progress(5, `Snapshot ${snapshot.name} started`);
    const taken = await rc.compute.snapshot(server.provider_ref, op.id, rc.progress);
    return {
      detail: `Snapshot ${snapshot.name} is available (${taken.sizeGb} GB)`,
      apply: async (trx: Db) => {
        await markSnapshotAvailable(trx, snapshot.id, { sizeGb: taken.sizeGb, providerRef: taken.ref });
      },
    };
  },

  async compensate(trx, op, reason, now) {
    const snapshot = await findSnapshotById(trx, op.params.snapshot_id ?? 0);
    // Only a snapshot this failure removes is refunded, so a second compensation refunds nothing.
    if (!snapshot || !(await discardCreatingSnapshot(trx, snapshot.id, now))) return;
    const charged = op.params.charged_cents ?? 0;
    if (charged > 0) {
      await refund(trx, snapshot.account_id, charged, `Refund: snapshot ${snapshot.name} (${snapshot.id}) of server ${snapshot.server_id} could not be taken (${reason})`, `snapshot/${snapshot.id}`);
    }
  },
};
