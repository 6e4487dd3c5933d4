// What the billing pass needs and reports: the database, the outside systems (for the operations
// it starts and the registrar renewals it makes), and its settings.
import type { Ctx, Services } from '../context.ts';
import type { Db } from '../types.ts';

export interface BillingSettings {
  /** SUSPEND_GRACE_DAYS: a suspended service unpaid this long is cancelled. */
  graceDays: number;
  /** DOMAIN_RENEW_DAYS: auto-renewal this many days before expiry. */
  domainRenewDays: number;
}

export interface BillingDeps extends Services, BillingSettings {
  db: Db;
}

export interface PassReport {
  charged: number;
  charged_cents: number;
  unpaid: number;
  suspended: number;
  resumed: number;
  cancelled: number;
  domains_renewed: number;
  domains_expired: number;
  notices: number;
  /** Services left for the next pass (an operation was running on them, or an error). */
  deferred: number;
}

/** Runs one step of a pass with a report of its own, added to the pass's if the step succeeds. */
export type Guarded = (what: string, fn: (r: PassReport) => Promise<void>) => Promise<void>;

/** One resource's step of a pass, counted into `r`. */
export type PassStep = (deps: BillingDeps, now: Date, id: string, r: PassReport) => Promise<void>;

/**
 * A billable type's part of the billing pass (its family's manifest, `billable`): the pass holds no
 * list of families, so a type billed every period cannot be left out of it.
 */
export interface RecurringPass {
  /**
   * Charges every resource of the type whose period has ended (only `accountId`'s when given), each
   * in a transaction of its own through `guarded`, under `<type>/<id>`.
   */
  billDue(deps: BillingDeps, now: Date, guarded: Guarded, accountId?: string): Promise<void>;
  /** Settles one resource whose charge is due (retried first, oldest first); null when `billDue` settles them itself. */
  retryDue: PassStep | null;
  /** Resumes its suspended resources whose charges were all paid meanwhile (a deposit's); null when non-payment does not suspend it. */
  resumePaid: ((deps: BillingDeps, now: Date, r: PassReport, accountId?: string) => Promise<void>) | null;
  /**
   * Its suspension for non-payment: the operation that carries it out, and whether a suspended
   * resource can be resumed now (the account's pass runs again once that operation has finished).
   */
  suspension?: { operation: string; resumableNow(db: Db, id: string): Promise<boolean> };
}

export function emptyReport(): PassReport {
  return { charged: 0, charged_cents: 0, unpaid: 0, suspended: 0, resumed: 0, cancelled: 0, domains_renewed: 0, domains_expired: 0, notices: 0, deferred: 0 };
}

/** A core context acting for `accountId` at the pass's instant. */
export function ctxFor(deps: BillingDeps, accountId: string, now: Date): Ctx {
  return {
    db: deps.db, accountId, sandbox: false, now, compute: deps.compute, hosting: deps.hosting, registrar: deps.registrar, jobs: deps.jobs,
    providerTimeoutMs: deps.providerTimeoutMs, operationLeaseS: deps.operationLeaseS,
  };
}

