// GET /v2/servers/{id}/console and the link it returns: our own signed URL around the platform's
// single-use ticket, opened without an API key, once, within 300 seconds.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { consoleSigningKey, openConsoleSession } from '../../src/core/servers/console.ts';
import { updateServerRow } from '../../src/db/queries/servers.ts';
import { noopQueue } from '../../src/jobs/queue.ts';
import { createSimulatedCompute } from '../../src/providers/compute/simulated/index.ts';
import { noopPanel } from '../../src/providers/hosting/noop.ts';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { type Json, activeServer } from '../helpers/servers.ts';
import { assertError, assertInvalid, withFault, withPendingServer } from '../helpers/server-extras.ts';
import { noopRegistrar } from '../../src/providers/registrar/noop.ts';

let t: TestApp;
let c: Customer;
let other: Customer;
let server: Json;

before(async () => {
  t = await startApp({ worker: 'embedded' });
  c = await createCustomer(t, { deposit: '100.00' });
  other = await createCustomer(t, { deposit: '100.00' });
  server = await activeServer(t, c);
});

const getConsole = (id = server.id, key = c.key) => call(t.app, 'GET', `/v2/servers/${id}/console`, { key });

/** A console URL as the browser would open it: path and query only, no Authorization. */
function open(viewerUrl: string, edit: (u: URL) => void = () => {}, method: 'GET' | 'HEAD' = 'GET') {
  const u = new URL(viewerUrl);
  edit(u);
  return call(t.app, method, u.pathname + u.search);
}

async function freshUrl(): Promise<string> {
  const res = await getConsole();
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data.viewer_url;
}

describe('GET /servers/{id}/console', () => {
  test('200: our own signed URL, expiring in 300 s', async () => {
    const res = await getConsole();
    assert.equal(res.statusCode, 200, res.body);
    const { data, meta } = json(res);
    assert.deepEqual(Object.keys(data).sort(), ['expires_at', 'expires_in', 'viewer_url']);
    assert.equal(data.expires_in, 300);
    const u = new URL(data.viewer_url);
    assert.equal(u.origin, 'http://api.test', 'the public URL, never the platform');
    assert.match(u.pathname, /^\/v2\/console\/[A-Za-z0-9_-]+$/);
    assert.match(u.searchParams.get('signature')!, /^[0-9a-f]{64}$/);
    assert.equal(Number(u.searchParams.get('expires')) * 1000, Date.parse(data.expires_at));
    const left = Date.parse(data.expires_at) - Date.now();
    assert.ok(left > 295_000 && left <= 300_000, `expires in ${left} ms`);
    assert.equal(meta.sandbox, undefined);
  });

  test("404 for an unknown server and another account's", async () => {
    assertError(await getConsole(server.id, other.key), 404, 'RESOURCE_NOT_FOUND');
    assertError(await getConsole('srv_doesnotexist0000'), 404, 'RESOURCE_NOT_FOUND');
  });

  test('401 without an API key', async () => {
    assertError(await call(t.app, 'GET', `/v2/servers/${server.id}/console`), 401, 'AUTH_REQUIRED');
  });

  test('409 STATE_CONFLICT for a pending server and a stopped one', async () => {
    await withPendingServer(t, c, async (pending) => assertError(await getConsole(pending.id), 409, 'STATE_CONFLICT'));
    const s = await activeServer(t, c);
    await updateServerRow(t.database.db, s.id, { power_state: 'stopped' });
    const res = await getConsole(s.id);
    assertError(res, 409, 'STATE_CONFLICT');
    assert.match(json(res).error.message, /stopped/);
  });

  test('502 UPSTREAM_ERROR when the platform fails', async () => {
    await withFault(t, 'upstream_error', ['openConsole'], async () => assertError(await getConsole(), 502, 'UPSTREAM_ERROR'));
    await withFault(t, 'timeout', ['openConsole'], async () => assertError(await getConsole(), 502, 'UPSTREAM_ERROR'));
  });
});

