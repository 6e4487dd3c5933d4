// server.resize: the platform resizes (and restarts) the machine; the new size is recorded with the
// completion. A growth's charge and price rise were made when the action was accepted, so a final
// failure refunds the one and moves the other back. A shrink's lower price and its refund for the
// rest of the cycle are applied with the completion, at the hours left then.
import { lockServerRow } from '../../../db/queries/server-ips.ts';
import { changeServerSize } from '../../../db/queries/servers.ts';
import type { MachineSpec } from '../../../providers/compute/types.ts';
import { refund } from '../../billing/ledger.ts';
import { NO_RESIZE_HOLD } from '../../nodes/placement.ts';
import type { Runner } from '../../operations/runner.ts';
import { prorateChange } from '../../money.ts';
import { cycleOf, machineRefOf } from '../guards.ts';

/** What the resize runner needs, kept in the operation's params. */
export interface ResizeParams {
  spec: MachineSpec;
  previous: MachineSpec;
  price_delta_cents: number;
  charged_cents: number;
  /** The reseller discount a growth added to what the server holds (undone with the price on failure). */
  discount_delta_cents?: number;
}

export const serverResizeRunner: Runner<ResizeParams> = {
  async run(rc, op) {
    const { spec } = op.params;
    await rc.compute.resize(await machineRefOf(rc.db, op.resource_id), spec, op.id, rc.progress);
    return {
      detail: 'Resized; the server is running',
      apply: async (trx) => {
        const p = op.params;
        const shrink = p.price_delta_cents < 0 ? p.price_delta_cents : 0;
        const before = shrink < 0 ? await lockServerRow(trx, op.resource_id) : undefined;
        // A shrink keeps the reseller discount's share of the price (changeServerSize 'scale').
        const server = await changeServerSize(trx, op.resource_id, { cpu_cores: spec.cpuCores, ram_mb: spec.ramMb, storage_gb: spec.storageGb, power_state: 'running', ...NO_RESIZE_HOLD }, shrink, shrink < 0 ? 'scale' : 0);
        if (shrink < 0 && server && before) {
          const { period, remaining } = cycleOf(server, rc.now());
          // What the server paid a month before and after: the refund returns the unused part of the difference.
          const pays = (s: { price_cents: number; discount_cents: number }) => Math.max(0, s.price_cents - s.discount_cents);
          const owed = -prorateChange(pays(before), pays(server), remaining, period);
          if (owed > 0) await refund(trx, op.account_id, owed, `Server ${server.name} (${server.id}): smaller size for the remaining ${remaining} of ${period} hours`, `server/${server.id}`);
        }
      },
    };
  },

  async compensate(trx, op, reason) {
    const p = op.params;
    if (p.charged_cents > 0) await refund(trx, op.account_id, p.charged_cents, `Refund: resize of server ${op.resource_id} failed (${reason})`, `server/${op.resource_id}`);
    // The growth held on the node since the acceptance is given back.
    await changeServerSize(trx, op.resource_id, NO_RESIZE_HOLD, p.price_delta_cents > 0 ? -p.price_delta_cents : 0, p.price_delta_cents > 0 ? -(p.discount_delta_cents ?? 0) : 0);
  },
};
