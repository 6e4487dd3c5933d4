// What the HTTP layer reports: one log line per 4xx/5xx with error.code and the account (no
// secret), counters of refusals, rate-limit refusals and idempotent replays, and the scrape-time
// gauges (queue depth and age, pool usage) that stay up when the database does not answer.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { connect } from '../../src/db/connection.ts';
import { buildApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/http/logger.ts';
import { createRateLimiter } from '../../src/http/rate-limit.ts';
import PgBoss from 'pg-boss';
import { JOB_SCHEMA } from '../../src/db/names.ts';
import { OPERATIONS_QUEUE, executorOf } from '../../src/jobs/queue.ts';
import { servicesFor } from '../../src/runtime.ts';
import { Metrics, createTelemetry, eventSink, observeDatabase } from '../../src/telemetry/index.ts';
import { adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { serverBody } from '../helpers/servers.ts';
import { logLines, metric } from './helpers.ts';

const t = await startApp();
const c = await createCustomer(t, { deposit: '50.00' });

test('a 4xx answer: one log line with error.code, status, route and the account id; never the key', async () => {
  const before = await metric(t, 'hostcloud_http_errors_total', { code: 'VALIDATION_FAILED', status: '422' });
  const res = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ name: 'bad_name!' }) });
  assert.equal(res.statusCode, 422);
  const lines = logLines(t, 'answered 422 VALIDATION_FAILED').filter((l) => l.request_id === json(res).error.request_id);
  assert.equal(lines.length, 1);
  assert.deepEqual({ ...lines[0], time: 0, pid: 0, hostname: '' }, {
    level: 30, time: 0, pid: 0, hostname: '', request_id: json(res).error.request_id,
    status: 422, error_code: 'VALIDATION_FAILED', account_id: c.accountId, method: 'POST', route: '/v2/servers', msg: 'answered 422 VALIDATION_FAILED',
  });
  assert.equal(await metric(t, 'hostcloud_http_errors_total', { code: 'VALIDATION_FAILED', status: '422' }), before + 1);
  // Without a key there is no account; a wrong key is not logged either.
  const anon = await call(t.app, 'GET', '/v2/account', { headers: { authorization: 'Token secret-in-header-123' } });
  const line = logLines(t, 'answered 401 AUTH_INVALID').find((l) => l.request_id === json(anon).error.request_id)!;
  assert.equal(line.account_id, null);
  assert.ok(!t.logs.join('').includes(c.key) && !t.logs.join('').includes('secret-in-header-123'), 'no secret in any log line');
  assert.ok(logLines(t, 'answered 404 ENDPOINT_NOT_FOUND').length === 0);
  await call(t.app, 'GET', '/v2/nowhere', { key: c.key });
  assert.equal(logLines(t, 'answered 404 ENDPOINT_NOT_FOUND').at(-1)!.route, 'unmatched');
});

test('a 5xx answer is logged at error level with its code', async () => {
  const logs: string[] = [];
  const sink = new Writable({ write(chunk, _enc, cb) { logs.push(String(chunk)); cb(); } });
  const dead = connect('postgres://postgres@127.0.0.1:1/none', { max: 1, connectTimeoutMs: 300 });
  const config = { ...loadConfig({}), publicUrl: 'http://api.test' };
  const telemetry = createTelemetry(createLogger('info', sink));
  const app = await buildApp({ config, db: dead.db, rateLimiter: createRateLimiter({ max: 100, windowS: 60 }), adminToken: 'x'.repeat(24), telemetry, services: servicesFor(config, dead.db) });
  try {
    const res = await call(app, 'GET', '/v2/account', { key: `hc_live_${'A'.repeat(40)}` });
    assert.equal(res.statusCode, 503, res.body);
    const line = logs.map((l) => JSON.parse(l)).find((l) => l.msg === 'answered 503 SERVICE_UNAVAILABLE');
    assert.ok(line, logs.join(''));
    assert.equal(line.level, 50);
    assert.equal(line.error_code, 'SERVICE_UNAVAILABLE');
  } finally {
    await app.close();
    await dead.close();
  }
});

