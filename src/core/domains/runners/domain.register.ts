// domain.register: the registrar registers the name (the operation id is the request token, so a
// retried run never registers twice) and the domain becomes active; a final failure cancels it and
// refunds the charge (the request's side: register.ts).
import { findAccount } from '../../../db/queries/accounts.ts';
import { activateDomain, cancelWaitingDomain, findDomainById, forgetOperationSecrets } from '../../../db/queries/domains.ts';
import type { DomainContact } from '../../../providers/registrar/types.ts';
import { refund } from '../../billing/ledger.ts';
import { ensureDomainZone } from '../../dns/zones.ts';
import type { Runner } from '../../operations/runner.ts';
import type { Db } from '../../types.ts';
import { registrarOf } from '../upstream.ts';

export interface RegisterParams {
  charged_cents: number;
  /** Erased once the operation finishes (forgetOperationSecrets). */
  contact?: DomainContact | null;
}

export const domainRegisterRunner: Runner<RegisterParams> = {
  async run(rc, op) {
    const domain = await findDomainById(rc.db, op.resource_id);
    if (!domain || domain.status !== 'pending') return { detail: 'Nothing to register: the domain is no longer pending' };
    await rc.progress(10, `Registering ${domain.name}`);
    const account = await findAccount(rc.db, domain.account_id);
    const owner = account && { id: account.id, name: account.name, email: account.email, company: account.company, phone: account.phone, country: account.country };
    const made = await registrarOf(rc).register({
      token: op.id, name: domain.name, years: domain.registration_years, nameservers: domain.nameservers,
      whoisPrivacy: domain.whois_privacy, transferLock: domain.transfer_lock, contact: op.params.contact ?? null, owner: owner ?? undefined,
    });
    return {
      detail: `Registered until ${made.expiresAt.toISOString().slice(0, 10)}`,
      apply: async (trx: Db) => {
        await activateDomain(trx, domain.id, 'pending', { provider_ref: made.ref, registered_at: made.createdAt, expires_at: made.expiresAt });
        await ensureDomainZone(trx, domain.account_id, domain.name, new Date());
        await forgetOperationSecrets(trx, op.id);
      },
    };
  },

  async compensate(trx, op, reason) {
    await forgetOperationSecrets(trx, op.id);
    const domain = await findDomainById(trx, op.resource_id);
    if (!domain || !(await cancelWaitingDomain(trx, domain.id, 'pending'))) return;
    const charged = op.params.charged_cents ?? 0;
    if (charged > 0) {
      await refund(trx, domain.account_id, charged, `Refund: domain ${domain.name} (${domain.service_id}) could not be registered (${reason})`, `domain/${domain.id}`);
    }
  },
};
