// server.reinstall: the disk is rewritten with the chosen OS and the machine boots into it.
import { updateServerRow } from '../../db/queries/servers.ts';
import type { Runner } from '../operations/runner.ts';
import { machineRefOf } from './guards.ts';

export const serverReinstallRunner: Runner = {
  async run(rc, op) {
    const p = op.params as { os_version_id: number; os_slug: string };
    const ref = await machineRefOf(rc.db, op.resource_id);
    // null: the platform keeps the current root password.
    await rc.compute.reinstall(ref, p.os_slug, null, op.id, rc.progress);
    return {
      detail: `Reinstalled with ${p.os_slug}`,
      apply: async (trx) => {
        await updateServerRow(trx, op.resource_id, { os_version_id: p.os_version_id, power_state: 'running' });
      },
    };
  },
};