test('idempotent replays and rate-limit refusals are counted', async () => {
  const route = { route: '/v2/servers' };
  const replays0 = await metric(t, 'hostcloud_idempotent_replays_total', route);
  const key = randomUUID();
  const body = serverBody();
  const first = await call(t.app, 'POST', '/v2/servers', { key: c.key, body, headers: { 'idempotency-key': key } });
  assert.equal(first.statusCode, 201, first.body);
  assert.equal(await metric(t, 'hostcloud_idempotent_replays_total', route), replays0);
  const again = await call(t.app, 'POST', '/v2/servers', { key: c.key, body, headers: { 'idempotency-key': key } });
  assert.equal(again.headers['idempotent-replayed'], 'true');
  assert.equal(await metric(t, 'hostcloud_idempotent_replays_total', route), replays0 + 1);

  const limited = await t.sibling({ rateLimitMax: 1 });
  const limited0 = await metric(t, 'hostcloud_rate_limited_total', { route: '/v2/account' });
  const other = await createCustomer(t);
  assert.equal((await call(limited, 'GET', '/v2/account', { key: other.key })).statusCode, 200);
  const refused = await call(limited, 'GET', '/v2/account', { key: other.key });
  assert.equal(refused.statusCode, 429);
  assert.equal(await metric(t, 'hostcloud_rate_limited_total', { route: '/v2/account' }), limited0 + 1);
  const line = logLines(t, 'answered 429 RATE_LIMITED').find((l) => l.request_id === json(refused).error.request_id)!;
  assert.equal(line.account_id, null, 'refused before the key is checked, so no account is claimed');
});

test('queue depth, the oldest job\'s age and pool usage are read at scrape time; GET /metrics shows them', async () => {
  // The worker is off in this file: the creates above wait in the queue.
  await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody() });
  const queued = await metric(t, 'hostcloud_queue_jobs', { queue: 'operations', state: 'queued' });
  assert.ok(queued >= 2, `queued ${queued}`);
  const scheduled0 = await metric(t, 'hostcloud_queue_jobs', { queue: 'operations', state: 'scheduled' });
  // A job due later (as a retry's backoff leaves it): scheduled, not queued.
  await new PgBoss({ db: executorOf(t.database.db), schema: JOB_SCHEMA, supervise: false, schedule: false, migrate: false })
    .send(OPERATIONS_QUEUE, { operation_id: 'op_later' }, { db: executorOf(t.database.db), startAfter: 600 } as PgBoss.SendOptions);
  // Two readings within a second share one query; wait for a fresh one.
  await new Promise((r) => setTimeout(r, 1100));
  assert.equal(await metric(t, 'hostcloud_queue_jobs', { queue: 'operations', state: 'scheduled' }), scheduled0 + 1);
  const age = await metric(t, 'hostcloud_queue_oldest_job_age_seconds', { queue: 'operations' });
  assert.ok(age > 0 && age < 600, `age ${age}`);
  assert.ok(await metric(t, 'hostcloud_db_pool_connections', { state: 'total' }) >= 1);

  const res = await adminCall(t, 'GET', '/metrics');
  assert.equal(res.statusCode, 200);
  for (const series of [
    /^hostcloud_queue_jobs\{queue="operations",state="queued"\} \d+$/m,
    /^hostcloud_queue_oldest_job_age_seconds\{queue="operations"\} [\d.]+$/m,
    /^hostcloud_db_pool_connections\{state="idle"\} \d+$/m,
    /^hostcloud_db_pool_connections\{state="waiting"\} \d+$/m,
    /^hostcloud_http_errors_total\{code="VALIDATION_FAILED",status="422"\} \d+$/m,
    /^hostcloud_billing_transactions_total\{type="deposit"\} \d+$/m,
  ]) assert.match(res.body, series);
  assert.equal((await call(t.app, 'GET', '/metrics', { key: c.key })).statusCode, 401, 'no API key reads it');
});

