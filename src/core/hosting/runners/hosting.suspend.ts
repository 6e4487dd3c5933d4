// hosting.suspend: the panel's part of a suspension for non-payment (billing/lifecycle.ts), with
// the operation id as request token, so a retried run does the work once. (Servers reuse the
// machines' power runner, the params carrying stop/start, and the delete runner.)
import { findWebHostingById } from '../../../db/queries/web-hosting.ts';
import type { Runner } from '../../operations/runner.ts';

export const hostingSuspendRunner: Runner = {
  async run(rc, op) {
    const h = await findWebHostingById(rc.db, op.resource_id);
    if (!h?.panel_ref) return { detail: 'Nothing to suspend: the account has no control panel account' };
    await rc.progress(10, 'Suspending the control panel account');
    await rc.hosting.suspend(h.panel_ref, 'Suspended for non-payment', op.id);
    return { detail: 'The control panel account is suspended' };
  },
};
