// Webhook delivery by the worker, against receivers on 127.0.0.1 (WEBHOOK_ALLOW_HTTP and
// WEBHOOK_ALLOW_PRIVATE set, as for development) that verify every delivery with the
// `standardwebhooks` package: signatures and headers, at least once with the same webhook-id,
// the retry schedule (shortened here), 410 disabling, a receiver that never answers cut off at the
// timeout, days of failures disabling, rotation's two signatures, one slow endpoint not starving
// another.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { activeServer, type Json } from '../helpers/servers.ts';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.ts';
import { until } from '../helpers/worker-process.ts';

let t: TestApp;

// A receiver here answers at once, but it shares this process (and two cores) with the app, its
// worker and other test files: at a 1 s timeout a busy machine cut off healthy deliveries, and a test
// that counts attempts then saw 2 where it meant 1. A cut is asserted by a receiver that never answers.
const TIMEOUT_S = 5;

before(async () => {
  t = await startApp({
    worker: 'embedded', simDelayMs: 20, webhookAllowHttp: true, webhookAllowPrivate: true,
    webhookTimeoutS: TIMEOUT_S, webhookConnectTimeoutS: TIMEOUT_S, webhookRetryScheduleS: [0.2, 0.2, 0.2], webhookEndpointConcurrency: 2,
  });
});

/** An endpoint of `c` at `path` of `r` (its secret given to the receiver to verify with). */
async function endpoint(c: Customer, r: Receiver, path = '/hook', events?: string[]): Promise<Json> {
  const res = await call(t.app, 'POST', '/v2/webhooks', { key: c.key, body: { url: `${r.url}${path}`, ...(events ? { events } : {}) } });
  assert.equal(res.statusCode, 201, res.body);
  const w = json(res).data;
  r.secrets.push(w.secret);
  return w;
}

const ping = async (c: Customer, id: string) => {
  const res = await call(t.app, 'POST', `/v2/webhooks/${id}/ping`, { key: c.key });
  assert.equal(res.statusCode, 202, res.body);
  return json(res).data;
};

async function deliveries(c: Customer, id: string): Promise<Json[]> {
  return json(await call(t.app, 'GET', `/v2/webhooks/${id}/deliveries`, { key: c.key, query: { per_page: '100' } })).data;
}

/** The delivery of `deliveryId` once it is no longer pending. */
function settledDelivery(c: Customer, webhookId: string, deliveryId: number): Promise<Json> {
  return until(`delivery ${deliveryId} to settle`, 60_000, async () => (await deliveries(c, webhookId)).find((d) => d.id === deliveryId && d.status !== 'pending'));
}

