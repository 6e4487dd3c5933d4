// hosting.cancel: terminates the cancelled account on the panel (the operation id is the request
// token; terminating twice is harmless). There is nothing to compensate if it finally fails: the
// cancellation and any refund stand, and the failed operation tells the operator the panel still
// holds the account.
import { findWebHostingById } from '../../../db/queries/web-hosting.ts';
import type { Runner } from '../../operations/runner.ts';

export const hostingCancelRunner: Runner = {
  async run(rc, op) {
    const hosting = await findWebHostingById(rc.db, op.resource_id);
    if (!hosting?.panel_ref) return { detail: 'Nothing to terminate: the account has no control panel account' };
    await rc.progress(10, 'Terminating the control panel account');
    await rc.hosting.terminate(hosting.panel_ref, op.id);
    return { detail: 'The control panel account was terminated' };
  },
};
