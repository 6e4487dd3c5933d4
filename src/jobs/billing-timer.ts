// The worker's billing pass every BILLING_INTERVAL_S (the first one that long after start). Every worker
// runs it: the pass is safe concurrently (each charge is unique per resource and period, each
// service's row is locked while it is billed), so several workers only share the work. One pass at
// a time per process; a pass cut off by a database outage is simply run again at the next tick.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { settleAfterOperation } from '../core/billing/after-suspension.ts';
import { runBillingPass } from '../core/billing/pass.ts';
import type { Services, Upstreams } from '../core/context.ts';
import type { Db } from '../core/types.ts';
import type { Operation } from '../db/schema.ts';

export interface BillingTimerDeps extends Pick<Upstreams, 'compute' | 'hosting' | 'registrar'>, Pick<Services, 'jobs'> {
  db: Db;
  config: Partial<Pick<Config, 'billingIntervalS' | 'suspendGraceDays' | 'domainRenewDays' | 'providerTimeoutMs' | 'operationLeaseS'>>;
  logger: Logger;
  isOpen(): boolean;
  noteFailure(e: unknown): boolean;
}

/** Default settings, as loadConfig has them (a worker wired by an older caller may not pass them). */
const DEFAULTS = { billingIntervalS: 300, suspendGraceDays: 14, domainRenewDays: 30, providerTimeoutMs: 2000 };

export interface BillingTimer {
  /** An operation has finished: after a suspension, the pass for its account (settleAfterOperation), in the background. */
  afterOperation(op: Operation): void;
  stop(): Promise<void>;
}

export function startBillingTimer(deps: BillingTimerDeps): BillingTimer | null {
  // Domains renew through the registrar: a worker wired without one does not bill.
  if (!deps.registrar) return null;
  const c = deps.config;
  const billing = {
    db: deps.db, compute: deps.compute, hosting: deps.hosting, registrar: deps.registrar, jobs: deps.jobs,
    providerTimeoutMs: c.providerTimeoutMs ?? DEFAULTS.providerTimeoutMs, operationLeaseS: c.operationLeaseS,
    graceDays: c.suspendGraceDays ?? DEFAULTS.suspendGraceDays, domainRenewDays: c.domainRenewDays ?? DEFAULTS.domainRenewDays,
  };
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running || !deps.isOpen()) return;
    const started = Date.now();
    running = runBillingPass(billing, new Date(), {
      onError: (err, what) => { if (!deps.noteFailure(err)) deps.logger.error({ err, component: 'billing', resource: what }, 'billing a service failed; the next pass retries it'); },
    }).then(
      (report) => { deps.logger.info({ component: 'billing', ...report, duration_ms: Date.now() - started }, 'billing pass'); },
      (err: unknown) => { if (!deps.noteFailure(err)) deps.logger.error({ err, component: 'billing' }, 'billing pass failed'); },
    ).finally(() => { running = null; });
  };
  const timer = setInterval(tick, (c.billingIntervalS ?? DEFAULTS.billingIntervalS) * 1000);
  const settling = new Set<Promise<void>>();
  const onError = (err: unknown, what?: string) => {
    if (!deps.noteFailure(err)) deps.logger.error({ err, component: 'billing', resource: what }, 'billing after a suspension failed; the next pass retries it');
  };
  return {
    afterOperation(op) {
      if (!deps.isOpen()) return;
      const started = Date.now();
      const p = settleAfterOperation(billing, op, new Date(), onError).then(
        (report) => { if (report) deps.logger.info({ component: 'billing', operation_id: op.id, ...report, duration_ms: Date.now() - started }, 'billing pass after a suspension'); },
        (err: unknown) => onError(err),
      ).finally(() => { settling.delete(p); });
      settling.add(p);
    },
    async stop() {
      clearInterval(timer);
      await running;
      await Promise.all(settling);
    },
  };
}
