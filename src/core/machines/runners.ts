// Runners every kind of machine shares (servers, VDC VMs): power, root password and reinstall do
// the same on the platform whatever the machine is sold as; only where its row lives differs,
// which `MachineRows` says.
import type { PowerState } from '../../db/schema.ts';
import type { PowerAction } from '../../providers/compute/types.ts';
import type { Runner } from '../operations/runner.ts';
import type { Db } from '../types.ts';

export interface MachinePatch {
  power_state?: PowerState;
  os_version_id?: number | null;
}

/** Where a machine kind keeps its rows. */
export interface MachineRows {
  /** "Server", "VM": how operation details name the machine. */
  noun: string;
  /**
   * The platform's id of the resource's machine. A missing machine is a non-retryable
   * UPSTREAM_ERROR: actions wait for the operation that builds it, so no retry can bring it.
   */
  refOf(db: Db, id: string): Promise<string>;
  update(db: Db, id: string, patch: MachinePatch): Promise<void>;
}

/** <kind>.start / .stop / .reboot: the platform reports the power state it reached (the token makes a repeated run get the first run's answer). */
export function powerRunner(rows: MachineRows): Runner<{ action: PowerAction }> {
  return {
    async run(rc, op) {
      const { action } = op.params;
      const ref = await rows.refOf(rc.db, op.resource_id);
      const power = await rc.compute.power(ref, action, op.id, rc.progress);
      return {
        detail: `${rows.noun} is ${power}`,
        apply: async (trx) => {
          await rows.update(trx, op.resource_id, { power_state: power });
        },
      };
    },

    async compensate(trx, op) {
      // The action may have got part of the way: `unknown` says so, and lets either start or stop run next.
      await rows.update(trx, op.resource_id, { power_state: 'unknown' });
    },
  };
}

/**
 * <kind>.reset_password: the password travels in the operation's params only until the operation
 * finishes (finishOperation erases it), and never appears in any answer after the 202.
 */
export function resetPasswordRunner(rows: MachineRows): Runner<{ password?: string }> {
  return {
    async run(rc, op) {
      const { password } = op.params;
      if (!password) return { detail: 'Nothing to set: the password is gone (the operation had already finished)' };
      await rc.compute.resetPassword(await rows.refOf(rc.db, op.resource_id), password, op.id, rc.progress);
      return { detail: 'Root password set' };
    },
  };
}

/** What a reinstall needs: the OS chosen. */
export interface ReinstallParams {
  os_version_id: number;
  os_slug: string;
}

/** <kind>.reinstall: the disk is rewritten with the chosen OS and the machine boots into it. */
export function reinstallRunner(rows: MachineRows): Runner<ReinstallParams> {
  return {
    async run(rc, op) {
      const p = op.params;
      const ref = await rows.refOf(rc.db, op.resource_id);
      // null: the platform keeps the current root password.
      await rc.compute.reinstall(ref, p.os_slug, null, op.id, rc.progress);
      return {
        detail: `Reinstalled with ${p.os_slug}`,
        apply: async (trx) => {
          await rows.update(trx, op.resource_id, { os_version_id: p.os_version_id, power_state: 'running' });
        },
      };
    },
  };
}
