// server.clone (runs on the source): snapshot the source's disk, then build the new server from
// that snapshot. Both calls carry the operation id, so a run repeated after a lost worker gets the
// same snapshot and the same machine. The new server gets its own server.created; on final failure
// it is cancelled (server.cancelled; its name is free again) and its first cycle refunded, as for a
// failed create.
import { nodeNameOf } from '../../../db/queries/nodes.ts';
import { findOsSlug, findServerById, markServerProvisioned, updateServerRow } from '../../../db/queries/servers.ts';
import { refund } from '../../billing/ledger.ts';
import { recordEvent } from '../../events/record.ts';
import type { Runner } from '../../operations/runner.ts';
import { machineRefOf } from '../guards.ts';
import { destroyMachineMadeBy } from './server.create.ts';

/** What the clone runner needs, kept in the operation's params. */
export interface CloneParams {
  clone_id: string;
  charged_cents: number;
  ipv6: boolean;
}

export const serverCloneRunner: Runner<CloneParams> = {
  async run(rc, op) {
    const p = op.params;
    const clone = await findServerById(rc.db, p.clone_id);
    if (!clone || clone.deleted_at || clone.status !== 'pending') {
      // Its machine's addresses were taken with the clone: they go back.
      await destroyMachineMadeBy(rc, op);
      return { detail: 'Nothing to clone: the new server is no longer pending' };
    }
    const sourceRef = await machineRefOf(rc.db, op.resource_id);
    const os = await findOsSlug(rc.db, clone.os_version_id);
    const image = await rc.compute.snapshot(sourceRef, op.id, (pct, detail) => rc.progress(pct * 0.3, detail));
    const machine = await rc.compute.create({
      token: op.id,
      hostname: clone.name,
      locationId: clone.location_id,
      node: await nodeNameOf(rc.db, clone.node_id),
      cpuCores: clone.cpu_cores,
      ramMb: clone.ram_mb,
      storageGb: clone.storage_gb,
      osSlug: os?.slug ?? null,
      // The copied disk keeps the source's root password.
      password: '',
      fromSnapshotRef: image.ref,
      extraIpv4: 0,
      extraIpv6: 0,
      ipv6: p.ipv6,
      resourceId: clone.id,
    }, (pct, detail) => rc.progress(30 + pct * 0.7, detail));
    return {
      detail: `Clone ${clone.id} is running`,
      apply: async (trx) => {
        await markServerProvisioned(trx, clone.id, { providerRef: machine.ref, network: machine.network });
        // The operation's own resource event is about the source (the operations' trigger); the new server has its own.
        await recordEvent(trx, 'server.created', clone.account_id, clone.id);
      },
    };
  },

  async compensate(trx, op, reason) {
    const p = op.params;
    const clone = await findServerById(trx, p.clone_id);
    if (!clone || clone.status !== 'pending') return;
    await updateServerRow(trx, clone.id, { status: 'cancelled', power_state: 'error' });
    await recordEvent(trx, 'server.cancelled', clone.account_id, clone.id);
    if (p.charged_cents > 0) {
      await refund(trx, op.account_id, p.charged_cents, `Refund: server ${clone.name} (${clone.id}) could not be cloned (${reason})`, `server/${clone.id}`);
    }
  },

  afterFailure: destroyMachineMadeBy,
};
