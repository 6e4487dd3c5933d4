// Request budgets: per key once authenticated, per IP before; headers on every response; 429
// with Retry-After; one budget across API processes when they share Redis.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { rateLimiterFor } from '../../src/runtime.ts';
import { call, createCustomer, json, startApp } from '../helpers/app.ts';
import { until } from '../helpers/worker-process.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('in-process limiter', () => {
  test('RateLimit headers count down; the request over the budget gets 429 with Retry-After', async () => {
    const t = await startApp({ rateLimitMax: 3, rateLimitWindowS: 60 });
    const c = await createCustomer(t);
    const seen = [];
    for (let i = 0; i < 3; i++) {
      const res = await call(t.app, 'GET', '/v2/account', { key: c.key });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['ratelimit-limit'], '3');
      seen.push(res.headers['ratelimit-remaining']);
      const reset = Number(res.headers['ratelimit-reset']);
      assert.ok(reset >= 1 && reset <= 60, `reset ${reset}`);
      assert.equal(res.headers['retry-after'], undefined, 'Retry-After only on 429');
    }
    assert.deepEqual(seen, ['2', '1', '0']);
    const limited = await call(t.app, 'GET', '/v2/account', { key: c.key });
    assert.equal(limited.statusCode, 429);
    assert.equal(json(limited).error.code, 'RATE_LIMITED');
    assert.equal(limited.headers['ratelimit-remaining'], '0');
    const retry = Number(limited.headers['retry-after']);
    assert.ok(retry >= 1 && retry <= 60, `Retry-After ${retry}`);

    const other = await createCustomer(t);
    assert.equal((await call(t.app, 'GET', '/v2/account', { key: other.key })).statusCode, 200, 'each key has its own budget');
  });

  test('unauthenticated requests are limited per IP, and error responses carry the headers too', async () => {
    const t = await startApp({ rateLimitMax: 2, rateLimitWindowS: 60 });
    const first = await call(t.app, 'GET', '/v2/account', { ip: '198.51.100.1' });
    assert.equal(first.statusCode, 401);
    assert.equal(first.headers['ratelimit-remaining'], '1');
    const notFound = await call(t.app, 'GET', '/v2/nope', { ip: '198.51.100.1' });
    assert.equal(notFound.statusCode, 404);
    assert.equal(notFound.headers['ratelimit-remaining'], '0');
    const third = await call(t.app, 'GET', '/v2/account', { ip: '198.51.100.1', key: `hc_live_${'x'.repeat(40)}` });
    assert.equal(third.statusCode, 429, 'an invalid key draws on the IP budget');
    assert.equal((await call(t.app, 'GET', '/v2/account', { ip: '198.51.100.2' })).statusCode, 401, 'another IP is not limited');
  });

  test('the budget comes back after the window', async () => {
    // A window opens at a key's first request. On a busy machine the second request of a pair could
    // arrive after a 1 s window had closed (200, not 429): the budget is spent until a request is
    // refused, then asked for until it comes back, each with a deadline, not a fixed sleep.
    const t = await startApp({ rateLimitMax: 1, rateLimitWindowS: 2 });
    const c = await createCustomer(t);
    const account = () => call(t.app, 'GET', '/v2/account', { key: c.key });
    assert.equal((await account()).statusCode, 200);
    const refused = await until('a request over the budget', 60_000, async () => {
      const res = await account();
      return res.statusCode === 429 ? res : undefined;
    });
    const retryAfter = Number(refused.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 2, `Retry-After ${retryAfter} within the 2 s window`);
    // A refused request does not extend the window: asked again and again, the budget comes back.
    await until('the budget back after the window', 30_000, async () => ((await account()).statusCode === 200 ? true : undefined));
  });

  test('health probes and the admin API are not limited', async () => {
    const t = await startApp({ rateLimitMax: 1, rateLimitWindowS: 60 });
    for (let i = 0; i < 3; i++) {
      const h = await call(t.app, 'GET', '/healthz');
      assert.equal(h.statusCode, 200);
      assert.equal(h.headers['ratelimit-limit'], undefined);
    }
  });

  test('an unreachable Redis degrades to per-process limits instead of failing requests', async () => {
    const t = await startApp({ rateLimitMax: 2, rateLimitWindowS: 60, redisUrl: 'redis://127.0.0.1:1' });
    const c = await createCustomer(t);
    assert.equal((await call(t.app, 'GET', '/v2/account', { key: c.key })).statusCode, 200);
    assert.equal((await call(t.app, 'GET', '/v2/account', { key: c.key })).statusCode, 200);
    assert.equal((await call(t.app, 'GET', '/v2/account', { key: c.key })).statusCode, 429);
  });
});

