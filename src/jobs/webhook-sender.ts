// The worker's webhook sender: claims due deliveries from the outbox (a lease each, so a sender
// that dies — SIGKILL included — gives them back and another sends them: at least once), sends
// them with at most WEBHOOK_CONCURRENCY requests in flight, and records outcomes in batches. One
// endpoint has at most WEBHOOK_ENDPOINT_CONCURRENCY deliveries in flight across every worker
// process (the claim counts the leased deliveries of all senders; one slow receiver holds its own
// slots only, and the claim does not even look at an endpoint whose slots are full). It is woken by
// the NOTIFY at the commit of a new delivery and looks at least every POLL_MS for retries come due,
// and while due deliveries wait for a slot another process holds. Any number of workers may run
// one; SKIP LOCKED keeps their claims apart.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { type AttemptResult, attemptDelivery, disableWebhook, failedTooLong } from '../core/webhooks/deliver.ts';
import type { Db } from '../core/types.ts';
import { poolOf } from '../db/connection.ts';
import { isDatabaseUnavailable } from '../db/failures.ts';
import { WEBHOOK_DUE_CHANNEL } from '../db/names.ts';
import { listenOn } from '../db/notify-listener.ts';
import { type Claim, type ClaimedDelivery, claimDueDeliveries, recordAttempts } from '../db/queries/webhook-deliveries.ts';
import type { EventRow } from '../db/schema.ts';
import { forbiddenAddress } from '../core/webhooks/addresses.ts';
import { type LookupFunction, createHttpTransport } from '../providers/webhooks/http.ts';
import type { WebhookTransport } from '../providers/webhooks/types.ts';
import type { Metrics } from '../telemetry/metrics.ts';

/** How often an idle sender looks while it cannot hear NOTIFYs (its listen connection is down). */
const POLL_MS = 1_000;
/** The longest an idle sender sleeps while it hears them: new deliveries wake it, and it knows when the next retry is due. */
const IDLE_MAX_MS = 30_000;
/** The longest wait after database errors (doubling from POLL_MS while they last). */
const MAX_ERROR_WAIT_MS = 30_000;

export type WebhookSenderConfig = Pick<Config, 'webhookAllowHttp' | 'webhookAllowPrivate' | 'webhookTimeoutS' | 'webhookConnectTimeoutS'
  | 'webhookConcurrency' | 'webhookEndpointConcurrency' | 'webhookRetryScheduleS' | 'webhookDisableAfterDays'>;

export interface WebhookSenderDeps {
  db: Db;
  logger: Logger;
  metrics?: Metrics;
  config: WebhookSenderConfig;
  /** Default: HTTP(S) per the config (providers/webhooks/http.ts). */
  transport?: WebhookTransport;
  /** The HTTP transport's resolver (tests: a name that resolves elsewhere at delivery). */
  lookup?: LookupFunction;
  /** The body a receiver gets for an event: GET /v2/events/{id}'s answer, passed in by whoever starts the worker so the worker need not know the HTTP layer's presenters. */
  render: (event: EventRow) => string;
}

export interface WebhookSender {
  /** Deliveries in flight now. */
  readonly inFlight: number;
  stop(): Promise<void>;
}

/** A claim lasts twice the whole exchange's timeout: a send is cut at that timeout, so a live sender always records before it lapses. */
export const leaseOf = (config: Pick<Config, 'webhookTimeoutS'>) => Math.max(5, Math.ceil(config.webhookTimeoutS * 2));

