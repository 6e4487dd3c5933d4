import assert from 'node:assert/strict';
import path from 'node:path';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';

test('defaults match the settings of docs/operations.md', () => {
  const c = loadConfig({});
  assert.equal(c.port, 8080);
  assert.equal(c.host, '127.0.0.1');
  assert.equal(c.publicUrl, 'http://localhost:8080');
  assert.equal(c.databaseUrl, undefined);
  assert.equal(c.dataDir, path.resolve('./data'));
  assert.equal(c.rateLimitMax, 600);
  assert.equal(c.rateLimitWindowS, 60);
  assert.equal(c.trustProxy, false);
  assert.equal(c.worker, 'embedded');
  assert.equal(c.redisUrl, undefined);
});

test('values are read and checked', () => {
  const c = loadConfig({ PORT: '9000', PUBLIC_URL: 'https://api.example.com/', TRUST_PROXY: '10.0.0.1, 10.1.0.0/16', WORKER: 'off', RATE_LIMIT_MAX: '5' });
  assert.equal(c.port, 9000);
  assert.equal(c.publicUrl, 'https://api.example.com');
  assert.deepEqual(c.trustProxy, ['10.0.0.1', '10.1.0.0/16']);
  assert.equal(c.worker, 'off');
  assert.equal(c.rateLimitMax, 5);
  assert.deepEqual(loadConfig({ TRUST_PROXY: 'loopback, 2001:db8::/32' }).trustProxy, ['loopback', '2001:db8::/32']);
  assert.equal(loadConfig({ TRUST_PROXY: 'off' }).trustProxy, false);
  for (const env of [{ PORT: 'abc' }, { PORT: '70000' }, { WORKER: 'maybe' }, { RATE_LIMIT_MAX: '0' }, { PUBLIC_URL: 'not a url' }, { SIM_DELAY_MS: '-1' }, { ADMIN_TOKEN: 'short' }, { LOG_LEVEL: 'verbose' }, { TRUST_PROXY: 'true' }, { TRUST_PROXY: '10.0.0.1 10.0.0.2' }]) {
    assert.throws(() => loadConfig(env), ConfigError, JSON.stringify(env));
  }
});

test('worker and job settings: documented defaults, read, and refused when out of range', () => {
  const d = loadConfig({});
  assert.deepEqual(
    [d.workerConcurrency, d.workerPoolMax, d.jobRetryLimit, d.jobRetryDelayS, d.jobTimeoutS, d.jobMaintenanceS, d.operationLeaseS, d.providerTimeoutMs, d.simDelayMs],
    [32, 18, 5, 5, 900, 60, 30, 2000, 2000],
  );
  const c = loadConfig({ WORKER_CONCURRENCY: '3', WORKER_POOL_MAX: '3', JOB_RETRY_LIMIT: '0', JOB_RETRY_DELAY_S: '2', JOB_TIMEOUT_S: '30', JOB_MAINTENANCE_S: '5', PROVIDER_TIMEOUT_MS: '500' });
  assert.deepEqual([c.workerConcurrency, c.workerPoolMax, c.jobRetryLimit, c.jobRetryDelayS, c.jobTimeoutS, c.jobMaintenanceS, c.providerTimeoutMs], [3, 3, 0, 2, 30, 5, 500]);
  assert.equal(d.workerMetricsPort, null, 'no worker metrics listener by default');
  assert.equal(loadConfig({ WORKER_METRICS_PORT: '9465' }).workerMetricsPort, 9465);
  for (const [name, value] of [['WORKER_CONCURRENCY', '0'], ['WORKER_POOL_MAX', '2'], ['JOB_TIMEOUT_S', '0'], ['JOB_RETRY_DELAY_S', '1.5'], ['PROVIDER_TIMEOUT_MS', 'soon'], ['OPERATION_LEASE_S', '2'], ['WORKER_METRICS_PORT', '70000'], ['WORKER_METRICS_PORT', 'x']] as const) {
    assert.throws(() => loadConfig({ [name]: value }), (e: unknown) => e instanceof ConfigError && e.message.startsWith(name), `${name}=${value}`);
  }
});

test('LOG_FORMAT: auto by default (pretty on a terminal, JSON otherwise), json or pretty when set', async () => {
  const { createLogger, usePretty } = await import('../../src/http/logger.ts');
  assert.equal(loadConfig({}).logFormat, 'auto');
  assert.equal(loadConfig({ LOG_FORMAT: 'json' }).logFormat, 'json');
  assert.equal(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat, 'pretty');
  assert.throws(() => loadConfig({ LOG_FORMAT: 'xml' }), /LOG_FORMAT must be json, pretty or auto, got "xml"/);
  assert.equal(usePretty('auto', true), true);
  assert.equal(usePretty('auto', false), false);
  assert.equal(usePretty('json', true), false);
  assert.equal(usePretty('pretty', false), true);
  // The pretty logger writes readable lines, not JSON.
  const lines: string[] = [];
  const sink = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
  createLogger('info', sink, 'pretty').info({ operation_id: 'op_1' }, 'operation completed');
  const text = lines.join('');
  assert.match(text, /INFO.*operation completed/);
  assert.match(text, /operation_id: "op_1"/);
  assert.throws(() => JSON.parse(text));
});

test('METRICS_TOKEN: unset by default; 24+ characters and not the admin token when set. BUILD_COMMIT: a commit id', () => {
  assert.equal(loadConfig({}).metricsToken, undefined);
  assert.equal(loadConfig({ METRICS_TOKEN: 'm'.repeat(24) }).metricsToken, 'm'.repeat(24));
  assert.throws(() => loadConfig({ METRICS_TOKEN: 'short' }), /METRICS_TOKEN must be at least 24 characters/);
  assert.throws(() => loadConfig({ METRICS_TOKEN: 'a'.repeat(30), ADMIN_TOKEN: 'a'.repeat(30) }), /METRICS_TOKEN must differ from ADMIN_TOKEN/);
  assert.equal(loadConfig({}).buildCommit, undefined);
  assert.equal(loadConfig({ BUILD_COMMIT: '0ee8cfc1' }).buildCommit, '0ee8cfc1');
  assert.throws(() => loadConfig({ BUILD_COMMIT: 'a b' }), /BUILD_COMMIT must be a commit id/);
});
