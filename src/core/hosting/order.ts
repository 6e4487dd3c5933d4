// Ordering web hosting. Checks run in the API's check order (docs/architecture.md, "Check order") — input (the domain), references (the
// package), state (the domain's live account, a panel server with room), then balance — and
// everything that costs money commits in the caller's one transaction: the account row, the first
// cycle's charge, the `hosting.create` operation and its job (the idempotency record is the
// caller's, in the same transaction). Provisioning that finally fails refunds the charge in full.
//
// The room check asks the panel, so it runs before that transaction (precheckOrder, through
// idempotent()'s beforeTransaction), after the checks that come before it; the transaction then
// repeats the database checks, which decide.
import { isUniqueViolation } from '../../db/refusals.ts';
import { findCatalogRow } from '../../db/queries/catalog.ts';
import { findLiveWebHostingByDomain, insertWebHosting, type WebHostingRow } from '../../db/queries/web-hosting.ts';
import type { BillingCycle, Operation } from '../../db/schema.ts';
import { charge } from '../billing/ledger.ts';
import type { Ctx } from '../context.ts';
import { parseHostName } from '../domains/names.ts';
import { ApiError, invalid } from '../errors.ts';
import { newId } from '../ids.ts';
import { formatCents } from '../money.ts';
import { startOperation } from '../operations/service.ts';
import type { Db } from '../types.ts';
import { requirePanelRoom } from './panel-calls.ts';
import { addCycle, cyclePriceCents } from './rules.ts';
import type { HostingCreateParams } from './runners/hosting.create.ts';

export interface OrderHostingInput {
  domain: string;
  package_id: number;
  billing_cycle?: BillingCycle;
}

function domainTaken(domain: string, ownId?: string): ApiError {
  // Another customer's account id is not theirs to learn.
  const which = ownId ? ` (${ownId})` : '';
  return new ApiError('STATE_CONFLICT', `${domain} already has a web hosting account${which}; cancel it before ordering another`, [
    { field: 'domain', code: 'INVALID', message: 'this domain already has a live web hosting account' },
  ]);
}

/**
 * Input, package and domain checks. The domain: any syntactically valid name (IDN accepted, stored
 * as punycode), subdomains too, in any TLD — its DNS may be anywhere, so it need not be one this
 * platform sells.
 */
async function checkOrder(ctx: Ctx, db: Db, input: OrderHostingInput) {
  const parsed = parseHostName(input.domain);
  if (!parsed.ok) throw invalid('domain', parsed.problem);
  const domain = parsed.value.name;
  const cycle = input.billing_cycle ?? 'monthly';

  const pkg = await findCatalogRow(db, 'hosting_packages', input.package_id);
  if (!pkg || !pkg.active) {
    throw invalid('package_id', pkg ? `${pkg.name} is no longer sold (see GET /web-hosting-packages)` : 'no such hosting package (see GET /web-hosting-packages)');
  }

  const live = await findLiveWebHostingByDomain(db, domain);
  if (live) throw domainTaken(domain, live.account_id === ctx.accountId ? live.id : undefined);
  return { domain, cycle, pkg };
}

/** Every check of an order, the panel's room last; outside any transaction. */
export async function precheckOrder(ctx: Ctx, input: OrderHostingInput): Promise<void> {
  await checkOrder(ctx, ctx.db, input);
  await requirePanelRoom(ctx.hosting, ctx.providerTimeoutMs);
}

/** Creates the account (pending), charges its first cycle and queues provisioning, in `trx`. */
export async function orderHosting(ctx: Ctx, trx: Db, input: OrderHostingInput): Promise<{ hosting: WebHostingRow; operation: Operation }> {
  const { domain, cycle, pkg } = await checkOrder(ctx, trx, input);
  const priceCents = cyclePriceCents(pkg, cycle);
  const id = newId('wh');
  let row;
  try {
    row = await insertWebHosting(trx, {
      id, account_id: ctx.accountId, domain, package_id: pkg.id, billing_cycle: cycle, price_cents: priceCents, last_charge_cents: priceCents,
      period_started_at: ctx.now, next_billing_at: addCycle(ctx.now, cycle), created_at: ctx.now,
    });
  } catch (e) {
    // Another order for the name committed between the check and this insert: the index decides.
    if (isUniqueViolation(e, 'hosting_domain_taken')) throw domainTaken(domain);
    throw e;
  }
  if (priceCents > 0) {
    await charge(trx, ctx.accountId, priceCents, `Web hosting ${domain} (${id}), ${pkg.name}: first ${cycle} cycle, ${formatCents(priceCents)} USD`, `web_hosting/${id}`);
  }
  const params: HostingCreateParams = { charged_cents: priceCents };
  const operation = await startOperation(ctx, trx, {
    type: 'hosting.create', resourceId: id, detail: 'Queued for provisioning', params,
  });
  return { hosting: { ...row, package_name: pkg.name, quota_mb: pkg.disk_quota_mb, max_domains: pkg.max_domains }, operation };
}
