// server.upgrade, as the worker sees it: the safety net behind the synchronous upgrade. The request
// queues it to start only after RECOVERY_AFTER_S; normally the request has finished the operation
// long before, and the job finds nothing to do. If the request died between its transactions, the
// job finishes the work instead — the resize carries the same token, so one the platform already
// did is not done twice — or, if the platform keeps failing, refunds and reverts like the request
// would have. Either way no server stays half-upgraded or blocked.
import { changeServerSize } from '../../db/queries/servers.ts';
import type { MachineSpec } from '../../providers/compute/types.ts';
import { refund } from '../billing/ledger.ts';
import type { Runner } from '../operations/runner.ts';
import { machineRefOf } from './guards.ts';

/** Well beyond any answer the request could still give. */
export const RECOVERY_AFTER_S = 600;

export interface UpgradeParams {
  server_name: string;
  plan_name: string;
  spec: MachineSpec;
  previous: { plan_id: number | null; spec: MachineSpec };
  charged_cents: number;
  price_delta_cents: number;
}

export const serverUpgradeRunner: Runner = {
  async run(rc, op) {
    const p = op.params as unknown as UpgradeParams;
    await rc.compute.resize(await machineRefOf(rc.db, op.resource_id), p.spec, op.id, rc.progress);
    return { detail: `Upgraded to ${p.plan_name}` };
  },

  async compensate(trx, op, reason) {
    const p = op.params as unknown as UpgradeParams;
    if (p.charged_cents > 0) {
      await refund(trx, op.account_id, p.charged_cents, `Refund: upgrade of server ${p.server_name} (${op.resource_id}) to ${p.plan_name} failed (${reason})`, `server/${op.resource_id}`);
    }
    const s = p.previous.spec;
    await changeServerSize(trx, op.resource_id, { plan_id: p.previous.plan_id, cpu_cores: s.cpuCores, ram_mb: s.ramMb, storage_gb: s.storageGb }, -p.price_delta_cents);
  },
};
