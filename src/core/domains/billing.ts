// Domains in the billing pass (the domains family's RecurringPass): auto-renewal DOMAIN_RENEW_DAYS before expiry (the renewal price for
// one year, through the domain renew core and the registrar), "expiring" notices 30 and 7 days
// ahead, and expiry. A domain's period is its registration year: [expires_at, expires_at + 1 y),
// unique per domain like every charge. Not enough balance: the domain simply does not renew — the
// charge stays due, retried every pass until the expiry, when the domain becomes `expired`.
import { domainToUnicode } from 'node:url';
import { findTldPrices } from '../../db/queries/catalog.ts';
import { findDomainById } from '../../db/queries/domains.ts';
import {
  claimCharge, claimNotice, domainsExpiringBy, findCharge, latestTransactionId, lockDomainRow, markChargePaid, noteChargeUnpaid, voidDueCharges,
} from '../../db/queries/billing.ts';
import { findUnfinishedOperation } from '../../db/queries/operations.ts';
import { updateDomain } from '../../db/queries/domains.ts';
import type { Domain } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { completeRenewal, reserveRenewal, type ReservedRenewal } from './renew.ts';
import { addYears } from './rules.ts';
import { ApiError } from '../errors.ts';
import { recordEvent } from '../events/record.ts';
import { formatCents } from '../money.ts';
import { queueNotification } from '../notifications/queue.ts';
import { ts } from '../time.ts';
import { noticeChargeFailed } from '../billing/lifecycle.ts';
import { type BillingDeps, type Guarded, type PassReport, type RecurringPass, ctxFor } from '../billing/deps.ts';
import { addDays, periodLabel } from '../billing/periods.ts';
import { findAccount } from '../../db/queries/accounts.ts';

const DAY_MS = 86_400_000;
/** Days before expiry at which a notice is sent, widest first. */
export const EXPIRY_NOTICE_DAYS = [30, 7] as const;


async function billDomains(deps: BillingDeps, now: Date, guarded: Guarded, accountId?: string): Promise<void> {
  const horizon = addDays(now, Math.max(EXPIRY_NOTICE_DAYS[0], deps.domainRenewDays));
  for (const d of await domainsExpiringBy(deps.db, horizon, accountId)) {
    await guarded(`domain/${d.id}`, (r) => billDomain(deps, now, d.id, r));
  }
}

/** A due renewal is retried by the next pass's renewal window, not on its own; an unpaid domain is never suspended, it expires. */
export const domainPass: RecurringPass = { billDue: billDomains, retryDue: null, resumePaid: null };

async function billDomain(deps: BillingDeps, now: Date, id: string, r: PassReport): Promise<void> {
  const d = await findDomainById(deps.db, id);
  if (!d || d.status !== 'active' || !d.expires_at) return;
  if (d.expires_at.getTime() <= now.getTime()) return expire(deps, now, id, r);
  if (d.auto_renew && addDays(d.expires_at, -deps.domainRenewDays).getTime() <= now.getTime()) {
    if (await autoRenew(deps, now, d, d.expires_at, r)) return;
  }
  await expiringNotice(deps, now, id, r);
}

