import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';

test('defaults match DESIGN.md', () => {
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
