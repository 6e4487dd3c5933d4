// One delivery attempt and what follows from it. A delivery is the event as the API shows it,
// POSTed with the Standard Webhooks headers: `webhook-id` (the event's id, the same at every
// attempt: receivers dedupe by it), `webhook-timestamp` (Unix seconds) and `webhook-signature` (one
// signature per secret in force). A 2xx answer within the timeout delivers it; 410 Gone fails it
// and disables the endpoint at once; anything else (another status, a redirect, a timeout, no
// connection, a target refused as not public) is tried again on the schedule, then fails for good.
// An endpoint whose every attempt has failed for WEBHOOK_DISABLE_AFTER_DAYS is disabled too; each
// disabling queues a notice to the account.
import { disableEndpoint } from '../../db/queries/webhook-deliveries.ts';
import type { AttemptOutcome, ClaimedDelivery } from '../../db/queries/webhook-deliveries.ts';
import type { EventRow } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { WebhookSendError, type WebhookTransport } from '../../providers/webhooks/types.ts';
import { queueNotification } from '../notifications/queue.ts';
import type { Db } from '../types.ts';
import { retryDelayS } from './schedule.ts';
import { signatureHeader } from './signing.ts';

export const DEFAULT_DISABLE_AFTER_DAYS = 5;
const DAY_MS = 86_400_000;

export interface AttemptDeps {
  transport: WebhookTransport;
  /** The event's body as the receiver gets it (its API version's JSON). */
  render(event: EventRow): string;
  /** WEBHOOK_RETRY_SCHEDULE_S */
  schedule: readonly number[];
  now?: () => Date;
}

export interface AttemptResult extends AttemptOutcome {
  /** The endpoint answered 410 Gone: it is to be disabled. */
  gone: boolean;
  /** Time spent on the request, in seconds (0 when none was made). */
  durationS: number;
  /** The event's age when it was delivered (succeeded only), in seconds. */
  latencyS: number | null;
}

const describe = (e: unknown) => (e instanceof WebhookSendError ? e.message : e instanceof Error ? e.message : String(e)).slice(0, 1000);

/** Signs, sends and judges one claimed attempt. Never rejects: every failure is an outcome. */
export async function attemptDelivery(deps: AttemptDeps, c: ClaimedDelivery): Promise<AttemptResult> {
  const now = deps.now ?? (() => new Date());
  const base = { deliveryId: c.delivery.id, webhookId: c.endpoint.id, attempt: c.delivery.attempt };
  const failed = (responseStatus: number | null, error: string, durationS: number, gone = false): AttemptResult => ({
    ...base, succeeded: false, responseStatus, error, gone, durationS, latencyS: null,
    retryAfterS: gone ? null : retryDelayS(c.delivery.attempt, deps.schedule),
  });
  // Disabled after the event was fanned out to it: nothing is sent.
  if (!c.endpoint.enabled) return { ...failed(null, 'The endpoint was disabled', 0), retryAfterS: null };
  const started = now();
  let body: string;
  try {
    body = deps.render(c.event);
  } catch (e) {
    return failed(null, `The event could not be rendered: ${describe(e)}`, 0);
  }
  const timestamp = Math.floor(started.getTime() / 1000);
  const secrets = [c.endpoint.secret];
  if (c.endpoint.previous_secret && c.endpoint.previous_secret_expires_at && c.endpoint.previous_secret_expires_at.getTime() > started.getTime()) {
    secrets.push(c.endpoint.previous_secret);
  }
  const headers = { 'webhook-id': c.event.id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatureHeader(secrets, c.event.id, timestamp, body) };
  try {
    const answer = await deps.transport.post({ url: c.endpoint.url, headers, body });
    const durationS = (now().getTime() - started.getTime()) / 1000;
    if (answer.status >= 200 && answer.status < 300) {
      return { ...base, succeeded: true, responseStatus: answer.status, error: null, retryAfterS: null, gone: false, durationS, latencyS: Math.max(0, (now().getTime() - c.event.created_at.getTime()) / 1000) };
    }
    const excerpt = answer.excerpt.replace(/\s+/g, ' ').trim().slice(0, 200);
    const what = answer.status >= 300 && answer.status < 400 ? ' (redirects are not followed)' : '';
    return failed(answer.status, `HTTP ${answer.status}${what}${excerpt ? `: ${excerpt}` : ''}`, durationS, answer.status === 410);
  } catch (e) {
    return failed(null, describe(e), (now().getTime() - started.getTime()) / 1000);
  }
}

/** Whether an endpoint failing since `failingSince` has failed long enough to be disabled. */
export function failedTooLong(failingSince: Date, now: Date, disableAfterDays: number = DEFAULT_DISABLE_AFTER_DAYS): boolean {
  return now.getTime() - failingSince.getTime() >= disableAfterDays * DAY_MS;
}

/**
 * Disables an endpoint for `reason`, fails its pending deliveries and queues a notice to the
 * account, in one transaction; false when it was disabled already.
 */
export async function disableWebhook(db: Db, webhookId: string, reason: string): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const w = await disableEndpoint(trx, webhookId, reason);
    if (!w) return false;
    await queueNotification(trx, {
      accountId: w.account_id,
      kind: 'webhook.disabled',
      subject: `Webhook endpoint ${w.url.slice(0, 120)} was disabled`,
      body: [
        `Your webhook endpoint ${w.url} (${w.id}) was disabled: ${reason}.`,
        'Nothing is sent to it any more, and the deliveries still pending for it have failed.',
        `Once it answers again, enable it with PATCH /v2/webhooks/${w.id} {"enabled": true}; its delivery log (GET /v2/webhooks/${w.id}/deliveries) shows what failed.`,
      ].join('\n'),
    });
    return true;
  });
}
