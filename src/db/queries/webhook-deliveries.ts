// The sender's statements over the deliveries outbox (migrations 0042, 0043): claiming due deliveries
// with what sending them needs, recording outcomes in batches, the endpoints' health, the queue's
// figures for the metrics.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { EventRow, WebhookDelivery, WebhookEndpoint } from '../schema.ts';

/** A claimed delivery with its endpoint and its event. */
export interface ClaimedDelivery {
  delivery: WebhookDelivery;
  endpoint: Pick<WebhookEndpoint, 'id' | 'account_id' | 'url' | 'enabled' | 'secret' | 'previous_secret' | 'previous_secret_expires_at' | 'failing_since'>;
  event: EventRow;
}

interface ClaimedJson {
  delivery: Omit<WebhookDelivery, DeliveryDate> & Record<DeliveryDate, string | null>;
  endpoint: Omit<ClaimedDelivery['endpoint'], 'previous_secret_expires_at' | 'failing_since'> & { previous_secret_expires_at: string | null; failing_since: string | null };
  event: Omit<EventRow, 'created_at'> & { created_at: string };
}

type DeliveryDate = 'created_at' | 'next_attempt_at' | 'last_attempt_at' | 'finished_at' | 'leased_until';

const date = (s: string | null) => (s === null ? null : new Date(s));

export interface Claim {
  claimed: ClaimedDelivery[];
  /** Seconds until the next pending delivery comes due (a retry, a lapsing lease); null when none is pending. */
  nextDueS: number | null;
  /**
   * Due deliveries were left because their endpoints had no free slot (held by any sender) or
   * another sender's claim had them at that moment: a slot frees when some sender records.
   */
  waiting: boolean;
}

/**
 * Claims up to `limit` due deliveries for one sender, oldest due first, with at most
 * `perEndpoint` of one endpoint in flight across every sender of every worker process. A claim
 * counts the attempt and leases the delivery `leaseS` ahead (next_attempt_at and leased_until): no
 * other sender takes it meanwhile, it counts as in flight until its attempt is recorded, and a
 * sender that dies gives it back as the lease lapses. Also says when the next one not due yet
 * comes due, so an idle sender sleeps until then (new deliveries wake it by NOTIFY).
 *
 * Two statements in one transaction, because one statement cannot count what another sender
 * claims at the same moment (its snapshot is taken as it starts): the first locks the endpoints
 * this claim will serve — those with due deliveries and a free slot, skipping any another claim
 * holds — and the second, whose snapshot is taken once it holds them, sees every claim committed
 * for them before and claims what their free slots allow. The endpoints' full lists are never
 * looked at: a slow endpoint's backlog does not fill the claim.
 */
