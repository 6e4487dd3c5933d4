// hosting.unsuspend: the panel's part of lifting a suspension once the balance is paid
// (billing/lifecycle.ts), with the operation id as request token.
import { findWebHostingById } from '../../../db/queries/web-hosting.ts';
import type { Runner } from '../../operations/runner.ts';

export const hostingUnsuspendRunner: Runner = {
  async run(rc, op) {
    const h = await findWebHostingById(rc.db, op.resource_id);
    if (!h?.panel_ref) return { detail: 'Nothing to unsuspend: the account has no control panel account' };
    await rc.progress(10, 'Unsuspending the control panel account');
    await rc.hosting.unsuspend(h.panel_ref, op.id);
    return { detail: 'The control panel account is active again' };
  },
};
