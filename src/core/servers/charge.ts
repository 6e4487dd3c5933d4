// Every charge for a server or what it carries (create, clone, resize, upgrade, extra addresses,
// snapshots; renewals when they come) is quoted here, so a reseller's discount is applied in one
// place and named in the ledger: "… first monthly cycle, 150.00 USD less 10 % reseller discount =
// 135.00 USD". Quote first, then write the resource, then pay: the checks keep the API's check order
// (state before balance) and the resource row can record the discount it was sold with.
//
// A server keeps its list price (price_cents) and the monthly discount it holds (discount_cents);
// it pays `price − discount` a month. A mid-cycle change adds its list difference and a discount
// on that difference at the tier of the moment, and is charged as the prorated change of what the
// server pays, so the refund of unused hours (delete, shrink) returns what was paid, never more.
import { charge } from '../billing/ledger.ts';
import { type Cents, formatCents, prorateChange } from '../money.ts';
import { findTierDiscount } from '../../db/queries/reseller.ts';
import { basisPoints, discountOf, percentOf } from '../reseller/discount.ts';
import type { Db } from '../types.ts';

export interface ServerCost {
  accountId: string;
  /** The monthly list price before and after the change; a purchase goes from 0. */
  fromCents: Cents;
  toCents: Cents;
  /** The monthly discount already held on `fromCents` (servers.discount_cents); 0 for a purchase. */
  heldDiscountCents?: Cents;
  /** Only the unused hours of the current cycle are paid (mid-cycle changes); omitted, a whole month. */
  cycle?: { remaining: number; period: number };
  /** What is bought, without the amount: "Server web-1 (srv_…): first monthly cycle". */
  description: string;
  /** `type/id`, for logs and metrics. */
  resource: string;
}

export interface ServerQuote {
  accountId: string;
  /** What the change costs at list price. */
  listCents: Cents;
  /** What is charged. */
  chargedCents: Cents;
  /** The monthly discount the change adds to what the server holds (record it with the price). */
  discountDeltaCents: Cents;
  /** Basis points of the reseller discount applied (0: none). */
  discountBp: number;
  description: string;
  resource: string;
}

export async function quoteServerCharge(db: Db, c: ServerCost): Promise<ServerQuote> {
  const pct = await findTierDiscount(db, c.accountId);
  return quoteAt(c, pct === null ? 0 : basisPoints(pct));
}

/** The quote at a known discount (basis points of the account's tier): what quoteServerCharge decides. */
export function quoteAt(c: ServerCost, discountBp: number): ServerQuote {
  const held = c.heldDiscountCents ?? 0;
  const delta = c.toCents - c.fromCents;
  const discountDeltaCents = discountOf(delta, discountBp);
  const paysFrom = Math.max(0, c.fromCents - held);
  const paysTo = Math.max(0, c.toCents - held - discountDeltaCents);
  const listCents = c.cycle ? prorateChange(c.fromCents, c.toCents, c.cycle.remaining, c.cycle.period) : delta;
  // Without a new discount the change costs its list price (the server's held discount is untouched).
  const chargedCents = discountDeltaCents === 0
    ? Math.max(0, listCents)
    : Math.max(0, c.cycle ? prorateChange(paysFrom, paysTo, c.cycle.remaining, c.cycle.period) : paysTo - paysFrom);
  const discounted = discountDeltaCents > 0 && chargedCents < listCents;
  const description = discounted
    ? `${c.description}, ${formatCents(listCents)} USD less ${percentOf(discountBp)} % reseller discount = ${formatCents(chargedCents)} USD`
    : `${c.description}, ${formatCents(listCents)} USD`;
  return { accountId: c.accountId, listCents, chargedCents, discountDeltaCents, discountBp, description, resource: c.resource };
}

/** Charges a quote (nothing when it comes to 0); INSUFFICIENT_BALANCE when the balance does not cover it. */
export async function payServerCharge(db: Db, q: ServerQuote): Promise<void> {
  if (q.chargedCents > 0) await charge(db, q.accountId, q.chargedCents, q.description, q.resource);
}