describe('shared through Redis (REDIS_URL)', { skip: process.env.REDIS_URL ? false : 'REDIS_URL not set' }, () => {
  test('two API processes draw on one budget', async () => {
    const t = await startApp({ rateLimitMax: 4, rateLimitWindowS: 60, redisUrl: process.env.REDIS_URL });
    const second = await t.sibling();
    const c = await createCustomer(t);
    const codes = [];
    for (const app of [t.app, second, t.app, second, t.app, second]) {
      codes.push((await call(app, 'GET', '/v2/account', { key: c.key })).statusCode);
    }
    assert.deepEqual(codes, [200, 200, 200, 200, 429, 429]);
    const last = await call(second, 'GET', '/v2/account', { key: c.key });
    assert.equal(last.headers['ratelimit-remaining'], '0');
  });
});

describe('RATE_LIMIT_PREFIX: installations sharing one Redis keep their own budgets', () => {
  test('the default is derived from the database name', () => {
    assert.equal(loadConfig({}).rateLimitPrefix, 'hostcloud:rl:hostcloud', 'embedded: its database is "hostcloud"');
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://app:secret@db.internal:5432/shop_prod' }).rateLimitPrefix, 'hostcloud:rl:shop_prod');
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://app@db/' }).rateLimitPrefix, 'hostcloud:rl:app', 'no database: libpq uses the user name');
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://db/a', RATE_LIMIT_PREFIX: 'edge:eu' }).rateLimitPrefix, 'edge:eu');
    for (const bad of ['has space', 'x'.repeat(201)]) assert.throws(() => loadConfig({ RATE_LIMIT_PREFIX: bad }), ConfigError);
  });

  test('in-process: rateLimiterFor(config) limits with the configured budget', async () => {
    const limiter = rateLimiterFor(loadConfig({ RATE_LIMIT_MAX: '2', RATE_LIMIT_PREFIX: 'hct:unit' }));
    try {
      const d = [await limiter.consume('ip:a'), await limiter.consume('ip:a'), await limiter.consume('ip:a')];
      assert.deepEqual(d.map((x) => x.allowed), [true, true, false]);
      assert.equal((await limiter.consume('ip:b')).allowed, true, 'another key, another budget');
    } finally {
      await limiter.close();
    }
  });

  test('through Redis: two installations (prefixes) on one Redis do not share per-IP budgets; one installation does', { skip: process.env.REDIS_URL ? false : 'REDIS_URL not set' }, async () => {
    const run = randomBytes(4).toString('hex');
    const t = await startApp({ rateLimitMax: 2, rateLimitWindowS: 60, redisUrl: process.env.REDIS_URL, rateLimitPrefix: `hct:${run}:shop-a` });
    const sameInstallation = await t.sibling();
    const otherInstallation = await t.sibling({ rateLimitPrefix: `hct:${run}:shop-b` });
    const ip = '198.51.100.77';
    const codes = async (app: typeof t.app, n: number) => {
      const out = [];
      for (let i = 0; i < n; i++) out.push((await call(app, 'GET', '/v2/account', { ip })).statusCode);
      return out;
    };
    assert.deepEqual([...(await codes(t.app, 1)), ...(await codes(sameInstallation, 2))], [401, 401, 429], 'one installation: one budget');
    assert.deepEqual(await codes(otherInstallation, 3), [401, 401, 429], 'the other installation: a budget of its own');
    const redis = new Redis(process.env.REDIS_URL!);
    try {
      assert.ok((await redis.keys(`hct:${run}:shop-a*`)).length > 0, 'budgets are stored under the prefix');
      assert.ok((await redis.keys(`hct:${run}:shop-b*`)).length > 0);
    } finally {
      redis.disconnect();
    }
  });
});