describe('GET /console/{ticket}', () => {
  test('opens once without an API key; the second use is 409', async () => {
    const viewer = await freshUrl();
    const first = await open(viewer);
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(json(first).data.status, 'opened');
    assert.equal(json(first).data.sandbox, false);
    assert.equal(first.headers['cache-control'], 'no-store');
    const second = await open(viewer);
    assertError(second, 409, 'STATE_CONFLICT');
    assert.match(json(second).error.message, /already used/);
  });

  test('a tampered link is 404: signature, ticket, expiry or sandbox flag changed', async () => {
    const viewer = await freshUrl();
    const flip = (s: string) => (s[0] === 'a' ? 'b' : 'a') + s.slice(1);
    assertError(await open(viewer, (u) => u.searchParams.set('signature', flip(u.searchParams.get('signature')!))), 404, 'RESOURCE_NOT_FOUND');
    assertError(await open(viewer, (u) => u.searchParams.set('signature', 'zz')), 404, 'RESOURCE_NOT_FOUND');
    assertError(await open(viewer, (u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600))), 404, 'RESOURCE_NOT_FOUND');
    assertError(await open(viewer, (u) => { u.pathname = flip(u.pathname.replace('/v2/console/', '')).replace(/^/, '/v2/console/'); }), 404, 'RESOURCE_NOT_FOUND');
    assertError(await open(viewer, (u) => u.searchParams.set('sandbox', '1')), 404, 'RESOURCE_NOT_FOUND');
    assertInvalid(await open(viewer, (u) => u.searchParams.delete('signature')), ['signature']);
    // None of those spent the ticket.
    assert.equal((await open(viewer)).statusCode, 200);
  });

  test('an expired link is 409, even while the platform ticket would still work', async () => {
    const db = t.database.db;
    const ctx = {
      db, accountId: c.accountId, sandbox: false, now: new Date(Date.now() - 301_000),
      compute: createSimulatedCompute({ db, delayMs: 0 }), hosting: noopPanel, registrar: noopRegistrar, jobs: noopQueue, providerTimeoutMs: 2000,
    };
    const stale = await openConsoleSession(ctx, server.id, await consoleSigningKey(db), 'http://api.test');
    const res = await open(stale.viewerUrl);
    assertError(res, 409, 'STATE_CONFLICT');
    assert.match(json(res).error.message, /expired/);
  });

  test('HEAD checks the link without spending it: 204 (twice), then GET opens it; forged 404, expired 409', async () => {
    const viewer = await freshUrl();
    for (let i = 0; i < 2; i++) {
      const head = await open(viewer, () => {}, 'HEAD');
      assert.equal(head.statusCode, 204, head.body);
      assert.equal(head.body, '');
      assert.equal(head.headers['cache-control'], 'no-store');
      assert.equal(head.headers['referrer-policy'], 'no-referrer');
      assert.ok(head.headers['ratelimit-remaining'] !== undefined);
    }
    assert.equal((await open(viewer)).statusCode, 200);
    const forged = await open(viewer, (u) => u.searchParams.set('signature', '0'.repeat(64)), 'HEAD');
    assert.equal(forged.statusCode, 404);
    const db = t.database.db;
    const ctx = {
      db, accountId: c.accountId, sandbox: false, now: new Date(Date.now() - 301_000),
      compute: createSimulatedCompute({ db, delayMs: 0 }), hosting: noopPanel, registrar: noopRegistrar, jobs: noopQueue, providerTimeoutMs: 2000,
    };
    const stale = await openConsoleSession(ctx, server.id, await consoleSigningKey(db), 'http://api.test');
    assert.equal((await open(stale.viewerUrl, () => {}, 'HEAD')).statusCode, 409);
    // Its parameters are the link's: anything else is refused, as on GET.
    assert.equal((await open(await freshUrl(), (u) => u.searchParams.set('x', '1'), 'HEAD')).statusCode, 422);
  });

  test('502 when the platform fails to redeem; the link still works afterwards', async () => {
    const viewer = await freshUrl();
    await withFault(t, 'upstream_error', ['redeemConsole'], async () => assertError(await open(viewer), 502, 'UPSTREAM_ERROR'));
    assert.equal((await open(viewer)).statusCode, 200);
  });
});

describe('sandbox', () => {
  test('a test key gets a link with meta.sandbox; it opens without reaching the platform; nothing persists', async () => {
    const testKey = json(await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/api-keys`, { name: 'sandbox', ip_allowlist: ['127.0.0.1', '::1'], is_test: true })).data.key;
    const sessions = async () => (await t.database.db.selectFrom('console_sessions').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n;
    const before = await sessions();
    const res = await getConsole(server.id, testKey);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json(res).meta.sandbox, true);
    const viewer = json(res).data.viewer_url;
    assert.equal(new URL(viewer).searchParams.get('sandbox'), '1');
    const opened = await open(viewer);
    assert.equal(opened.statusCode, 200, opened.body);
    assert.equal(json(opened).data.sandbox, true);
    assert.equal(json(opened).meta.sandbox, true);
    assert.equal(await sessions(), before, 'no platform session was made');
    assertError(await open(viewer, (u) => u.searchParams.delete('sandbox')), 404, 'RESOURCE_NOT_FOUND');
  });
});