export async function claimDueDeliveries(db: Db, limit: number, perEndpoint: number, leaseS: number): Promise<Claim> {
  return db.transaction().execute(async (trx) => {
    const locked = await sql<{ candidates: number; ids: string[] }>`
      WITH busy AS (
        SELECT webhook_id FROM webhook_deliveries
         WHERE status = 'pending' AND leased_until > now()
         GROUP BY webhook_id HAVING count(*) >= ${perEndpoint}::int
      ), due AS (
        SELECT DISTINCT webhook_id FROM (
          SELECT d.webhook_id FROM webhook_deliveries d
           WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND d.webhook_id NOT IN (SELECT webhook_id FROM busy)
           ORDER BY d.next_attempt_at, d.id
           LIMIT ${limit * 4}::int) oldest
      ), mine AS (
        -- NO KEY: a new delivery's foreign key check (KEY SHARE) on the endpoint never waits for a claim.
        SELECT w.id FROM webhook_endpoints w WHERE w.id IN (SELECT webhook_id FROM due)
           FOR NO KEY UPDATE SKIP LOCKED
      )
      SELECT (SELECT count(*) FROM due)::int AS candidates, coalesce((SELECT array_agg(id) FROM mine), '{}') AS ids`.execute(trx);
    const { candidates, ids } = locked.rows[0]!;
    const r = await sql<{ claimed: ClaimedJson[]; next_due_s: number | null; due_left: boolean }>`
      WITH inflight AS (
        SELECT webhook_id, count(*)::int AS n FROM webhook_deliveries
         WHERE webhook_id = ANY (${ids}::text[]) AND status = 'pending' AND leased_until > now()
         GROUP BY webhook_id
      ), due AS (
        SELECT d.id, d.webhook_id, d.next_attempt_at FROM webhook_deliveries d
         WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND d.webhook_id = ANY (${ids}::text[])
         ORDER BY d.next_attempt_at, d.id
         LIMIT ${limit * 4}::int
         FOR UPDATE SKIP LOCKED
      ), ranked AS (
        SELECT id, webhook_id, next_attempt_at, row_number() OVER (PARTITION BY webhook_id ORDER BY next_attempt_at, id) AS rn FROM due
      ), picked AS (
        SELECT r.id FROM ranked r LEFT JOIN inflight i ON i.webhook_id = r.webhook_id
         WHERE r.rn <= ${perEndpoint}::int - coalesce(i.n, 0)
         ORDER BY r.next_attempt_at, r.id LIMIT ${limit}::int
      ), claimed AS (
        UPDATE webhook_deliveries d
           SET attempt = d.attempt + 1, last_attempt_at = now(),
               next_attempt_at = now() + make_interval(secs => ${leaseS}::int), leased_until = now() + make_interval(secs => ${leaseS}::int)
          FROM picked WHERE d.id = picked.id
        RETURNING d.*
      )
      SELECT coalesce((
               SELECT jsonb_agg(jsonb_build_object(
                        'delivery', to_jsonb(c),
                        'endpoint', jsonb_build_object('id', w.id, 'account_id', w.account_id, 'url', w.url, 'enabled', w.enabled, 'secret', w.secret,
                          'previous_secret', w.previous_secret, 'previous_secret_expires_at', w.previous_secret_expires_at, 'failing_since', w.failing_since),
                        'event', to_jsonb(e)))
                 FROM claimed c JOIN webhook_endpoints w ON w.id = c.webhook_id JOIN events e ON e.id = c.event_id), '[]'::jsonb) AS claimed,
             (SELECT extract(epoch FROM min(next_attempt_at) - now())::float8 FROM webhook_deliveries
               WHERE status = 'pending' AND next_attempt_at > now()) AS next_due_s,
             -- This statement's snapshot still shows what it claims as due: more than that is left.
             (SELECT count(*) FROM (SELECT 1 FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now() LIMIT ${limit + 1}::int) x)
               > (SELECT count(*) FROM picked) AS due_left`.execute(trx);
    const row = r.rows[0]!;
    const claimed = row.claimed.map(revive);
    return { claimed, nextDueS: row.next_due_s, waiting: candidates > ids.length || (claimed.length < limit && row.due_left) };
  });
}

function revive(row: ClaimedJson): ClaimedDelivery {
  return {
    delivery: {
      ...row.delivery, created_at: new Date(row.delivery.created_at!), next_attempt_at: new Date(row.delivery.next_attempt_at!),
      last_attempt_at: date(row.delivery.last_attempt_at), finished_at: date(row.delivery.finished_at), leased_until: date(row.delivery.leased_until),
    },
    endpoint: { ...row.endpoint, previous_secret_expires_at: date(row.endpoint.previous_secret_expires_at), failing_since: date(row.endpoint.failing_since) },
    event: { ...row.event, created_at: new Date(row.event.created_at) },
  };
}

/** What became of one attempt. `retryAfterS`: when it is tried again; null when it is not (succeeded, or failed for good). */
export interface AttemptOutcome {
  deliveryId: number;
  webhookId: string;
  /** The attempt this was (the claim's). */
  attempt: number;
  succeeded: boolean;
  responseStatus: number | null;
  error: string | null;
  retryAfterS: number | null;
}

