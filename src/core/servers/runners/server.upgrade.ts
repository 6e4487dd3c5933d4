// server.upgrade, as the worker sees it: the recovery behind the synchronous upgrade. The request
// does the work itself under the operation's lease and normally finishes the operation; nothing
// is queued. If the request's process dies between its transactions, the lease lapses and the
// worker's sweep queues the operation, which lands here: the job finishes the work — the resize
// carries the same token, so one the platform already did is not done twice — or, if the platform
// keeps failing, refunds and reverts like the request would have. Either way no server stays
// half-upgraded or blocked for longer than about one OPERATION_LEASE_S.
import { changeServerSize } from '../../../db/queries/servers.ts';
import type { MachineSpec } from '../../../providers/compute/types.ts';
import { refund } from '../../billing/ledger.ts';
import type { Runner } from '../../operations/runner.ts';
import { machineRefOf } from '../guards.ts';

export interface UpgradeParams {
  server_name: string;
  plan_name: string;
  spec: MachineSpec;
  previous: { plan_id: number | null; spec: MachineSpec };
  charged_cents: number;
  price_delta_cents: number;
  /** The reseller discount the upgrade added to what the server holds. */
  discount_delta_cents?: number;
}

export const serverUpgradeRunner: Runner<UpgradeParams> = {
  async run(rc, op) {
    const p = op.params;
    await rc.compute.resize(await machineRefOf(rc.db, op.resource_id), p.spec, op.id, rc.progress);
    return { detail: `Upgraded to ${p.plan_name}` };
  },

  async compensate(trx, op, reason) {
    const p = op.params;
    if (p.charged_cents > 0) {
      await refund(trx, op.account_id, p.charged_cents, `Refund: upgrade of server ${p.server_name} (${op.resource_id}) to ${p.plan_name} failed (${reason})`, `server/${op.resource_id}`);
    }
    const s = p.previous.spec;
    await changeServerSize(trx, op.resource_id, { plan_id: p.previous.plan_id, cpu_cores: s.cpuCores, ram_mb: s.ramMb, storage_gb: s.storageGb }, -p.price_delta_cents, -(p.discount_delta_cents ?? 0));
  },
};