/** A redis-server of this test's own (never the shared one, which must not be stopped); null if the machine has none. */
async function ownRedis(port?: number): Promise<{ url: string; port: number; stop(): Promise<void> } | null> {
  const { spawnSync, spawn } = await import('node:child_process');
  if (spawnSync('redis-server', ['--version']).status !== 0) return null;
  const { freePort } = await import('../../src/db/embedded.ts');
  const p = port ?? await freePort();
  const child = spawn('redis-server', ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${p}`;
  const probe = new Redis(url, { lazyConnect: true, retryStrategy: () => 50 });
  probe.on('error', () => {});
  await probe.connect().catch(() => undefined);
  for (let i = 0; probe.status !== 'ready'; i++) {
    assert.ok(i < 100, 'redis-server started');
    await sleep(50);
  }
  probe.disconnect();
  return {
    url,
    port: p,
    stop: () => new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    }),
  };
}

describe('Redis faults', () => {
  test('Redis dies mid-run: every request is still answered (per-process limits), never a 500; when it returns, budgets are shared again', async (t0) => {
    const first = await ownRedis();
    if (!first) return t0.skip('no redis-server on this machine');
    const servers = [first];
    try {
      const prefix = `hct:${randomBytes(4).toString('hex')}`;
      const t = await startApp({ rateLimitMax: 1000, rateLimitWindowS: 60, redisUrl: first.url, rateLimitPrefix: prefix });
      const c = await createCustomer(t);
      assert.equal((await call(t.app, 'GET', '/v2/account', { key: c.key })).headers['ratelimit-remaining'], '999');
      await first.stop();
      const during = [];
      for (let i = 0; i < 20; i++) during.push((await call(t.app, 'GET', '/v2/account', { key: c.key })).statusCode);
      assert.deepEqual([...new Set(during)], [200], 'the in-process limiter answers while Redis is gone');

      // Back on the same port: the client reconnects by itself and budgets move back to Redis.
      servers.push((await ownRedis(first.port))!);
      const check = new Redis(first.url);
      check.on('error', () => {});
      try {
        for (let i = 0; ; i++) {
          assert.equal((await call(t.app, 'GET', '/v2/account', { key: c.key })).statusCode, 200);
          if ((await check.keys(`${prefix}*`)).length > 0) break;
          assert.ok(i < 200, 'budgets are kept in Redis again once it is back');
          await sleep(50);
        }
      } finally {
        check.disconnect();
      }
    } finally {
      for (const r of servers) await r.stop();
    }
  });
});

describe('per-IP budgets', () => {
  test('IPv6 callers share a budget per /64; IPv4-mapped addresses count as IPv4', async () => {
    const { ipBudget } = await import('../../src/http/auth.ts');
    assert.equal(ipBudget('2001:db8:1:2::1'), ipBudget('2001:db8:1:2:ffff::9'));
    assert.notEqual(ipBudget('2001:db8:1:2::1'), ipBudget('2001:db8:1:3::1'));
    assert.equal(ipBudget('::ffff:203.0.113.5'), ipBudget('203.0.113.5'));
    assert.notEqual(ipBudget('203.0.113.5'), ipBudget('203.0.113.6'));
    const t = await startApp({ rateLimitMax: 1, rateLimitWindowS: 60 });
    assert.equal((await call(t.app, 'GET', '/v2/account', { ip: '2001:db8:5:5::1' })).statusCode, 401);
    assert.equal((await call(t.app, 'GET', '/v2/account', { ip: '2001:db8:5:5::2' })).statusCode, 429);
  });
});

describe('whose budget', () => {
  test('a key used from a disallowed IP spends that IP budget, not the owner key budget', async () => {
    const t = await startApp({ rateLimitMax: 3, rateLimitWindowS: 60 });
    const c = await createCustomer(t, { ipAllowlist: ['203.0.113.10'] });
    for (let i = 0; i < 4; i++) {
      const res = await call(t.app, 'GET', '/v2/account', { key: c.key, ip: '198.51.100.66' });
      assert.equal(res.statusCode, i < 3 ? 403 : 429);
    }
    const owner = await call(t.app, 'GET', '/v2/account', { key: c.key, ip: '203.0.113.10' });
    assert.equal(owner.statusCode, 200, 'the owner still has their whole budget');
    assert.equal(owner.headers['ratelimit-remaining'], '2');
  });
});

describe('admin API', () => {
  test('the operator is not throttled; wrong admin tokens spend a per-IP budget', async () => {
    const t = await startApp({ rateLimitMax: 2, rateLimitWindowS: 60 });
    const good = { authorization: `Bearer ${t.adminToken}` };
    for (let i = 0; i < 4; i++) {
      assert.equal((await call(t.app, 'GET', '/admin/v1/plans', { headers: good })).statusCode, 200);
    }
    const bad = { authorization: 'Bearer guess-guess-guess-guess' };
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push((await call(t.app, 'GET', '/admin/v1/plans', { headers: bad, ip: '198.51.100.9' })).statusCode);
    assert.deepEqual(codes, [401, 401, 429]);
    assert.equal((await call(t.app, 'GET', '/admin/v1/plans', { headers: bad, ip: '198.51.100.10' })).statusCode, 401, 'another IP has its own budget');
    assert.equal((await call(t.app, 'GET', '/admin/v1/plans', { headers: good, ip: '198.51.100.9' })).statusCode, 200, 'the right token still works');
  });
});