/**
 * Records attempts in one statement — each only if its claim is still this sender's (same
 * attempt, still pending), its lease given back (the endpoint's slot is free for any sender) — and
 * the endpoints' health: an endpoint with a success in the batch is failing no more; one with
 * only failures is failing since its first. Returns the endpoints that failed in this batch with
 * the time they have been failing since.
 */
export async function recordAttempts(db: Db, outcomes: readonly AttemptOutcome[]): Promise<{ webhookId: string; failingSince: Date }[]> {
  if (outcomes.length === 0) return [];
  const col = <T>(f: (o: AttemptOutcome) => T) => outcomes.map(f);
  const r = await sql<{ id: string; failing_since: Date }>`
    WITH v AS (
      SELECT * FROM unnest(${col((o) => o.deliveryId)}::bigint[], ${col((o) => o.webhookId)}::text[], ${col((o) => o.attempt)}::int[],
                           ${col((o) => o.succeeded)}::boolean[], ${col((o) => o.responseStatus)}::int[], ${col((o) => o.error)}::text[],
                           ${col((o) => o.retryAfterS)}::float8[])
        AS v(id, webhook_id, attempt, succeeded, response_status, error, retry_after_s)
    ), recorded AS (
      UPDATE webhook_deliveries d
         SET status = CASE WHEN v.succeeded THEN 'succeeded' WHEN v.retry_after_s IS NULL THEN 'failed' ELSE 'pending' END,
             response_status = v.response_status, error = left(v.error, 1000),
             next_attempt_at = CASE WHEN v.retry_after_s IS NULL THEN d.next_attempt_at ELSE now() + make_interval(secs => v.retry_after_s) END,
             leased_until = NULL,
             finished_at = CASE WHEN v.succeeded OR v.retry_after_s IS NULL THEN now() END
        FROM v WHERE d.id = v.id AND d.status = 'pending' AND d.attempt = v.attempt
      RETURNING d.id
    ), healthy AS (
      UPDATE webhook_endpoints w SET failing_since = NULL
       WHERE w.id IN (SELECT webhook_id FROM v WHERE succeeded) AND w.failing_since IS NOT NULL
      RETURNING w.id
    ), failing AS (
      UPDATE webhook_endpoints w SET failing_since = coalesce(w.failing_since, now())
       WHERE w.id IN (SELECT webhook_id FROM v GROUP BY webhook_id HAVING NOT bool_or(succeeded))
      RETURNING w.id, w.failing_since
    )
    SELECT id, failing_since FROM failing`.execute(db);
  return r.rows.map((row) => ({ webhookId: row.id, failingSince: new Date(row.failing_since) }));
}

/**
 * Disables an endpoint, saying why, and fails its pending deliveries; false when it was disabled
 * already (another sender got there first). Call inside the transaction that queues its notice.
 */
export async function disableEndpoint(trx: Db, webhookId: string, reason: string): Promise<WebhookEndpoint | undefined> {
  const w = await trx.updateTable('webhook_endpoints').set({ enabled: false, disabled_reason: reason, updated_at: sql<Date>`now()` })
    .where('id', '=', webhookId).where('enabled', '=', true).returningAll().executeTakeFirst();
  if (!w) return undefined;
  await trx.updateTable('webhook_deliveries').set({ status: 'failed', error: `The endpoint was disabled: ${reason}`, finished_at: sql<Date>`now()` })
    .where('webhook_id', '=', webhookId).where('status', '=', 'pending').execute();
  return w;
}

/** Deliveries due now, and how long the oldest has waited (0 when none). */
export async function deliveryQueueStats(db: Db): Promise<{ due: number; oldestS: number }> {
  const r = await sql<{ due: number; oldest_s: number | null }>`
    SELECT count(*)::int AS due, extract(epoch FROM now() - min(next_attempt_at))::float8 AS oldest_s
      FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now()`.execute(db);
  return { due: r.rows[0]?.due ?? 0, oldestS: Math.max(0, r.rows[0]?.oldest_s ?? 0) };
}
