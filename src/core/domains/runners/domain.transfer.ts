// domain.transfer: the worker requests the transfer (the operation id is the request token: one
// transfer however often it runs) and waits for the losing registrar to approve; the domain then
// becomes active with its expiry moved by `years`. A rejected or failed transfer cancels the
// domain and refunds the charge (the request's side: transfer.ts). A registry may leave a transfer
// pending for days: a run waits only as long as it may hold its worker's slot (RunContext.holdMs),
// then gives its job back (OperationWaiting) to be fetched again after the next wait; that run asks
// again (the request, repeated with the same token, answers the pending transfer's state).
import { setTimeout } from 'node:timers/promises';
import { activateDomain, cancelWaitingDomain, findDomainById, forgetOperationSecrets } from '../../../db/queries/domains.ts';
import { RegistrarError, type TransferWatch } from '../../../providers/registrar/types.ts';
import { refund } from '../../billing/ledger.ts';
import { ensureDomainZone } from '../../dns/zones.ts';
import { OperationWaiting, type Runner } from '../../operations/runner.ts';
import type { Db } from '../../types.ts';
import { registrarOf } from '../upstream.ts';

/**
 * How the worker waits for the losing registrar where the registrar gives no schedule of its own
 * (the simulated one approves a set time after the request): checked after 250 ms, the wait
 * doubling up to 30 s. The EPP driver's own (EPP_TRANSFER_CHECK_S) is ended early by the poll queue's news.
 */
export const DEFAULT_TRANSFER_WATCH: TransferWatch = { firstMs: 250, maxMs: 30_000, wait: (_name, ms) => setTimeout(ms) };

/** The operation's detail while the losing registrar has not answered (also how a later run knows it resumes a wait). */
const WAITING_DETAIL = 'Transfer requested; waiting for the current registrar to approve it';

export interface TransferParams {
  /** Erased once the operation finishes (forgetOperationSecrets). */
  auth_code: string;
  charged_cents: number;
  nameservers: string[] | null;
}

export const domainTransferRunner: Runner<TransferParams> = {
  async run(rc, op) {
    const domain = await findDomainById(rc.db, op.resource_id);
    if (!domain || domain.status !== 'transfer_pending') return { detail: 'Nothing to transfer: the domain is no longer waiting for a transfer' };
    const p = op.params;
    const registrar = registrarOf(rc);
    let status = await registrar.transfer({ token: op.id, name: domain.name, authCode: p.auth_code, years: domain.registration_years });
    const watch = registrar.transferWatch ?? DEFAULT_TRANSFER_WATCH;
    const startedMs = Date.now();
    // A run resuming a wait (its job given back) carries the doubling on: waits that doubled from
    // firstMs add up to about the time since the request, so the next is about that long.
    const sinceRequestMs = rc.now().getTime() - op.created_at.getTime();
    let wait = op.detail === WAITING_DETAIL ? Math.min(watch.maxMs, Math.max(watch.firstMs, sinceRequestMs)) : watch.firstMs;
    for (let polls = 1; status.state === 'pending'; polls++, wait = Math.min(wait * 2, watch.maxMs)) {
      await rc.progress(Math.min(90, 10 + polls * 10), WAITING_DETAIL);
      if (rc.holdMs !== undefined && Date.now() - startedMs + wait > rc.holdMs) throw new OperationWaiting(Math.max(1, Math.ceil(wait / 1000)), WAITING_DETAIL);
      await watch.wait(domain.name, wait);
      status = await registrar.transferStatus(domain.name, op.id);
    }
    if (status.state === 'rejected' || !status.domain) {
      throw new RegistrarError(`The transfer of ${domain.name} was rejected: ${status.reason ?? 'no reason given'}`, { refusal: 'policy' });
    }
    const moved = status.domain;
    // What the customer asked for, now that we sponsor the name (each is a plain set: safe to repeat).
    if (p.nameservers) await registrar.setNameservers(domain.name, p.nameservers, `${op.id}:ns`);
    if (moved.whoisPrivacy !== domain.whois_privacy) await registrar.setWhoisPrivacy(domain.name, domain.whois_privacy, `${op.id}:privacy`);
    if (!moved.transferLock) await registrar.setTransferLock(domain.name, true, `${op.id}:lock`);
    const nameservers = p.nameservers ?? (moved.nameservers.length >= 2 ? moved.nameservers.slice(0, 13) : domain.nameservers);
    return {
      detail: `Transferred; registered until ${moved.expiresAt.toISOString().slice(0, 10)}`,
      apply: async (trx: Db) => {
        await activateDomain(trx, domain.id, 'transfer_pending', {
          provider_ref: moved.ref, registered_at: moved.createdAt, expires_at: moved.expiresAt, nameservers, auth_code: null,
        });
        await ensureDomainZone(trx, domain.account_id, domain.name, new Date());
        await forgetOperationSecrets(trx, op.id);
      },
    };
  },

  async compensate(trx, op, reason) {
    await forgetOperationSecrets(trx, op.id);
    const domain = await findDomainById(trx, op.resource_id);
    if (!domain || !(await cancelWaitingDomain(trx, domain.id, 'transfer_pending'))) return;
    const charged = op.params.charged_cents ?? 0;
    if (charged > 0) {
      await refund(trx, domain.account_id, charged, `Refund: transfer of domain ${domain.name} (${domain.service_id}) did not complete (${reason})`, `domain/${domain.id}`);
    }
  },
};
