// POST /domains: a registration. Checks run in the API's check order (docs/architecture.md, "Check order") — input, references (the TLD's
// price-list row), state (the name is free with us), balance — and only then is the registrar
// asked whether the registry would take the name, so INSUFFICIENT_BALANCE never costs a registrar
// call. The charge, the pending domain, the domain.register operation and its job then commit in
// one transaction, as the registration's plan (planRegistration) says — the one-statement way of
// register-request.ts writes that same plan; the unique index on live names decides a race between
// two accounts (the loser rolls back, charge included). The worker registers the name (the operation id is the request
// token, so a retried run never registers twice) and activates the domain; a final failure
// cancels it and refunds the charge (runners/domain.register.ts).
import { isUniqueViolation } from '../../db/refusals.ts';
import { type DomainRow, findLiveNames, insertDomain } from '../../db/queries/domains.ts';
import type { Domain, Operation, TldPrice } from '../../db/schema.ts';
import type { DomainContact } from '../../providers/registrar/types.ts';
import { charge, getBalance, insufficient } from '../billing/ledger.ts';
import type { Ctx } from '../context.ts';
import { invalid } from '../errors.ts';
import { type Cents, formatCents } from '../money.ts';
import { type StartOperation, startOperation } from '../operations/service.ts';
import type { Db } from '../types.ts';
import { resolveDomainName } from './names.ts';
import { DEFAULT_NAMESERVERS } from '../dns/zones.ts';
import { checkContact, checkNameservers, checkWhoisPrivacy, checkYears, newDomainId, newServiceId } from './rules.ts';

export interface RegisterInput {
  domain: string;
  years: number;
  nameservers?: string[];
  whois_privacy?: boolean;
  auto_renew?: boolean;
  contact?: DomainContact;
}

export interface RegistrationOrder {
  name: string;
  price: TldPrice;
  years: number;
  nameservers: string[];
  whoisPrivacy: boolean;
  autoRenew: boolean;
  contact: DomainContact | null;
  cents: Cents;
}

/** What a domain order answers: the pending domain and the operation that finishes it. */
export interface Placed {
  domain: DomainRow;
  operation: Operation;
}

export type { Idempotency } from '../idempotency/service.ts';

const years = (n: number) => `${n} year${n === 1 ? '' : 's'}`;

/** 422 naming `domain` when a live domain holds the name: the caller's own, or anyone's. */
export async function requireFreeWithUs(ctx: Ctx, db: Db, name: string): Promise<void> {
  const [held] = await findLiveNames(db, [name]);
  checkFreeWithUs(ctx, name, held);
}

/** requireFreeWithUs on the live domain already read (undefined: none holds the name). */
export function checkFreeWithUs(ctx: Pick<Ctx, 'accountId'>, name: string, held: { account_id: string } | undefined | null): void {
  if (!held) return;
  throw invalid('domain', held.account_id === ctx.accountId ? `${name} is already in your account` : `${name} is not available: it is registered already`);
}

/** INSUFFICIENT_BALANCE before anything else is asked of anyone; the charge itself checks again. */
export async function requireBalance(ctx: Ctx, db: Db, cents: Cents): Promise<void> {
  if (cents <= 0) return;
  checkBalance(await getBalance(db, ctx.accountId), cents);
}

export function checkBalance(balanceCents: Cents, cents: Cents): void {
  if (cents > 0 && balanceCents < cents) throw insufficient(balanceCents, cents);
}

/** Everything the registration can be checked for without the registrar. */
export async function prepareRegistration(ctx: Ctx, db: Db, input: RegisterInput): Promise<RegistrationOrder> {
  const { domain, price } = await resolveDomainName(db, input.domain);
  const order = orderOf(input, domain.name, price, ctx.dnsNameservers);
  await requireFreeWithUs(ctx, db, order.name);
  await requireBalance(ctx, db, order.cents);
  return order;
}

/** The input's checks against the TLD's price-list row (no state read). */
export function orderOf(input: RegisterInput, name: string, price: TldPrice, defaultNameservers: readonly string[] = DEFAULT_NAMESERVERS): RegistrationOrder {
  return {
    name,
    price,
    years: checkYears(input.years, price),
    nameservers: input.nameservers === undefined ? [...defaultNameservers] : checkNameservers(input.nameservers),
    whoisPrivacy: checkWhoisPrivacy(input.whois_privacy, price),
    autoRenew: input.auto_renew ?? true,
    contact: checkContact(input.contact, price),
    cents: price.register_cents * input.years,
  };
}

/** Inserts a domain, a taken name (the unique index: another account won a race) being 422 naming `domain`. */
export async function insertDomainChecked(trx: Db, row: Parameters<typeof insertDomain>[1]): Promise<Awaited<ReturnType<typeof insertDomain>>> {
  try {
    return await insertDomain(trx, row);
  } catch (e) {
    if (isUniqueViolation(e, 'domain_taken')) throw invalid('domain', `${row.name} is not available: it is registered already`);
    throw e;
  }
}

/** What a registration writes, whichever way writes it: the pending domain, its charge, the operation that registers it. */
export interface RegistrationPlan {
  row: Domain;
  charge: { cents: Cents; description: string; resource: string };
  operation: StartOperation<'domain.register'>;
}

/** The plan of registering `order` as domain `ids.id` (service `ids.serviceId`) for `at.accountId` at `at.now`. Pure. */
export function planRegistration(
  at: Pick<Ctx, 'accountId' | 'now'> & { registrar: { name: string } }, order: RegistrationOrder, ids: { id: string; serviceId: string },
): RegistrationPlan {
  const { id, serviceId } = ids;
  return {
    row: {
      id, account_id: at.accountId, name: order.name, tld: order.price.tld, status: 'pending', auto_renew: order.autoRenew, transfer_lock: true,
      whois_privacy: order.whoisPrivacy, registration_years: order.years, nameservers: order.nameservers, service_id: serviceId,
      registrar: at.registrar.name, provider_ref: null, auth_code: null, registered_at: null, expires_at: null, created_at: at.now, updated_at: at.now,
    },
    charge: { cents: order.cents, description: `Domain ${order.name} (${serviceId}): registration for ${years(order.years)}, ${formatCents(order.cents)} USD`, resource: `domain/${id}` },
    operation: {
      type: 'domain.register', resourceId: id, detail: `Queued for registration of ${order.name}`,
      params: { charged_cents: order.cents, contact: order.contact },
    },
  };
}

/** A registration's ids: the domain's and its service's. */
export function newRegistrationIds(): { id: string; serviceId: string } {
  return { id: newDomainId(), serviceId: newServiceId() };
}

/** The transaction of a registration: pending domain, charge, operation and job. */
export async function placeRegistration(ctx: Ctx, trx: Db, order: RegistrationOrder): Promise<Placed> {
  const plan = planRegistration(ctx, order, newRegistrationIds());
  const domain = await insertDomainChecked(trx, plan.row);
  if (plan.charge.cents > 0) await charge(trx, ctx.accountId, plan.charge.cents, plan.charge.description, plan.charge.resource);
  const operation = await startOperation(ctx, trx, plan.operation);
  return { domain: { ...domain, price: order.price }, operation };
}
