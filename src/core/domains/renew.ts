// POST /domains/{id}/renew: synchronous, like a server upgrade, because the registrar must not be
// called inside a transaction:
//   1. tx1: checks (the account's domain, years in the TLD's range, active or expired, the
//      registry's 10-year limit), the charge, and a domain.renew operation the request holds the
//      lease of (it keeps a second renewal off the domain meanwhile);
//   2. the registrar renews — the operation id is the request token and the call names the expiry
//      it extends (EPP curExpDate), so no year is ever added twice;
//   3. tx2: the new expiry, the operation completed and, with an Idempotency-Key, the answer
//      stored — or, if the registrar failed, the operation fails with the runner's compensation
//      (refund, key freed) and the answer is 502 UPSTREAM_ERROR.
// If the request's process dies between its transactions the lease lapses and the worker runs
// domainRenewRunner: the same token, then the same tx2 (or the same undoing).
import { type DomainRow, findDomainById, lockAccountDomain } from '../../db/queries/domains.ts';
import { findTldPrices } from '../../db/queries/catalog.ts';
import { inTransaction } from '../../db/transaction.ts';
import { ProviderError } from '../../providers/errors.ts';
import { charge } from '../billing/ledger.ts';
import type { Ctx } from '../context.ts';
import { ApiError, invalid, notFound } from '../errors.ts';
import { type Replayable, idempotentSteps } from '../idempotency/service.ts';
import { formatCents } from '../money.ts';
import { describeFailure, failOperation } from '../operations/execute.ts';
import { finishUnlessRecovered } from '../operations/finish.ts';
import { DEFAULT_LEASE_S, holdLease } from '../operations/lease.ts';
import { startOperation } from '../operations/service.ts';
import type { Db } from '../types.ts';
import type { Idempotency } from './register.ts';
import { MAX_YEARS_AHEAD, addYears, beyondLimit, checkYears } from './rules.ts';
import { type RenewParams, storeRenewal } from './runners/domain.renew.ts';
import { registrarFailure } from './upstream.ts';
import { domainBody } from './view.ts';

export interface ReservedRenewal {
  operationId: string;
  domainId: string;
  params: RenewParams;
}

/** Pauses between the request's own retries of a failed renewal. */
const RETRY_PAUSES_MS = [200, 800];

const leaseOf = (ctx: Ctx) => ctx.operationLeaseS ?? DEFAULT_LEASE_S;

/** tx1: checks in the API's check order (docs/architecture.md, "Check order"), the leased operation and the charge. `period`: recurring billing names the renewed period in the ledger row ("2026-12-01 → 2027-12-01"). */
export async function reserveRenewal(ctx: Ctx, trx: Db, id: string, years: number, key: string | null, period?: string): Promise<ReservedRenewal> {
  const domain = await lockAccountDomain(trx, ctx.accountId, id);
  if (!domain) throw notFound('Domain');
  const [price] = await findTldPrices(trx, [domain.tld]);
  checkYears(years, price!);
  if ((domain.status !== 'active' && domain.status !== 'expired') || !domain.expires_at) {
    throw new ApiError('STATE_CONFLICT', `Domain ${domain.name} is ${domain.status}; only an active or expired domain can be renewed`);
  }
  if (beyondLimit(addYears(domain.expires_at, years), ctx.now)) {
    throw invalid('years', `${domain.name} is registered until ${domain.expires_at.toISOString().slice(0, 10)}; registries allow at most ${MAX_YEARS_AHEAD} years ahead`);
  }
  const cents = price!.renewal_cents * years;
  const params: RenewParams = {
    name: domain.name, service_id: domain.service_id, years, charged_cents: cents, current_expires_at: domain.expires_at.toISOString(), idempotency_key: key,
  };
  const op = await startOperation(ctx, trx, {
    type: 'domain.renew', resourceId: id, enqueue: false, leaseS: leaseOf(ctx),
    detail: `Renewing ${domain.name} for ${years} year${years === 1 ? '' : 's'}`, params,
  });
  if (cents > 0) {
    await charge(trx, ctx.accountId, cents, `Domain ${domain.name} (${domain.service_id}): ${period ? `auto-renewal ${period}` : `renewal for ${years} year${years === 1 ? '' : 's'}`}, ${formatCents(cents)} USD`, `domain/${id}`);
  }
  return { operationId: op.id, domainId: id, params };
}

