// `hostcloud worker` serves GET /metrics on WORKER_METRICS_PORT with the admin token: what the
// worker ran is counted in the worker, so only it can tell Prometheus.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { serveWorkerMetrics } from '../../src/cli/worker-metrics.ts';
import { Metrics } from '../../src/telemetry/metrics.ts';
import { call, createCustomer, json, startApp } from '../helpers/app.ts';
import { serverBody } from '../helpers/servers.ts';
import { killWorkers, startWorker, until } from '../helpers/worker-process.ts';

after(killWorkers);

const TOKEN = 'test-admin-token-0123456789abcdef';

test('the listener: the registry with the admin token; every other request an error in the v2 envelope', async () => {
  const metrics = new Metrics();
  metrics.operations.inc({ type: 'server.create', outcome: 'completed' });
  const s = await serveWorkerMetrics(metrics, { host: '127.0.0.1', port: 0, adminToken: TOKEN, publicUrl: 'http://localhost:8080' });
  try {
    const ok = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(ok.status, 200);
    assert.match(ok.headers.get('content-type')!, /^text\/plain/);
    assert.match(await ok.text(), /hostcloud_operations_total\{type="server.create",outcome="completed"\} 1/);

    const cases: [RequestInit & { path?: string }, number, string][] = [
      [{}, 401, 'AUTH_REQUIRED'],
      [{ headers: { authorization: 'Bearer wrong-token' } }, 401, 'AUTH_INVALID'],
      [{ headers: { authorization: `Basic ${TOKEN}` } }, 401, 'AUTH_INVALID'],
      [{ method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } }, 405, 'METHOD_NOT_ALLOWED'],
      [{ path: '/v2/servers', headers: { authorization: `Bearer ${TOKEN}` } }, 404, 'ENDPOINT_NOT_FOUND'],
    ];
    for (const [init, status, code] of cases) {
      const res = await fetch(`${s.url}${init.path ?? '/metrics'}`, init);
      assert.equal(res.status, status, code);
      const body = await res.json() as { error: { code: string; message: string; request_id: string; doc_url: string } };
      assert.equal(body.error.code, code);
      assert.match(body.error.request_id, /^req_/);
      assert.equal(body.error.doc_url, `http://localhost:8080/v2/docs/errors#${code}`);
    }
    // A collection that fails (a broken collector) is a 503 with a retry hint, and the listener lives on.
    const collect = metrics.registry.metrics.bind(metrics.registry);
    metrics.registry.metrics = async () => { throw new Error('collector broke'); };
    const down = await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(down.status, 503);
    assert.equal(down.headers.get('retry-after'), '2');
    assert.equal(((await down.json()) as { error: { code: string } }).error.code, 'SERVICE_UNAVAILABLE');
    metrics.registry.metrics = collect;
    assert.equal((await fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status, 200);
  } finally {
    await s.close();
  }
});

test('the listener with METRICS_TOKEN: that token and the admin token read; any other is refused', async () => {
  const metricsToken = 'metrics-token-0123456789abcdef';
  const s = await serveWorkerMetrics(new Metrics(), { host: '127.0.0.1', port: 0, adminToken: TOKEN, metricsToken, publicUrl: 'http://localhost:8080' });
  try {
    const get = (token: string) => fetch(`${s.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal((await get(metricsToken)).status, 200);
    assert.equal((await get(TOKEN)).status, 200);
    const wrong = await get(`${metricsToken}x`);
    assert.equal(wrong.status, 401);
    assert.equal(((await wrong.json()) as { error: { code: string } }).error.code, 'AUTH_INVALID');
  } finally {
    await s.close();
  }
  // Without it, the same token is just a wrong one.
  const plain = await serveWorkerMetrics(new Metrics(), { host: '127.0.0.1', port: 0, adminToken: TOKEN, publicUrl: 'http://localhost:8080' });
  try {
    assert.equal((await fetch(`${plain.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).status, 401);
  } finally {
    await plain.close();
  }
});

test('a real `hostcloud worker` with WORKER_METRICS_PORT counts the operations it ran and serves them', { timeout: 300_000 }, async () => {
  const t = await startApp({});
  const c = await createCustomer(t, { deposit: '10.00' });
  const res = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ name: 'metrics.example.com' }) });
  assert.equal(res.statusCode, 201, res.body);
  const { operation } = json(res).data;
  const w = startWorker(t.databaseUrl, 0, { WORKER_METRICS_PORT: '0', ADMIN_TOKEN: TOKEN, HOST: '127.0.0.1' });
  // Port 0: the worker says where it listens.
  const url = await until('the worker to say where its metrics are', 90_000, async () => /"url":"(http:\/\/[^"]+\/metrics)"/.exec(w.output())?.[1])
    .catch((e) => { throw new Error(`${e.message}\n${w.output()}`); });
  await until('the create to complete', 120_000, async () => {
    const op = await t.database.db.selectFrom('operations').select('status').where('id', '=', operation.id).executeTakeFirstOrThrow();
    return op.status === 'completed' ? op : undefined;
  });
  // The counter moves once the completion has committed (the event is reported after commit).
  const text = await until('the completion to be counted', 60_000, async () => {
    const body = await (await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    return /hostcloud_operations_total\{type="server.create",outcome="completed"\} 1/.test(body) ? body : undefined;
  });
  assert.match(text, /hostcloud_provider_calls_total\{provider="compute",method="[a-zA-Z]+"\} \d+/, 'its provider calls');
  assert.match(text, /^hostcloud_db_pool_connections\{/m, 'its pool');
  // The queue's gauges have a series per queue with unstarted jobs (none are left here); the reading itself must not fail.
  assert.match(text, /^# TYPE hostcloud_queue_jobs gauge$/m, 'the queue');
  assert.doesNotMatch(text, /hostcloud_metrics_collect_failures_total\{source="queue"\}/, 'the queue was read');
  assert.equal((await fetch(url)).status, 401, 'not without the token');
});