export function startWebhookSender(deps: WebhookSenderDeps): WebhookSender {
  const { db, logger, metrics, config } = deps;
  const transport = deps.transport ?? createHttpTransport({
    allowHttp: config.webhookAllowHttp, allowPrivate: config.webhookAllowPrivate, forbiddenAddress, connectTimeoutMs: config.webhookConnectTimeoutS * 1000,
    // Several endpoints may share an origin (paths of one host): the agent must never queue what the sender let through.
    timeoutMs: config.webhookTimeoutS * 1000, maxSocketsPerOrigin: config.webhookConcurrency, lookup: deps.lookup,
  });
  const leaseS = leaseOf(config);
  // While busy, claim in batches of at least this many free slots (one statement for many deliveries,
  // not one per delivery that finishes).
  const minBatch = Math.max(1, Math.floor(config.webhookConcurrency / 4));
  const attemptDeps = { transport, render: deps.render, schedule: config.webhookRetryScheduleS };
  const sends = new Set<Promise<void>>();
  let stopping = false;

  // One wake-up for the loop: a NOTIFY, a freed slot, the poll timer or stop().
  let wake: (() => void) | null = null;
  let woken = false;
  const poke = () => {
    woken = true;
    const w = wake;
    wake = null;
    w?.();
  };
  const sleep = (ms: number) => new Promise<void>((resolve) => {
    if (woken || stopping) {
      woken = false;
      return resolve();
    }
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      woken = false;
      wake = null;
      resolve();
    }
    wake = done;
  });
  const pool = poolOf(db);
  const listener = pool && listenOn(pool, WEBHOOK_DUE_CHANNEL, { notify: poke, up: poke, down: () => {} }, 'hostcloud webhook sender');

  // Outcomes recorded together: all that arrive while one statement is on its way go in the next.
  let pending: AttemptResult[] = [];
  let recording: Promise<void> | null = null;
  const record = async () => {
    while (pending.length > 0) {
      const batch = pending;
      pending = [];
      try {
        const failing = await recordAttempts(db, batch);
        const now = new Date();
        for (const r of batch.filter((x) => x.gone)) await disable(r.webhookId, 'it answered 410 Gone');
        for (const f of failing) {
          if (failedTooLong(f.failingSince, now, config.webhookDisableAfterDays)) await disable(f.webhookId, `every delivery attempt failed for ${config.webhookDisableAfterDays} days`);
        }
      } catch (err) {
        // Unrecorded attempts keep their claim until its lease lapses, and are sent again then (at least once).
        logger.error({ err, component: 'webhooks', attempts: batch.length }, 'recording webhook delivery attempts failed; they will be sent again');
      }
      // A retry's time is known now: the loop, asleep until a lease's end, looks again.
      poke();
    }
    recording = null;
  };
  const disable = async (webhookId: string, reason: string) => {
    if (await disableWebhook(db, webhookId, reason)) logger.warn({ component: 'webhooks', webhook_id: webhookId, reason }, 'webhook endpoint disabled');
  };

  const report = (c: ClaimedDelivery, r: AttemptResult) => {
    const outcome = r.succeeded ? 'succeeded' : r.retryAfterS === null ? 'failed' : 'retrying';
    metrics?.webhookDeliveries.inc({ outcome });
    if (r.durationS > 0) metrics?.webhookAttemptDuration.observe({ outcome }, r.durationS);
    if (r.latencyS !== null) metrics?.webhookLatency.observe(r.latencyS);
    if (!r.succeeded) {
      logger.warn({
        component: 'webhooks', webhook_id: c.endpoint.id, delivery_id: c.delivery.id, event_id: c.event.id, event_type: c.event.type,
        attempt: r.attempt, response_status: r.responseStatus, error: r.error, retry_in_s: r.retryAfterS,
      }, outcome === 'failed' ? 'webhook delivery failed for good' : 'webhook delivery failed; will retry');
    }
  };

  const send = (c: ClaimedDelivery) => {
    const p: Promise<void> = attemptDelivery(attemptDeps, c).then((r) => {
      report(c, r);
      pending.push(r);
      recording ??= record();
    }).finally(() => {
      sends.delete(p);
      poke();
    });
    sends.add(p);
  };

  const loop = (async () => {
    let errors = 0;
    while (!stopping) {
      const free = config.webhookConcurrency - sends.size;
      if (free <= 0 || (free < minBatch && sends.size > 0)) {
        await sleep(POLL_MS);
        continue;
      }
      let claim: Claim;
      try {
        claim = await claimDueDeliveries(db, free, config.webhookEndpointConcurrency, leaseS);
        errors = 0;
      } catch (err) {
        errors += 1;
        const wait = Math.min(POLL_MS * 2 ** errors, MAX_ERROR_WAIT_MS);
        // An outage (failover, restart) is expected and retried: a warning; anything else is a bug.
        const level = isDatabaseUnavailable(err) ? 'warn' : 'error';
        logger[level]({ err, component: 'webhooks', retry_in_ms: wait }, 'claiming webhook deliveries failed; trying again');
        await sleep(wait);
        continue;
      }
      for (const c of claim.claimed) send(c);
      if (claim.claimed.length > 0) continue;
      // Nothing due: wait for a NOTIFY, a freed slot of ours, or the next delivery's due time —
      // polling every second while NOTIFYs cannot be heard, or while due deliveries wait for slots
      // another process holds (its recording frees them without a NOTIFY).
      const untilDue = claim.nextDueS === null ? IDLE_MAX_MS : Math.ceil(claim.nextDueS * 1000) + 5;
      await sleep(Math.min(untilDue, listener?.listening && !claim.waiting ? IDLE_MAX_MS : POLL_MS));
    }
  })();

  logger.info({ component: 'webhooks', concurrency: config.webhookConcurrency, per_endpoint: config.webhookEndpointConcurrency }, 'webhook sender started');
  return {
    get inFlight() { return sends.size; },
    async stop() {
      stopping = true;
      poke();
      await loop;
      // In-flight sends end within their timeout; what they answered is recorded.
      await Promise.all(sends);
      while (recording) await recording;
      await listener?.close();
      if (!deps.transport) transport.close();
    },
  };
}
