// Prometheus metrics of the real work (prom-client), one registry per process (tests that build
// several apps in one process make one each). Counters move where the work happens: HTTP hooks
// (http/observe.ts), core events (telemetry/index.ts eventSink), the provider wrapper (telemetry/provider.ts).
// Queue depth and pool usage are read when Prometheus scrapes, bounded and failure-tolerant.
import type pg from 'pg';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../core/types.ts';
import { queueStats } from '../db/queries/jobs.ts';
import { deliveryQueueStats } from '../db/queries/webhook-deliveries.ts';
import { dnsOutboxStats } from '../db/queries/dns.ts';
import { type BuildInfo, buildInfo } from './build-info.ts';

/** How long a scrape waits for the queue figures before reporting without them. */
export const QUEUE_SCRAPE_TIMEOUT_MS = 2000;

export class Metrics {
  readonly registry = new Registry();
  private readonly r = [this.registry];

  readonly httpRequests = new Counter({
    name: 'hostcloud_http_requests_total', help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const, registers: this.r,
  });
  readonly httpDuration = new Histogram({
    name: 'hostcloud_http_request_duration_seconds', help: 'HTTP request duration by route pattern',
    labelNames: ['method', 'route'] as const, buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5], registers: this.r,
  });
  readonly httpErrors = new Counter({
    name: 'hostcloud_http_errors_total', help: '4xx and 5xx answers by error.code',
    labelNames: ['code', 'status'] as const, registers: this.r,
  });
  readonly rateLimited = new Counter({
    name: 'hostcloud_rate_limited_total', help: 'Requests refused with 429 RATE_LIMITED, by route pattern',
    labelNames: ['route'] as const, registers: this.r,
  });
  readonly idempotentReplays = new Counter({
    name: 'hostcloud_idempotent_replays_total', help: 'Responses replayed for a repeated Idempotency-Key, by route pattern',
    labelNames: ['route'] as const, registers: this.r,
  });

  readonly operations = new Counter({
    name: 'hostcloud_operations_total', help: 'Operations finished, by type and outcome (completed, failed)',
    labelNames: ['type', 'outcome'] as const, registers: this.r,
  });
  readonly operationDuration = new Histogram({
    name: 'hostcloud_operation_duration_seconds', help: 'Time from an operation being queued to its end, by type and outcome',
    labelNames: ['type', 'outcome'] as const, buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 3600], registers: this.r,
  });
  readonly operationRetries = new Counter({
    name: 'hostcloud_operation_retries_total', help: 'Operation attempts that failed and were queued for another try, by type',
    labelNames: ['type'] as const, registers: this.r,
  });
  readonly operationCompensations = new Counter({
    name: 'hostcloud_operation_compensations_total', help: 'Failed operations whose effects were undone (refund, release), by type',
    labelNames: ['type'] as const, registers: this.r,
  });

  readonly billing = new Counter({
    name: 'hostcloud_billing_transactions_total', help: 'Ledger rows written, by type (deposit, withdraw, refund)',
    labelNames: ['type'] as const, registers: this.r,
  });
  // In cents, as the ledger counts: a sum of dollar floats drifts (61.470000000000006).
  readonly billingAmount = new Counter({
    name: 'hostcloud_billing_amount_cents_total', help: 'Money moved through the ledger in US cents (a whole number), by type',
    labelNames: ['type'] as const, registers: this.r,
  });

  readonly paymentWebhooks = new Counter({
    name: 'hostcloud_payment_webhooks_total', help: 'Verified payment webhooks by provider and outcome (credited, already_paid, not_paid, mismatch, unknown, ignored)',
    labelNames: ['provider', 'outcome'] as const, registers: this.r,
  });

  readonly paymentSweeps = new Counter({
    name: 'hostcloud_payment_sweeps_total', help: 'Payment sweeps run by this worker, by outcome: ok, errors (some payment or refund could not be settled), failed (the sweep itself failed)',
    labelNames: ['outcome'] as const, registers: this.r,
  });
  readonly eventsWritten = new Counter({
    name: 'hostcloud_events_written_total', help: 'Customer-visible events committed (GET /v2/events, webhooks), by type',
    labelNames: ['type'] as const, registers: this.r,
  });

  readonly webhookDeliveries = new Counter({
    name: 'hostcloud_webhook_deliveries_total', help: 'Webhook delivery attempts by outcome: succeeded, retrying (failed, to be tried again), failed (for good)',
    labelNames: ['outcome'] as const, registers: this.r,
  });
  readonly webhookAttemptDuration = new Histogram({
    name: 'hostcloud_webhook_attempt_duration_seconds', help: 'Duration of webhook delivery attempts (connection, request, answer), by outcome',
    labelNames: ['outcome'] as const, buckets: [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30], registers: this.r,
  });
  readonly webhookLatency = new Histogram({
    name: 'hostcloud_webhook_delivery_latency_seconds', help: 'From an event\'s commit to its delivery\'s 2xx answer (retries\' waits included)',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 60, 300, 3600, 86_400], registers: this.r,
  });

  readonly dnsPushes = new Counter({
    name: 'hostcloud_dns_pushes_total', help: 'Pushes of one zone\'s queued DNS changes to the DNS provider, by result (pushed, failed: retried later)',
    labelNames: ['result'] as const, registers: this.r,
  });
  readonly dnsPushLatency = new Histogram({
    name: 'hostcloud_dns_push_latency_seconds', help: 'From a DNS change\'s commit to the provider\'s acceptance of it (retries\' waits included)',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300], registers: this.r,
  });

  readonly providerCalls = new Counter({
    name: 'hostcloud_provider_calls_total', help: 'Calls to an upstream provider, by provider and method',
    labelNames: ['provider', 'method'] as const, registers: this.r,
  });
  readonly providerFailures = new Counter({
    name: 'hostcloud_provider_failures_total', help: 'Failed calls to an upstream provider, by provider, method and error code',
    labelNames: ['provider', 'method', 'code'] as const, registers: this.r,
  });
  readonly providerDuration = new Histogram({
    name: 'hostcloud_provider_call_duration_seconds', help: 'Duration of upstream provider calls, by provider and method',
    labelNames: ['provider', 'method'] as const, buckets: [0.005, 0.025, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60], registers: this.r,
  });

  readonly collectFailures = new Counter({
    name: 'hostcloud_metrics_collect_failures_total', help: 'Scrape-time readings that failed or timed out (their gauges are left out)',
    labelNames: ['source'] as const, registers: this.r,
  });

  /** `build`: what hostcloud_build_info reports; default this installation's (buildInfo()). */
  constructor(build: BuildInfo = buildInfo()) {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'hostcloud_build_info', help: 'Always 1; the labels say what this process runs: version, Node.js version, commit (unknown when not known)',
      labelNames: ['version', 'node_version', 'commit'] as const, registers: this.r,
    }).set({ ...build }, 1);
  }

  /** Pool usage (summed over the process's pools: `serve`'s requests and embedded worker) and queue depth, read at each scrape. */
  watchDatabase(db: Db, pools: pg.Pool[]): void {
    const sum = (of: (p: pg.Pool) => number) => pools.reduce((n, p) => n + of(p), 0);
    new Gauge({
      name: 'hostcloud_db_pool_connections', help: 'Database pool connections: total open, idle, and requests waiting for one',
      labelNames: ['state'] as const, registers: this.r,
      collect() {
        this.set({ state: 'total' }, sum((p) => p.totalCount));
        this.set({ state: 'idle' }, sum((p) => p.idleCount));
        this.set({ state: 'waiting' }, sum((p) => p.waitingCount));
      },
    });
    const failures = this.collectFailures;
    // One reading serves both gauges of a scrape.
    let reading: { at: number; stats: Promise<Awaited<ReturnType<typeof queueStats>> | null> } | undefined;
    const read = () => {
      if (!reading || Date.now() - reading.at > 1000) {
        const stats = Promise.race([
          queueStats(db, QUEUE_SCRAPE_TIMEOUT_MS),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), QUEUE_SCRAPE_TIMEOUT_MS).unref()),
        ]).catch(() => {
          failures.inc({ source: 'queue' });
          return null;
        });
        reading = { at: Date.now(), stats };
      }
      return reading.stats;
    };
    new Gauge({
      name: 'hostcloud_queue_jobs', help: 'Unstarted jobs by queue: queued (due now) and scheduled (a later start: retry backoff, safety nets)',
      labelNames: ['queue', 'state'] as const, registers: this.r,
      async collect() {
        this.reset();
        const stats = await read();
        for (const s of stats ?? []) {
          this.set({ queue: s.queue, state: 'queued' }, s.queued);
          this.set({ queue: s.queue, state: 'scheduled' }, s.scheduled);
        }
      },
    });
    // The webhook outbox: deliveries due now (waiting for a sender) and the oldest one's wait.
    let deliveries: { at: number; stats: Promise<{ due: number; oldestS: number } | null> } | undefined;
    const readDeliveries = () => {
      if (!deliveries || Date.now() - deliveries.at > 1000) {
        const stats = Promise.race([
          deliveryQueueStats(db),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), QUEUE_SCRAPE_TIMEOUT_MS).unref()),
        ]).catch(() => {
          failures.inc({ source: 'webhook_queue' });
          return null;
        });
        deliveries = { at: Date.now(), stats };
      }
      return deliveries.stats;
    };
    // Labelled (one series), so that a failed reading leaves them out rather than showing 0.
    new Gauge({
      name: 'hostcloud_webhook_deliveries_due', help: 'Webhook deliveries due now and not yet taken by a sender (first attempts and retries)',
      labelNames: ['outbox'] as const, registers: this.r,
      async collect() {
        this.reset();
        const stats = await readDeliveries();
        if (stats) this.set({ outbox: 'webhooks' }, stats.due);
      },
    });
    new Gauge({
      name: 'hostcloud_webhook_oldest_due_age_seconds', help: 'How long the oldest due webhook delivery has waited for a sender (0 when none waits)',
      labelNames: ['outbox'] as const, registers: this.r,
      async collect() {
        this.reset();
        const stats = await readDeliveries();
        if (stats) this.set({ outbox: 'webhooks' }, stats.oldestS);
      },
    });
    // The DNS outbox, read as the webhook one is.
    let dnsReading: { at: number; stats: Promise<{ due: number; oldestS: number } | null> } | undefined;
    const readDns = () => {
      if (!dnsReading || Date.now() - dnsReading.at > 1000) {
        const stats = Promise.race([
          dnsOutboxStats(db),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), QUEUE_SCRAPE_TIMEOUT_MS).unref()),
        ]).catch(() => {
          failures.inc({ source: 'dns_outbox' });
          return null;
        });
        dnsReading = { at: Date.now(), stats };
      }
      return dnsReading.stats;
    };
    new Gauge({
      name: 'hostcloud_dns_outbox_due', help: 'DNS changes due now and not yet pushed to the DNS provider (first attempts and retries)',
      labelNames: ['outbox'] as const, registers: this.r,
      async collect() {
        this.reset();
        const stats = await readDns();
        if (stats) this.set({ outbox: 'dns' }, stats.due);
      },
    });
    new Gauge({
      name: 'hostcloud_dns_outbox_oldest_age_seconds', help: 'How long the oldest due DNS change has waited since its commit (0 when none waits)',
      labelNames: ['outbox'] as const, registers: this.r,
      async collect() {
        this.reset();
        const stats = await readDns();
        if (stats) this.set({ outbox: 'dns' }, stats.oldestS);
      },
    });
    new Gauge({
      name: 'hostcloud_queue_oldest_job_age_seconds', help: 'How long the oldest due job of each queue has waited for a worker (0 when none waits)',
      labelNames: ['queue'] as const, registers: this.r,
      async collect() {
        this.reset();
        const stats = await read();
        for (const s of stats ?? []) this.set({ queue: s.queue }, s.oldestS ?? 0);
      },
    });
  }
}
