// The provider's part of a suspension, resumption or cancellation for non-payment. Servers reuse
// the machines' power runner (the params carry stop/start) and the delete runner (destroy);
// hosting calls the panel's suspend and unsuspend with the operation id as request token, so a
// retried run does the work once.
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

export const hostingUnsuspendRunner: Runner = {
  async run(rc, op) {
    const h = await findWebHostingById(rc.db, op.resource_id);
    if (!h?.panel_ref) return { detail: 'Nothing to unsuspend: the account has no control panel account' };
    await rc.progress(10, 'Unsuspending the control panel account');
    await rc.hosting.unsuspend(h.panel_ref, op.id);
    return { detail: 'The control panel account is active again' };
  },
};