/** true when renewed (the expiry moved a year). */
async function autoRenew(deps: BillingDeps, now: Date, d: Domain, expiresAt: Date, r: PassReport): Promise<boolean> {
  const ctx = ctxFor(deps, d.account_id, now);
  const start = expiresAt;
  const end = addYears(expiresAt, 1);
  const label = periodLabel(start, end);
  const describe = (cents: number) => `Domain ${d.name} (${d.service_id}): auto-renewal ${label}, ${formatCents(cents)} USD`;
  let reserved: ReservedRenewal | null;
  try {
    reserved = await inTransaction(deps.db, async (trx) => {
      const row = await lockDomainRow(trx, d.id);
      if (!row || row.status !== 'active' || !row.auto_renew || row.expires_at?.getTime() !== start.getTime()) return null;
      // A renewal in flight (the customer's, or another pass's): its own transaction settles it.
      if (await findUnfinishedOperation(trx, 'domain', d.id)) {
        r.deferred++;
        return null;
      }
      // A row already `paid` here (expiry unmoved, no renewal running) belongs to a renewal that was
      // undone and refunded after its request died (domain.renew's compensation): it is owed again.
      const res = await reserveRenewal(ctx, trx, d.id, 1, null, label);
      const cents = res.params.charged_cents;
      const due = await claimCharge(trx, {
        account_id: d.account_id, resource_type: 'domain', resource_id: d.id, period_start: start, period_end: end,
        amount_cents: cents, description: describe(cents), due_since: now,
      });
      await markChargePaid(trx, due.id, cents > 0 ? await latestTransactionId(trx, d.account_id) : null, now);
      return res;
    });
  } catch (e) {
    if (!(e instanceof ApiError) || e.code !== 'INSUFFICIENT_BALANCE') throw e;
    // The reservation rolled back whole (its operation too); the period is recorded as due.
    await inTransaction(deps.db, async (trx) => {
      const [price] = await findTldPrices(trx, [d.tld]);
      const cents = price?.renewal_cents ?? 0;
      const due = await claimCharge(trx, {
        account_id: d.account_id, resource_type: 'domain', resource_id: d.id, period_start: start, period_end: end,
        amount_cents: cents, description: describe(cents), due_since: now,
      });
      const fresh = due.due_since.getTime() === now.getTime() && due.attempts === 1;
      await noteChargeUnpaid(trx, due.id, e.message, fresh);
      if (await claimNotice(trx, 'domain', d.id, 'billing.charge_failed', start.toISOString())) {
        await noticeChargeFailed(trx, due, `the renewal of domain ${domainToUnicode(d.name)}`, (await findAccount(trx, d.account_id))?.balance_cents ?? 0);
        r.notices++;
      }
    });
    r.unpaid++;
    return false;
  }
  if (!reserved) return false;
  try {
    await completeRenewal(ctx, reserved);
  } catch (e) {
    // The registrar failed: the renewal refunded itself; the period is due again for the next pass.
    await inTransaction(deps.db, async (trx) => {
      const due = await findCharge(trx, 'domain', d.id, start);
      if (due) await noteChargeUnpaid(trx, due.id, e instanceof Error ? e.message : String(e), true);
    });
    r.deferred++;
    return false;
  }
  r.charged++;
  r.charged_cents += reserved.params.charged_cents;
  r.domains_renewed++;
  return true;
}

async function expire(deps: BillingDeps, now: Date, id: string, r: PassReport): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    const d = await lockDomainRow(trx, id);
    if (!d || d.status !== 'active' || !d.expires_at || d.expires_at.getTime() > now.getTime()) return;
    if (await findUnfinishedOperation(trx, 'domain', id)) {
      r.deferred++;
      return;
    }
    await updateDomain(trx, id, { status: 'expired' });
    await voidDueCharges(trx, 'domain', id);
    await recordEvent(trx, 'domain.expired', d.account_id, id);
    r.domains_expired++;
    if (await claimNotice(trx, 'domain', id, 'domain.expired', d.expires_at.toISOString())) {
      await queueNotification(trx, {
        accountId: d.account_id, kind: 'domain.expired',
        subject: `Your domain ${domainToUnicode(d.name)} has expired`,
        body: `${domainToUnicode(d.name)} expired at ${ts(d.expires_at)} without being renewed. Renew it now (POST /v2/domains/${id}/renew) before the registry releases it.`,
      });
      r.notices++;
    }
  });
}

/** "Expires in N days" once per window (30, then 7 days) and expiry date. */
async function expiringNotice(deps: BillingDeps, now: Date, id: string, r: PassReport): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    const d = await lockDomainRow(trx, id);
    if (!d || d.status !== 'active' || !d.expires_at) return;
    const left = (d.expires_at.getTime() - now.getTime()) / DAY_MS;
    const window = [...EXPIRY_NOTICE_DAYS].reverse().find((days) => left <= days);
    if (window === undefined) return;
    if (!(await claimNotice(trx, 'domain', id, 'domain.expiring', `${window}d:${d.expires_at.toISOString()}`))) return;
    const days = Math.max(1, Math.ceil(left));
    await recordEvent(trx, 'domain.expiring', d.account_id, id);
    await queueNotification(trx, {
      accountId: d.account_id, kind: 'domain.expiring',
      subject: `Your domain ${domainToUnicode(d.name)} expires in ${days} day${days === 1 ? '' : 's'}`,
      body: [
        `${domainToUnicode(d.name)} expires at ${ts(d.expires_at)}.`,
        d.auto_renew
          ? 'Auto-renewal is on but has not succeeded yet: make sure your balance covers the renewal price.'
          : `Auto-renewal is off: renew it (POST /v2/domains/${id}/renew) or it will expire.`,
      ].join('\n'),
    });
    r.notices++;
  });
}
