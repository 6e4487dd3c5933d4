// server.start / server.stop / server.reboot: the platform reports the power state it reached
// (the request token makes a repeated run return the first run's answer).
import { updateServerRow } from '../../db/queries/servers.ts';
import type { PowerAction } from '../../providers/compute/types.ts';
import type { Runner } from '../operations/runner.ts';
import { machineRefOf } from './guards.ts';

export const serverPowerRunner: Runner = {
  async run(rc, op) {
    const { action } = op.params as { action: PowerAction };
    const ref = await machineRefOf(rc.db, op.resource_id);
    const power = await rc.compute.power(ref, action, op.id, rc.progress);
    return {
      detail: `Server is ${power}`,
      apply: async (trx) => {
        await updateServerRow(trx, op.resource_id, { power_state: power });
      },
    };
  },

  async compensate(trx, op) {
    // The action may have got part of the way: `unknown` says so, and lets either start or stop run next.
    await updateServerRow(trx, op.resource_id, { power_state: 'unknown' });
  },
};
