// server.reset_password: the password travels in the operation's params only until the operation
// finishes (finishOperation erases it), and never appears in any answer after the 202.
import type { Runner } from '../operations/runner.ts';
import { machineRefOf } from './guards.ts';

export const serverResetPasswordRunner: Runner = {
  async run(rc, op) {
    const { password } = op.params as { password?: string };
    if (!password) return { detail: 'Nothing to set: the password is gone (the operation had already finished)' };
    await rc.compute.resetPassword(await machineRefOf(rc.db, op.resource_id), password, op.id, rc.progress);
    return { detail: 'Root password set' };
  },
};
