// POST /domains/transfer: a name moves in from another registrar. After the checks (input, TLD,
// the name free with us, balance) the registrar is asked at once whether the name is registered
// elsewhere and the auth code is right (EPP <info> with authInfo, which changes nothing): a wrong
// answer is 422 naming the field and nothing is charged. Then one transaction: the charge, the
// domain in transfer_pending, the domain.transfer operation and its job. The worker requests the
// transfer (the operation id is the request token: one transfer however often it runs) and waits
// for the losing registrar to approve; the domain then becomes active with its expiry moved by
// `years`. A rejected or failed transfer cancels the domain and refunds the charge
// (runners/domain.transfer.ts).
import type { TldPrice } from '../../db/schema.ts';
import type { RegistryDomain } from '../../providers/registrar/types.ts';
import { charge } from '../billing/ledger.ts';
import type { Ctx } from '../context.ts';
import { ApiError } from '../errors.ts';
import { type Replayable, idempotent } from '../idempotency/service.ts';
import { type Cents, formatCents } from '../money.ts';
import { startOperation } from '../operations/service.ts';
import type { Db } from '../types.ts';
import { resolveDomainName } from './names.ts';
import { type Idempotency, type Placed, insertDomainChecked, requireBalance, requireFreeWithUs } from './register.ts';
import { DEFAULT_NAMESERVERS } from '../dns/zones.ts';
import { checkNameservers, checkWhoisPrivacy, checkYears, newDomainId, newServiceId } from './rules.ts';
import { registrarFailure } from './upstream.ts';

export interface TransferInput {
  domain: string;
  auth_code: string;
  years?: number;
  nameservers?: string[];
  whois_privacy?: boolean;
  auto_renew?: boolean;
}

export interface TransferOrder {
  name: string;
  price: TldPrice;
  authCode: string;
  years: number;
  nameservers: string[] | null;
  whoisPrivacy: boolean;
  autoRenew: boolean;
  cents: Cents;
}

/**
 * The transfer price includes one year; each further year costs the renewal price (otherwise
 * `years: 10` would buy ten years for one transfer fee).
 */
export function transferCents(price: TldPrice, years: number): Cents {
  return price.transfer_cents + price.renewal_cents * (years - 1);
}

export async function prepareTransfer(ctx: Ctx, db: Db, input: TransferInput): Promise<TransferOrder> {
  const { domain, price } = await resolveDomainName(db, input.domain);
  const years = checkYears(input.years ?? 1, price);
  const order: TransferOrder = {
    name: domain.name,
    price,
    authCode: input.auth_code,
    years,
    nameservers: input.nameservers === undefined ? null : checkNameservers(input.nameservers),
    whoisPrivacy: checkWhoisPrivacy(input.whois_privacy, price),
    autoRenew: input.auto_renew ?? true,
    cents: transferCents(price, years),
  };
  await requireFreeWithUs(ctx, db, order.name);
  await requireBalance(ctx, db, order.cents);
  return order;
}

/** The registrar's word on the name and its auth code, before anything is charged. */
export async function verifyTransfer(ctx: Ctx, order: TransferOrder): Promise<RegistryDomain> {
  try {
    return await ctx.registrar.info(order.name, order.authCode);
  } catch (e) {
    throw registrarFailure(e, order.name);
  }
}

export async function placeTransfer(ctx: Ctx, trx: Db, order: TransferOrder, held: RegistryDomain): Promise<Placed> {
  const id = newDomainId();
  const serviceId = newServiceId();
  // Until the transfer completes the name keeps its current registration and nameservers (a name
  // that has none gets DNS_NAMESERVERS, where its zone with us will answer).
  const current = held.nameservers.length >= 2 ? held.nameservers.slice(0, 13) : [...(ctx.dnsNameservers ?? DEFAULT_NAMESERVERS)];
  const domain = await insertDomainChecked(trx, {
    id, account_id: ctx.accountId, name: order.name, tld: order.price.tld, status: 'transfer_pending', auto_renew: order.autoRenew,
    transfer_lock: true, whois_privacy: order.whoisPrivacy, registration_years: order.years, nameservers: order.nameservers ?? current,
    service_id: serviceId, registrar: ctx.registrar.name, registered_at: held.createdAt, expires_at: held.expiresAt, created_at: ctx.now, updated_at: ctx.now,
  });
  if (order.cents > 0) {
    await charge(trx, ctx.accountId, order.cents,
      `Domain ${order.name} (${serviceId}): transfer in, ${order.years} year${order.years === 1 ? '' : 's'} added, ${formatCents(order.cents)} USD`, `domain/${id}`);
  }
  const operation = await startOperation(ctx, trx, {
    type: 'domain.transfer', resourceId: id, detail: `Queued: transfer of ${order.name} from its current registrar`,
    params: { auth_code: order.authCode, charged_cents: order.cents, nameservers: order.nameservers },
  });
  return { domain: { ...domain, price: order.price }, operation };
}

/** POST /domains/transfer, with its Idempotency-Key: the 201 answer `present` makes, or the stored one. */
export async function transferDomain(
  ctx: Ctx, input: TransferInput, idem: Idempotency, present: (placed: Placed) => unknown,
): Promise<Replayable> {
  let checked: { order: TransferOrder; held: RegistryDomain } | undefined;
  // The registrar is asked before the transaction; a retry whose first answer is stored is replayed
  // without asking (the name is ours, or transferring, by now — through that very first request).
  return idempotent(ctx, idem.key, idem.fingerprint, async (trx) => {
    // Unchecked only when another request's expired record under this key vanished meanwhile.
    if (!checked) throw new ApiError('IDEMPOTENCY_KEY_CONFLICT', 'A request with this Idempotency-Key is still being processed; retry shortly');
    return { outcome: 'created', body: present(await placeTransfer(ctx, trx, checked.order, checked.held)) };
  }, {
    beforeTransaction: async () => {
      const order = await prepareTransfer(ctx, ctx.db, input);
      checked = { order, held: await verifyTransfer(ctx, order) };
    },
  });
}