test('a database that does not answer leaves the queue gauges out, counts the failure, and the scrape still succeeds', async () => {
  const dead = connect('postgres://postgres@127.0.0.1:1/none', { max: 1, connectTimeoutMs: 300 });
  const telemetry = createTelemetry(createLogger('silent'));
  observeDatabase(telemetry, dead);
  try {
    const started = Date.now();
    const text = await telemetry.metrics.registry.metrics();
    assert.ok(Date.now() - started < 3000, 'bounded');
    assert.doesNotMatch(text, /^hostcloud_queue_jobs\{/m);
    assert.doesNotMatch(text, /^hostcloud_webhook_deliveries_due\{/m);
    assert.match(text, /^hostcloud_db_pool_connections\{state="total"\} \d+$/m);
    // Counted during this scrape, so shown from the next one on: the job queue's and the webhook outbox's readings.
    const failures = await telemetry.metrics.collectFailures.get();
    assert.deepEqual(failures.values.map((v) => [v.labels.source, v.value]), [['queue', 1], ['webhook_queue', 1], ['dns_outbox', 1]]);
  } finally {
    await dead.close();
  }
  assert.ok(new Metrics().registry.getSingleMetric('hostcloud_operations_total'), 'every registry has the operation metrics');
});

test('METRICS_TOKEN reads /metrics and nothing else; the admin token still reads it; without the setting it opens nothing', async () => {
  const metricsToken = `metrics-${'m'.repeat(24)}`;
  const app = await t.sibling({ metricsToken });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const scrape = await call(app, 'GET', '/metrics', { headers: bearer(metricsToken) });
  assert.equal(scrape.statusCode, 200);
  assert.match(scrape.body, /^# TYPE hostcloud_http_requests_total counter$/m);
  assert.equal((await call(app, 'GET', '/metrics', { headers: bearer(t.adminToken) })).statusCode, 200);
  for (const [method, url] of [['GET', '/admin/v1/accounts'], ['POST', '/admin/v1/billing/run'], ['GET', '/v2/account']] as const) {
    const res = await call(app, method, url, { headers: bearer(metricsToken) });
    assert.equal(res.statusCode, 401, `${method} ${url}: ${res.body}`);
  }
  assert.equal(json(await call(app, 'GET', '/metrics')).error.code, 'AUTH_REQUIRED');
  assert.match(json(await call(app, 'GET', '/metrics')).error.message, /METRICS_TOKEN/);
  assert.equal(json(await call(app, 'GET', '/metrics', { headers: bearer(`${metricsToken}x`) })).error.code, 'AUTH_INVALID');
  // Unset (the other app): only the admin token reads the metrics.
  assert.equal((await call(t.app, 'GET', '/metrics', { headers: bearer(metricsToken) })).statusCode, 401);
});

test('every queue is shown, 0 when idle; hostcloud_build_info says what runs', async () => {
  // The worker is off and nothing is sent to these queues in this file: idle, yet shown.
  await new Promise((r) => setTimeout(r, 1100)); // past the reading shared within a second
  const text = (await adminCall(t, 'GET', '/metrics')).body;
  for (const queue of ['maintenance', 'operations-failed']) {
    assert.match(text, new RegExp(`^hostcloud_queue_jobs\\{queue="${queue}",state="queued"\\} 0$`, 'm'));
    assert.match(text, new RegExp(`^hostcloud_queue_jobs\\{queue="${queue}",state="scheduled"\\} 0$`, 'm'));
    assert.match(text, new RegExp(`^hostcloud_queue_oldest_job_age_seconds\\{queue="${queue}"\\} 0$`, 'm'));
  }
  const version = JSON.parse(await fs.readFile(new URL('../../package.json', import.meta.url), 'utf8')).version as string;
  const info = /^hostcloud_build_info\{version="([^"]+)",node_version="([^"]+)",commit="([^"]+)"\} 1$/m.exec(text);
  assert.ok(info, text.split('\n').filter((l) => l.includes('build_info')).join('\n'));
  assert.equal(info[1], version);
  assert.equal(info[2], process.version);
  assert.match(info[3]!, /^([0-9a-f]{12}|unknown)$/);
  const set = createTelemetry(createLogger('silent'), 'abc1234');
  assert.match(await set.metrics.registry.metrics(), /^hostcloud_build_info\{version="[^"]+",node_version="v\d[^"]*",commit="abc1234"\} 1$/m);
});

test('money is counted in whole cents: ten 0.10 charges are 100, not 0.9999999999999999', async () => {
  const telemetry = createTelemetry(createLogger('silent'));
  const sink = eventSink(telemetry);
  for (let i = 0; i < 10; i++) {
    sink({ kind: 'billing', type: 'withdraw', accountId: 'acc_x', cents: 10, balanceAfterCents: 0, transactionId: i, description: 'x', resource: null });
  }
  const text = await telemetry.metrics.registry.metrics();
  assert.match(text, /^hostcloud_billing_amount_cents_total\{type="withdraw"\} 100$/m);
  assert.doesNotMatch(text, /hostcloud_billing_amount_usd_total/);
});
