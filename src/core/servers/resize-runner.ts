// server.resize: the platform resizes (and restarts) the machine; the new size is recorded with the
// completion. The charge and the price change were made when the action was accepted, so a final
// failure refunds the one and moves the other back.
import { changeServerSize } from '../../db/queries/servers.ts';
import { refund } from '../billing/ledger.ts';
import type { Runner } from '../operations/runner.ts';
import { machineRefOf } from './guards.ts';
import type { ResizeParams } from './resize.ts';

export const serverResizeRunner: Runner = {
  async run(rc, op) {
    const { spec } = op.params as unknown as ResizeParams;
    await rc.compute.resize(await machineRefOf(rc.db, op.resource_id), spec, op.id, rc.progress);
    return {
      detail: 'Resized; the server is running',
      apply: async (trx) => {
        await changeServerSize(trx, op.resource_id, { cpu_cores: spec.cpuCores, ram_mb: spec.ramMb, storage_gb: spec.storageGb, power_state: 'running' }, 0);
      },
    };
  },

  async compensate(trx, op, reason) {
    const p = op.params as unknown as ResizeParams;
    if (p.charged_cents > 0) await refund(trx, op.account_id, p.charged_cents, `Refund: resize of server ${op.resource_id} failed (${reason})`);
    if (p.price_delta_cents !== 0) await changeServerSize(trx, op.resource_id, {}, -p.price_delta_cents);
  },
};
