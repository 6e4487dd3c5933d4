// The worker's payment sweep every PAYMENT_SWEEP_INTERVAL_S (src/core/payments/sweep.ts): payments
// and refunds nobody came back for are settled with the provider's word. Every worker runs it, as
// it does the billing pass: sweeps claim their rows, so several workers only share the work. One
// sweep at a time per process; one cut off by a database outage is simply run again at the next tick.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Services, Upstreams } from '../core/context.ts';
import { sweepPayments } from '../core/payments/sweep.ts';
import type { Db } from '../core/types.ts';
import type { Metrics } from '../telemetry/metrics.ts';

export interface PaymentSweeperDeps extends Pick<Upstreams, 'compute' | 'hosting' | 'registrar' | 'payments'>, Pick<Services, 'jobs'> {
  db: Db;
  config: Partial<Pick<Config, 'paymentSweepIntervalS' | 'suspendGraceDays' | 'domainRenewDays' | 'providerTimeoutMs' | 'operationLeaseS'>>;
  logger: Logger;
  metrics?: Metrics;
  isOpen(): boolean;
  noteFailure(e: unknown): boolean;
}

/** Default settings, as loadConfig has them (a worker wired by an older caller may not pass them). */
const DEFAULTS = { paymentSweepIntervalS: 60, suspendGraceDays: 14, domainRenewDays: 30, providerTimeoutMs: 2000 };

export function startPaymentSweeper(deps: PaymentSweeperDeps): { stop(): Promise<void> } | null {
  // Nothing to ask without a provider; a credit's settlement renews domains, so it needs the registrar too.
  if (!deps.payments || deps.payments.name === 'off' || !deps.registrar) return null;
  const c = deps.config;
  const sweepDeps = {
    db: deps.db,
    services: {
      compute: deps.compute, hosting: deps.hosting, registrar: deps.registrar, payments: deps.payments, jobs: deps.jobs,
      providerTimeoutMs: c.providerTimeoutMs ?? DEFAULTS.providerTimeoutMs, operationLeaseS: c.operationLeaseS,
    },
    billing: { graceDays: c.suspendGraceDays ?? DEFAULTS.suspendGraceDays, domainRenewDays: c.domainRenewDays ?? DEFAULTS.domainRenewDays },
    now: () => new Date(),
    onError: (err: unknown, what: string) => {
      if (!deps.noteFailure(err)) deps.logger.error({ err, component: 'payments', resource: what }, 'a payment needs attention: the sweep could not settle it (the next sweep tries again), or the provider reported another amount');
    },
  };
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running || !deps.isOpen()) return;
    const started = Date.now();
    running = sweepPayments(sweepDeps, new Date()).then(
      (report) => {
        // A line only when the sweep did something: most passes find nothing.
        deps.metrics?.paymentSweeps.inc({ outcome: report.errors > 0 ? 'errors' : 'ok' });
        const did = Object.values(report).some((n) => n > 0);
        if (did) deps.logger.info({ component: 'payments', ...report, duration_ms: Date.now() - started }, 'payment sweep');
      },
      (err: unknown) => {
        deps.metrics?.paymentSweeps.inc({ outcome: 'failed' });
        if (!deps.noteFailure(err)) deps.logger.error({ err, component: 'payments' }, 'payment sweep failed');
      },
    ).finally(() => { running = null; });
  };
  const timer = setInterval(tick, (c.paymentSweepIntervalS ?? DEFAULTS.paymentSweepIntervalS) * 1000);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
