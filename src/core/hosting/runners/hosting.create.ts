// hosting.create: asks the panel for the account (the operation id is the request token, so a run
// repeated after a lost worker gets the same account), then activates ours with its username and
// server. If it finally fails — every panel server full, or the panel down through every retry —
// the first cycle is refunded in full and the account cancelled (web_hosting.cancelled; its domain is
// free again).
import { findAccount } from '../../../db/queries/accounts.ts';
import { findWebHostingById, markWebHostingProvisioned, updateWebHosting } from '../../../db/queries/web-hosting.ts';
import { refund } from '../../billing/ledger.ts';
import { recordEvent } from '../../events/record.ts';
import type { Runner } from '../../operations/runner.ts';

/** What the hosting.create runner needs to undo the order. */
export interface HostingCreateParams {
  charged_cents: number;
}

export const hostingCreateRunner: Runner<HostingCreateParams> = {
  async run(rc, op) {
    const hosting = await findWebHostingById(rc.db, op.resource_id);
    if (!hosting || hosting.status !== 'pending') return { detail: 'Nothing to provision: the account is no longer pending' };
    const owner = await findAccount(rc.db, hosting.account_id);
    await rc.progress(5, 'Provisioning started');
    const account = await rc.hosting.createAccount({
      token: op.id,
      domain: hosting.domain,
      package: { name: hosting.package_name, quotaMb: hosting.quota_mb, maxDomains: hosting.max_domains },
      contactEmail: owner?.email ?? '',
    }, rc.progress);
    return {
      detail: `The hosting account is active (${account.username} on ${account.serverHostname})`,
      apply: async (trx) => {
        await markWebHostingProvisioned(trx, hosting.id, { panelRef: account.ref, username: account.username, serverHostname: account.serverHostname });
      },
    };
  },

  async compensate(trx, op, reason, now) {
    const hosting = await findWebHostingById(trx, op.resource_id);
    if (!hosting || hosting.status !== 'pending') return;
    await updateWebHosting(trx, hosting.id, { status: 'cancelled', cancelled_at: now, cancel_reason: `Provisioning failed: ${reason}`.slice(0, 1000) });
    await recordEvent(trx, 'web_hosting.cancelled', hosting.account_id, hosting.id);
    const charged = op.params.charged_cents ?? 0;
    if (charged > 0) {
      await refund(trx, hosting.account_id, charged, `Refund: web hosting ${hosting.domain} (${hosting.id}) could not be provisioned (${reason})`, `web_hosting/${hosting.id}`);
    }
  },

  /** The panel may have made the account before the failure (or before a worker died): the customer was refunded, so it goes. */
  async afterFailure(rc, op) {
    const ref = await rc.hosting.findAccount(op.id);
    if (ref) await rc.hosting.terminate(ref, `${op.id}:undo`);
  },
};