/**
 * The renewal made as sure as a waiting request can: a retryable failure may be a lost answer, so
 * it is asked again with the same token, and before giving up the registry's expiry is read —
 * undoing (refunding) a renewal that did happen would give the year away.
 */
async function renewSurely(ctx: Ctx, r: ReservedRenewal): Promise<Date> {
  const p = r.params;
  const current = new Date(p.current_expires_at);
  for (let attempt = 0; ; attempt++) {
    try {
      return (await ctx.registrar.renew({ token: r.operationId, name: p.name, years: p.years, currentExpiresAt: current })).expiresAt;
    } catch (e) {
      if (!(e instanceof ProviderError) || !e.retryable) throw e;
      if (attempt >= RETRY_PAUSES_MS.length) {
        const live = await ctx.registrar.info(p.name).catch(() => null);
        if (live && live.expiresAt.getTime() > current.getTime()) return live.expiresAt;
        throw e;
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSES_MS[attempt]));
    }
  }
}

/**
 * Steps 2 and 3 for a reserved renewal. `onStored` runs in tx2 (a bulk request records its item
 * there). Returns the renewed domain; throws the API's error when the registrar failed.
 */
export async function completeRenewal(ctx: Ctx, r: ReservedRenewal, onStored?: (trx: Db, row: DomainRow) => Promise<void>): Promise<DomainRow> {
  // The sandbox's transaction ends with the request; there is no worker to take over anyway.
  const lease = ctx.sandbox ? null : holdLease(ctx.db, r.operationId, leaseOf(ctx));
  try {
    let expiresAt: Date;
    try {
      expiresAt = await renewSurely(ctx, r);
    } catch (e) {
      await failOperation({ db: ctx.db, compute: ctx.compute, hosting: ctx.hosting, registrar: ctx.registrar }, r.operationId, describeFailure(e));
      throw registrarFailure(e, r.params.name);
    }
    let row: DomainRow | undefined;
    const recovered = await finishUnlessRecovered(ctx.db, r.operationId, 'completed', `Renewed until ${expiresAt.toISOString().slice(0, 10)}`, async (trx) => {
      row = await storeRenewal(trx, ctx.accountId, r.domainId, r.params, expiresAt);
      await onStored?.(trx, row);
    });
    if (recovered === 'failed') throw new ApiError('UPSTREAM_ERROR', `The renewal of ${r.params.name} took too long and was undone; the charge was refunded`);
    // 'completed': the worker renewed with the same token, so to the same expiry.
    return row ?? (await findDomainById(ctx.db, r.domainId))!;
  } finally {
    lease?.release();
  }
}

/** POST /domains/{id}/renew: 200 with the renewed domain, or the stored answer of the key. */
export async function renewDomain(ctx: Ctx, id: string, years: number, idem: Idempotency): Promise<Replayable> {
  if (idem.key === undefined) {
    const r = await inTransaction(ctx.db, (trx) => reserveRenewal(ctx, trx, id, years, null));
    const row = await completeRenewal(ctx, r);
    return { outcome: 'done', body: domainBody(row, row.price), replayed: false };
  }
  const step = await idempotentSteps(ctx, idem.key, idem.fingerprint, (trx, own) => reserveRenewal(ctx, trx, id, years, own));
  if ('stored' in step) return step.stored;
  const row = await completeRenewal(ctx, step.claimed);
  return { outcome: 'done', body: domainBody(row, row.price), replayed: false };
}
