// The payment sweep: what settles payments and refunds nobody comes back for. A payment's word
// normally arrives by webhook or when the customer returns from the checkout; both can be lost (a
// webhook endpoint down for days, a customer closing the tab, a process dying mid-request). Every
// worker runs a sweep each PAYMENT_SWEEP_INTERVAL_S (src/jobs/payment-sweeper.ts):
//  - a payment pending for more than CHECK_AFTER (5 min) is asked about at the provider and the
//    answer applied as a webhook's would be (confirm.ts: paid → credited once, declined, expired);
//    one still open is asked again 5 minutes on during its first hour, hourly after;
//  - one still open ABANDON_AFTER (25 h: a checkout's own 24 h lifetime, and an hour's margin)
//    after it started is expired as abandoned (should the provider still report it paid later, that
//    word wins and credits it, as for any expired payment);
//  - one whose checkout never opened (no provider id 5 minutes on: the request that started it died)
//    is failed — the customer never had a page to pay on;
//  - a refund left pending (its provider call erred, or its request died) is finished 5 minutes on,
//    under its own idempotency key, so it is paid once (refunds.ts).
// Sweeps in several workers share the work: each claims its rows (SKIP LOCKED), and every
// settlement locks its payment or refund row anyway.
import { claimStaleRefunds } from '../../db/queries/payment-refunds.ts';
import { claimDuePayments, markUnpaid } from '../../db/queries/payments.ts';
import type { Payment } from '../../db/schema.ts';
import { ProviderError } from '../../providers/payments/types.ts';
import { ApiError } from '../errors.ts';
import { applyProviderState, settle } from './confirm.ts';
import type { PaymentDeps } from './deps.ts';
import { finishRefund } from './refunds.ts';

/** A pending payment younger than this is left to its webhook and its customer. */
export const CHECK_AFTER_MS = 5 * 60_000;
/** How soon a payment still open is asked about again: during its first hour, and after. */
export const RECHECK_MS = 5 * 60_000;
export const RECHECK_LATE_MS = 60 * 60_000;
/** A payment still open this long after it started is expired as abandoned. */
export const ABANDON_AFTER_MS = 25 * 3_600_000;
/** Rows one pass takes of each kind (the rest wait for the next pass). */
const BATCH = 100;

export type SweepDeps = Pick<PaymentDeps, 'db' | 'services' | 'billing' | 'now' | 'onError'>;

export interface SweepReport {
  /** Payments asked about at the provider. */
  checked: number;
  credited: number;
  declined: number;
  expired: number;
  /** Checkouts that never opened. */
  failed: number;
  still_open: number;
  /** Payments or refunds the provider could not be asked about now (the next pass tries again). */
  errors: number;
  refunds_completed: number;
  refunds_failed: number;
  refunds_pending: number;
}

/** One sweep at `now`. Failures of one payment or refund are counted (and reported through onError when unexpected), never thrown. */
export async function sweepPayments(deps: SweepDeps, now: Date): Promise<SweepReport> {
  const r: SweepReport = { checked: 0, credited: 0, declined: 0, expired: 0, failed: 0, still_open: 0, errors: 0, refunds_completed: 0, refunds_failed: 0, refunds_pending: 0 };
  const provider = deps.services.payments;
  const due = await claimDuePayments(deps.db, {
    now, olderThan: new Date(now.getTime() - CHECK_AFTER_MS), oldSince: new Date(now.getTime() - 3_600_000), recheckMs: RECHECK_MS, recheckOldMs: RECHECK_LATE_MS, limit: BATCH,
  });
  for (const p of due) {
    try {
      await sweepPayment(deps, p, now, r);
    } catch (e) {
      r.errors++;
      if (!(e instanceof ProviderError)) deps.onError(e, `payment/${p.id}`);
    }
  }
  if (provider && provider.name !== 'off') {
    const refundDeps = { db: deps.db, provider, now: () => now };
    for (const refund of await claimStaleRefunds(deps.db, new Date(now.getTime() - CHECK_AFTER_MS), now, BATCH)) {
      try {
        const settled = await finishRefund(refundDeps, refund);
        if (settled.note) r.refunds_completed++;
        else r.refunds_failed++;
      } catch (e) {
        // The provider erred again (or is not this server's): still pending, the next pass retries.
        if (e instanceof ApiError && (e.code === 'UPSTREAM_ERROR' || e.code === 'STATE_CONFLICT')) r.refunds_pending++;
        else {
          r.errors++;
          deps.onError(e, `refund/${refund.id}`);
        }
      }
    }
  }
  return r;
}

async function sweepPayment(deps: SweepDeps, p: Payment, now: Date, r: SweepReport): Promise<void> {
  if (!p.provider_ref) {
    if (await markUnpaid(deps.db, p.id, 'failed', 'The checkout was never opened (the request that started it did not finish)', now)) r.failed++;
    return;
  }
  const provider = deps.services.payments;
  // A payment through a provider this server does not use now cannot be asked about here.
  if (!provider || provider.name !== p.provider) return;
  r.checked++;
  const state = await provider.retrieve(p.provider_ref);
  if (state.status === 'open') {
    if (now.getTime() - p.created_at.getTime() < ABANDON_AFTER_MS) {
      r.still_open++;
      return;
    }
    if (await markUnpaid(deps.db, p.id, 'expired', `Abandoned: not paid within ${ABANDON_AFTER_MS / 3_600_000} hours of its start`, now)) r.expired++;
    return;
  }
  const outcome = await applyProviderState(deps.db, p.provider, p.provider_ref, state, now);
  if (outcome.kind === 'credited') {
    r.credited++;
    await settle(deps, outcome);
  } else if (outcome.kind === 'not_paid') {
    if (outcome.payment.status === 'declined') r.declined++;
    else if (outcome.payment.status === 'expired') r.expired++;
  } else if (outcome.kind === 'mismatch' && p.failure === null) {
    // Reported once, when first noted; it stays pending for the operator.
    deps.onError(new Error(outcome.payment.failure ?? 'amount mismatch'), `payment/${p.id}`);
  }
}