describe('what is delivered', () => {
  test('a server create: server.created and operation.completed with the server\'s id, each verified by standardwebhooks', async () => {
    const r = await startReceiver();
    const c = await createCustomer(t, { deposit: '50.00' });
    const w = await endpoint(c, r, '/hook', ['server.*', 'operation.*']);
    const s = await activeServer(t, c);
    const got = await until('server.created and operation.completed', 60_000, async () => {
      const types = r.received.map((x) => x.json.type);
      return types.includes('server.created') && types.includes('operation.completed') ? r.received : undefined;
    });
    for (const d of got) {
      assert.deepEqual(d.verifiedWith, [w.secret], 'standardwebhooks verifies it with the endpoint\'s secret');
      assert.equal(d.id, d.json.id, 'webhook-id is the event id');
      assert.ok(Math.abs(Number(d.timestamp) - Date.now() / 1000) < 30);
      assert.match(d.signature, /^v1,[A-Za-z0-9+/]+=*$/);
    }
    const created = got.find((d) => d.json.type === 'server.created')!.json;
    assert.deepEqual(created.resource, { type: 'server', id: s.id });
    assert.equal(created.data.id, s.id);
    assert.equal(created.data.status, 'active');
    const completed = got.find((d) => d.json.type === 'operation.completed')!.json;
    assert.deepEqual(completed.data.resource, { type: 'server', id: s.id });
    // The body is the event as the API shows it.
    assert.deepEqual(created, json(await call(t.app, 'GET', `/v2/events/${created.id}`, { key: c.key })).data);
    // Only what it subscribed to: no billing event.
    assert.ok(got.every((d) => !d.json.type.startsWith('billing.')));
    const log = await until('the log to show both delivered', 60_000, async () => {
      const l = await deliveries(c, w.id);
      return l.length >= 2 && l.every((d) => d.status === 'succeeded') ? l : undefined;
    });
    assert.ok(log.every((d) => d.attempt === 1 && d.response_status === 200 && d.error === null && d.next_attempt_at === null));
  });

  test('500, 500, then 200: three deliveries with the same webhook-id, the log says attempt 3 succeeded', async () => {
    const r = await startReceiver();
    r.answer = (n) => (n < 2 ? 500 : 200);
    const c = await createCustomer(t);
    const w = await endpoint(c, r);
    const d = await ping(c, w.id);
    const got = await r.until(3);
    assert.equal(new Set(got.map((x) => x.id)).size, 1);
    assert.equal(got[0]!.id, d.event_id);
    assert.ok(got.every((x) => x.verifiedWith.length === 1));
    assert.ok(got[1]!.at - got[0]!.at >= 150, 'retried after the schedule\'s wait');
    const done = await settledDelivery(c, w.id, d.id);
    assert.equal(done.status, 'succeeded');
    assert.equal(done.attempt, 3);
    assert.equal(done.response_status, 200);
    assert.ok(t.logs.some((l) => l.includes('webhook delivery failed; will retry') && l.includes(String(d.id)) && l.includes('HTTP 500')), 'a log line per failed attempt');
    // Counted: attempts by outcome, latency from commit to the 2xx, events written.
    const text = await t.telemetry.metrics.registry.metrics();
    const value = (re: RegExp) => Number(re.exec(text)?.[1] ?? 0);
    assert.ok(value(/^hostcloud_webhook_deliveries_total\{outcome="retrying"\} (\d+)$/m) >= 2);
    assert.ok(value(/^hostcloud_webhook_deliveries_total\{outcome="succeeded"\} (\d+)$/m) >= 1);
    assert.ok(value(/^hostcloud_webhook_delivery_latency_seconds_count (\d+)$/m) >= 1);
    assert.ok(value(/^hostcloud_events_written_total\{type="webhook.ping"\} (\d+)$/m) >= 1);
    assert.ok(value(/^hostcloud_events_written_total\{type="server.created"\} (\d+)$/m) >= 1);
    assert.match(text, /^hostcloud_webhook_oldest_due_age_seconds\{outbox="webhooks"\} \d/m);
  });

  test('every attempt failing: failed after the schedule (1 + 3 attempts here), with the last answer', async () => {
    const r = await startReceiver();
    r.answer = () => 503;
    const c = await createCustomer(t);
    const w = await endpoint(c, r);
    const d = await ping(c, w.id);
    const done = await settledDelivery(c, w.id, d.id);
    assert.equal(done.status, 'failed');
    assert.equal(done.attempt, 4);
    assert.equal(done.response_status, 503);
    assert.match(done.error, /^HTTP 503: answer 503/);
    assert.equal(r.received.length, 4);
    assert.equal(json(await call(t.app, 'GET', `/v2/webhooks/${w.id}`, { key: c.key })).data.enabled, true, 'not yet failing for days');
  });

  test('a redirect is not followed: it is a failed attempt', async () => {
    const r = await startReceiver();
    r.answer = (n) => (n === 0 ? 302 : 200);
    const c = await createCustomer(t);
    const w = await endpoint(c, r);
    const d = await ping(c, w.id);
    await r.until(2);
    const done = await settledDelivery(c, w.id, d.id);
    assert.equal(done.status, 'succeeded');
    assert.equal(done.attempt, 2);
  });
});

