// A process's telemetry: its logger and its metrics, and what turns the core's events (billing,
// operation outcomes, payment webhooks) into log lines and counters. The wiring (serve, worker,
// tests) makes one and hands it to the app, the worker and the providers.
import type { Logger } from 'pino';
import type { CoreEvent, EventSink } from '../core/events.ts';
import { LEDGER_EVENTS } from '../core/events/catalogue.ts';
import { eventsOfFinishedOperation } from '../core/operations/events.ts';
import { formatCents } from '../core/money.ts';
import type { Database } from '../db/connection.ts';
import { attachEventSink } from '../db/transaction.ts';
import { buildInfo } from './build-info.ts';
import { Metrics } from './metrics.ts';

export interface Telemetry {
  logger: Logger;
  metrics: Metrics;
}

/** `commit`: BUILD_COMMIT, when the operator set it (else the build info finds it). */
export function createTelemetry(logger: Logger, commit?: string): Telemetry {
  return { logger, metrics: new Metrics(buildInfo(commit)) };
}

const BILLING_MESSAGE = { deposit: 'billing deposit', withdraw: 'billing charge', refund: 'billing refund' } as const;

/** One log line and its counters per event. Amounts as "12.50"; never a secret. */
export function eventSink({ logger, metrics }: Telemetry): EventSink {
  return (e: CoreEvent) => {
    if (e.kind === 'event') {
      metrics.eventsWritten.inc({ type: e.type });
      return;
    }
    if (e.kind === 'billing') {
      // The ledger's trigger wrote its event in the same transaction (core/events/catalogue.ts).
      metrics.eventsWritten.inc({ type: LEDGER_EVENTS[e.type] });
      metrics.billing.inc({ type: e.type });
      metrics.billingAmount.inc({ type: e.type }, e.cents);
      logger.info({
        component: 'billing', transaction_type: e.type, account_id: e.accountId, amount: formatCents(e.cents), currency: 'USD',
        resource: e.resource, transaction_id: e.transactionId, balance_after: formatCents(e.balanceAfterCents), description: e.description,
      }, BILLING_MESSAGE[e.type]);
      return;
    }
    if (e.kind === 'payment_webhook') {
      metrics.paymentWebhooks.inc({ provider: e.provider, outcome: e.outcome });
      // Acknowledged (the provider would retry anything else), but someone should know: another
      // system taking payments on the same provider account, or a payment of ours that was lost.
      if (e.outcome === 'unknown') {
        logger.warn({
          component: 'payments', provider: e.provider, event_id: e.eventId, event_type: e.eventType, session_id: e.ref, reference: e.reference,
        }, 'payment webhook about a session no payment of ours has: acknowledged, nothing credited');
      }
      return;
    }
    const base = { component: 'operations', operation_id: e.operationId, operation_type: e.type, account_id: e.accountId, resource: e.resource };
    switch (e.outcome) {
      case 'completed':
      case 'failed':
        // The events the operation's end wrote with it (the trigger of migration 0041).
        for (const type of eventsOfFinishedOperation(e.type, e.outcome)) metrics.eventsWritten.inc({ type });
        metrics.operations.inc({ type: e.type, outcome: e.outcome });
        if (e.durationS !== undefined) metrics.operationDuration.observe({ type: e.type, outcome: e.outcome }, e.durationS);
        if (e.outcome === 'completed') logger.info({ ...base, duration_s: e.durationS, attempts: e.attempt }, 'operation completed');
        else logger.warn({ ...base, duration_s: e.durationS, attempts: e.attempt, reason: e.reason }, 'operation failed');
        return;
      case 'retried':
        metrics.operationRetries.inc({ type: e.type });
        logger.warn({ ...base, attempt: e.attempt, error: e.reason }, 'operation attempt failed; retrying');
        return;
      case 'compensated':
        metrics.operationCompensations.inc({ type: e.type });
        logger.info({ ...base, refund: formatCents(e.refundCents ?? 0), currency: 'USD' }, 'operation compensated');
    }
  };
}

/**
 * Reports this database's committed work and exposes its pool and queue in the metrics; `worker`
 * is `serve`'s embedded worker's pool, when it has one of its own (reported alike, pools summed).
 */
export function observeDatabase(telemetry: Telemetry, database: Database, worker?: Database | null): void {
  const sink = eventSink(telemetry);
  attachEventSink(database.db, sink);
  const pools = [database.pool];
  if (worker && worker !== database) {
    attachEventSink(worker.db, sink);
    pools.push(worker.pool);
  }
  telemetry.metrics.watchDatabase(database.db, pools);
}

export { Metrics };