describe('what disables an endpoint', () => {
  test('410 Gone: the endpoint is disabled at once, with a notice; its delivery fails', async () => {
    const r = await startReceiver();
    r.answer = () => 410;
    const c = await createCustomer(t);
    const w = await endpoint(c, r);
    const d = await ping(c, w.id);
    const done = await settledDelivery(c, w.id, d.id);
    assert.equal(done.status, 'failed');
    assert.equal(done.attempt, 1);
    assert.equal(done.response_status, 410);
    const after = await until('the endpoint to be disabled', 60_000, async () => {
      const got = json(await call(t.app, 'GET', `/v2/webhooks/${w.id}`, { key: c.key })).data;
      return got.enabled ? undefined : got;
    });
    assert.match(after.disabled_reason, /410 Gone/);
    const notices = json(await adminCall(t, 'GET', `/admin/v1/notifications?account_id=${c.accountId}&kind=webhook.disabled`)).data;
    assert.equal(notices.length, 1);
    assert.match(notices[0].body, /410 Gone/);
    assert.equal(r.received.length, 1, 'not tried again');
    // Nothing more is sent to it.
    assert.equal((await call(t.app, 'POST', `/v2/webhooks/${w.id}/ping`, { key: c.key })).statusCode, 409);
  });

  test('every attempt failing for WEBHOOK_DISABLE_AFTER_DAYS (5): disabled with a notice; a success in between starts the count afresh', async () => {
    const r = await startReceiver();
    r.answer = () => 500;
    const c = await createCustomer(t);
    const w = await endpoint(c, r);
    await sql`UPDATE webhook_endpoints SET failing_since = now() - interval '5 days 1 minute' WHERE id = ${w.id}`.execute(t.database.db);
    await ping(c, w.id);
    const after = await until('the endpoint to be disabled', 60_000, async () => {
      const got = json(await call(t.app, 'GET', `/v2/webhooks/${w.id}`, { key: c.key })).data;
      return got.enabled ? undefined : got;
    });
    assert.match(after.disabled_reason, /failed for 5 days/);
    assert.equal(json(await adminCall(t, 'GET', `/admin/v1/notifications?account_id=${c.accountId}&kind=webhook.disabled`)).data.length, 1);

    const healthy = await startReceiver();
    const c2 = await createCustomer(t);
    const w2 = await endpoint(c2, healthy);
    await sql`UPDATE webhook_endpoints SET failing_since = now() - interval '4 days' WHERE id = ${w2.id}`.execute(t.database.db);
    const d2 = await ping(c2, w2.id);
    assert.equal((await settledDelivery(c2, w2.id, d2.id)).status, 'succeeded');
    const row = await t.database.db.selectFrom('webhook_endpoints').select(['failing_since', 'enabled']).where('id', '=', w2.id).executeTakeFirstOrThrow();
    assert.deepEqual(row, { failing_since: null, enabled: true });
  });
});

describe('timeouts, rotation, fairness', () => {
  test('a receiver that never answers is cut off at WEBHOOK_TIMEOUT_S and the delivery retried', async () => {
    const r = await startReceiver();
    r.answer = (n) => (n === 0 ? 'hang' : 200);
    const c = await createCustomer(t);
    const w = await endpoint(c, r);
    const d = await ping(c, w.id);
    const got = await r.until(2);
    const cut = got[1]!.at - got[0]!.at;
    // Not before the timeout; and the log below says it was the timeout that cut it (not the lease,
    // twice as long, running out): no upper bound in milliseconds, which a busy machine can pass.
    assert.ok(cut >= TIMEOUT_S * 1000, `retried ${cut} ms after the first attempt began (timeout ${TIMEOUT_S} s, then 0.2 s)`);
    assert.equal(got[0]!.id, got[1]!.id);
    const done = await settledDelivery(c, w.id, d.id);
    assert.equal(done.status, 'succeeded');
    assert.equal(done.attempt, 2);
    assert.ok(t.logs.some((l) => l.includes(String(d.id)) && l.includes(`no answer within ${TIMEOUT_S} s`)));
  });

  test('after rotate-secret, deliveries carry both signatures for 24 h: the new secret verifies, and so does the old', async () => {
    const r = await startReceiver();
    const c = await createCustomer(t);
    const w = await endpoint(c, r);
    const rotated = json(await call(t.app, 'POST', `/v2/webhooks/${w.id}/rotate-secret`, { key: c.key })).data;
    r.secrets.push(rotated.secret);
    await ping(c, w.id);
    const [got] = await r.until(1);
    assert.equal(got!.signature.split(' ').length, 2);
    assert.deepEqual(got!.verifiedWith.sort(), [w.secret, rotated.secret].sort());
    // Once the overlap is over, only the new one signs.
    await sql`UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second' WHERE id = ${w.id}`.execute(t.database.db);
    await ping(c, w.id);
    const [, second] = await r.until(2);
    assert.equal(second!.signature.split(' ').length, 1);
    assert.deepEqual(second!.verifiedWith, [rotated.secret]);
  });

  test('one slow endpoint holds at most WEBHOOK_ENDPOINT_CONCURRENCY (2 here) requests; another endpoint is served meanwhile', async () => {
    const slow = await startReceiver();
    slow.answer = () => 'hang';
    const fast = await startReceiver();
    const c = await createCustomer(t);
    const ws = await endpoint(c, slow);
    const wf = await endpoint(c, fast);
    for (let i = 0; i < 6; i++) await ping(c, ws.id);
    await slow.until(2);
    for (let i = 0; i < 5; i++) await ping(c, wf.id);
    await fast.until(5);
    assert.equal(slow.mostOpen, 2, 'the slow endpoint never had more than its share');
    slow.release(200);
  });
});
