// GET /v2/web-hosting/{id}/login and the link it returns: our own signed URL, opened without an API
// key, once, within 300 seconds, redirecting (302) to the account's hosting page in the customer
// panel with the cookie of a session for that page alone.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { hostingLoginLink } from '../../src/core/hosting/login.ts';
import { linkSigningKey, newTicket, signLink } from '../../src/core/signed-links.ts';
import { noopQueue } from '../../src/jobs/queue.ts';
import { noopCompute } from '../../src/providers/compute/noop.ts';
import { createSimulatedPanel } from '../../src/providers/hosting/simulated/index.ts';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { activeHosting, orderHosting, withPanelFault } from '../helpers/hosting.ts';
import { assertError, assertInvalid } from '../helpers/server-extras.ts';
import type { Json } from '../helpers/servers.ts';
import { noopRegistrar } from '../../src/providers/registrar/noop.ts';

let t: TestApp;
let c: Customer;
let other: Customer;
let hosting: Json;

before(async () => {
  t = await startApp({ worker: 'embedded' });
  c = await createCustomer(t, { deposit: '100.00' });
  other = await createCustomer(t, { deposit: '100.00' });
  hosting = await activeHosting(t, c);
});

const getLogin = (id = hosting.id, key = c.key) => call(t.app, 'GET', `/v2/web-hosting/${id}/login`, { key });

/** A login URL as the browser opens it: path and query only, no Authorization. */
function open(loginUrl: string, edit: (u: URL) => void = () => {}, method: 'GET' | 'HEAD' = 'GET') {
  const u = new URL(loginUrl);
  edit(u);
  return call(t.app, method, u.pathname + u.search);
}

async function freshUrl(id = hosting.id): Promise<string> {
  const res = await getLogin(id);
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data.login_url;
}

const panelAccount = (domain: string) => t.database.db.selectFrom('sim_hosting_accounts').selectAll()
  .where('domain', '=', domain).where('state', '<>', 'terminated').executeTakeFirstOrThrow();

describe('GET /web-hosting/{id}/login', () => {
  test('200: the panel user and our own signed URL, expiring in 300 s, recorded for its single use', async () => {
    const res = await getLogin();
    assert.equal(res.statusCode, 200, res.body);
    const { data, meta } = json(res);
    assert.deepEqual(Object.keys(data).sort(), ['expires_at', 'id', 'login_url', 'note', 'username']);
    assert.equal(data.id, hosting.id);
    const account = await panelAccount(hosting.domain);
    assert.equal(data.username, account.username);
    const u = new URL(data.login_url);
    assert.equal(u.origin, 'http://api.test', 'the public URL, never the panel');
    assert.match(u.pathname, /^\/v2\/web-hosting-login\/[A-Za-z0-9_-]{32}$/);
    assert.match(u.searchParams.get('signature')!, /^[0-9a-f]{64}$/);
    assert.equal(u.searchParams.get('sandbox'), null);
    assert.equal(Number(u.searchParams.get('expires')) * 1000, Date.parse(data.expires_at));
    const left = Date.parse(data.expires_at) - Date.now();
    assert.ok(left > 295_000 && left <= 300_000, `expires in ${left} ms`);
    assert.match(data.note, new RegExp(`^Opens the hosting page of ${hosting.domain.replace(/\./g, '\\.')} \\(on ${hosting.server.hostname.replace(/\./g, '\\.')}, user ${data.username}\\) in the customer panel, without a password\\. The link works once, within 300 seconds`));
    assert.equal(meta.sandbox, undefined);
    const ticket = u.pathname.split('/').pop()!;
    const row = await t.database.db.selectFrom('hosting_login_links').selectAll().where('ticket', '=', ticket).executeTakeFirstOrThrow();
    assert.equal(row.hosting_id, hosting.id);
    assert.equal(row.used_at, null);
  });

  test("404 for another account's id and an unknown one; 401 without a key", async () => {
    assertError(await getLogin(hosting.id, other.key), 404, 'RESOURCE_NOT_FOUND');
    assertError(await getLogin('wh_doesnotexist0000'), 404, 'RESOURCE_NOT_FOUND');
    assertInvalid(await getLogin('x'.repeat(65)), ['id']);
    assertError(await call(t.app, 'GET', `/v2/web-hosting/${hosting.id}/login`), 401, 'AUTH_REQUIRED');
  });

  test('409 STATE_CONFLICT for an account that is pending, suspended or cancelled', async () => {
    await withPanelFault(t, 'upstream_error', ['createAccount'], async () => {
      const pending = await orderHosting(t, c);
      const res = await getLogin(pending.id);
      assertError(res, 409, 'STATE_CONFLICT');
      assert.match(json(res).error.message, /is pending; only an active account can log in/);
      return pending;
    }).then((p) => waitForOperation(t, c.key, p.operation.id));
    const suspended = await activeHosting(t, c);
    await t.database.db.updateTable('web_hosting').set({ status: 'suspended' }).where('id', '=', suspended.id).execute();
    assertError(await getLogin(suspended.id), 409, 'STATE_CONFLICT');
    const cancelled = await activeHosting(t, c);
    assert.equal((await call(t.app, 'POST', `/v2/web-hosting/${cancelled.id}/cancel`, { key: c.key, body: {} })).statusCode, 200);
    assertError(await getLogin(cancelled.id), 409, 'STATE_CONFLICT');
  });
});

describe('GET /web-hosting-login/{ticket}', () => {
  test('opens once without an API key: 302 to the hosting page with its session cookie, never cached; the second use is 409', async () => {
    const url = await freshUrl();
    const first = await open(url);
    assert.equal(first.statusCode, 302, first.body);
    assert.equal(first.headers['cache-control'], 'no-store');
    assert.equal(first.headers['referrer-policy'], 'no-referrer');
    assert.equal(first.headers.location, `/panel/web-hosting/${hosting.id}`);
    const cookie = [first.headers['set-cookie']].flat().find((c) => String(c).startsWith('hc_hosting='))!;
    assert.match(String(cookie), /^hc_hosting=[A-Za-z0-9_-]{43}; Max-Age=3600; Path=\/; HttpOnly; SameSite=Lax$/);
    const session = await t.database.db.selectFrom('hosting_page_sessions').selectAll().where('hosting_id', '=', hosting.id)
      .orderBy('created_at', 'desc').executeTakeFirstOrThrow();
    assert.equal(session.access, 'write');
    assert.equal(session.account_id, c.accountId);
    assert.ok(!String(cookie).includes(session.id), 'only the hash of the token is stored');

    const second = await open(url);
    assertError(second, 409, 'STATE_CONFLICT');
    assert.match(json(second).error.message, /already used; request a new one with GET \/web-hosting\/\{id\}\/login/);
    assert.equal(second.headers.location, undefined);
  });

  test('opened by many at once, it redirects exactly one of them', async () => {
    const url = await freshUrl();
    const answers = await Promise.all(Array.from({ length: 8 }, () => open(url)));
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [302, 409, 409, 409, 409, 409, 409, 409]);
  });

  test('a tampered or foreign link is 404: signature, ticket, expiry, sandbox flag, or a console link\'s signature', async () => {
    const url = await freshUrl();
    const flip = (s: string) => (s[0] === 'a' ? 'b' : 'a') + s.slice(1);
    assertError(await open(url, (u) => u.searchParams.set('signature', flip(u.searchParams.get('signature')!))), 404, 'RESOURCE_NOT_FOUND');
    assertError(await open(url, (u) => u.searchParams.set('signature', 'zz')), 404, 'RESOURCE_NOT_FOUND');
    assertError(await open(url, (u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600))), 404, 'RESOURCE_NOT_FOUND');
    assertError(await open(url, (u) => { u.pathname = u.pathname.replace(/\/([^/])([^/]*)$/, (_m, a: string, rest: string) => `/${a === 'A' ? 'B' : 'A'}${rest}`); }), 404, 'RESOURCE_NOT_FOUND');
    assertError(await open(url, (u) => u.searchParams.set('sandbox', '1')), 404, 'RESOURCE_NOT_FOUND');
    assertError(await open(url, (u) => u.searchParams.set('sandbox', '2')), 404, 'RESOURCE_NOT_FOUND');
    assertInvalid(await open(url, (u) => u.searchParams.delete('signature')), ['signature']);
    assertInvalid(await open(url, (u) => u.searchParams.set('expires', '1'.repeat(21))), ['expires']);
    // The very same ticket and expiry signed as a console link are not a login link.
    const key = await linkSigningKey(t.database.db);
    const u = new URL(url);
    const ticket = u.pathname.split('/').pop()!;
    const asConsole = signLink(key, { label: 'console-v1', name: 'console link', renew: '' }, ticket, new Date(Number(u.searchParams.get('expires')) * 1000 - 300_000), false);
    assert.equal(asConsole.query.get('expires'), u.searchParams.get('expires'));
    assertError(await call(t.app, 'GET', `${u.pathname}?${asConsole.query}`), 404, 'RESOURCE_NOT_FOUND');
    // A made-up ticket.
    assertError(await call(t.app, 'GET', `/v2/web-hosting-login/${newTicket()}?${u.searchParams}`), 404, 'RESOURCE_NOT_FOUND');
    // None of those spent the link.
    assert.equal((await open(url)).statusCode, 302);
  });

  test('an expired link is 409', async () => {
    const db = t.database.db;
    const ctx = {
      db, accountId: c.accountId, sandbox: false, now: new Date(Date.now() - 301_000),
      compute: noopCompute, hosting: createSimulatedPanel({ db, delayMs: 0 }), registrar: noopRegistrar, jobs: noopQueue, providerTimeoutMs: 2000,
    };
    const stale = await hostingLoginLink(ctx, hosting.id, await linkSigningKey(db), 'http://api.test', { access: 'write', subUserId: null });
    const res = await open(stale.loginUrl);
    assertError(res, 409, 'STATE_CONFLICT');
    assert.match(json(res).error.message, /This login link has expired; request a new one with GET \/web-hosting\/\{id\}\/login/);
  });

  test('HEAD checks the link without spending it: 204 (twice), then GET opens it; used 409, forged 404', async () => {
    const url = await freshUrl();
    for (let i = 0; i < 2; i++) {
      const head = await open(url, () => {}, 'HEAD');
      assert.equal(head.statusCode, 204, head.body);
      assert.equal(head.body, '');
      assert.equal(head.headers['cache-control'], 'no-store');
      assert.equal(head.headers.location, undefined);
      assert.equal(head.headers['set-cookie'], undefined, 'no session is opened');
    }
    assert.equal((await open(url)).statusCode, 302);
    assert.equal((await open(url, () => {}, 'HEAD')).statusCode, 409, 'used: as GET would say');
    assert.equal((await open(url, (u) => u.searchParams.set('signature', '0'.repeat(64)), 'HEAD')).statusCode, 404);
  });

  test('an account cancelled after the link was made: 409', async () => {
    const h = await activeHosting(t, c);
    const url = await freshUrl(h.id);
    assert.equal((await call(t.app, 'POST', `/v2/web-hosting/${h.id}/cancel`, { key: c.key, body: {} })).statusCode, 200);
    const res = await open(url);
    assertError(res, 409, 'STATE_CONFLICT');
    assert.match(json(res).error.message, /is cancelled/);
  });
});

describe('sandbox', () => {
  test('a test key gets a link with meta.sandbox and no record; it opens (200, no panel) without reaching the panel', async () => {
    const testKey = json(await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/api-keys`, { name: 'sandbox', ip_allowlist: ['127.0.0.1', '::1'], is_test: true })).data.key;
    const count = async (table: 'hosting_login_links' | 'hosting_page_sessions') =>
      Number((await t.database.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    const links = await count('hosting_login_links');
    const sessions = await count('hosting_page_sessions');
    const res = await getLogin(hosting.id, testKey);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json(res).meta.sandbox, true);
    const url = json(res).data.login_url;
    assert.equal(new URL(url).searchParams.get('sandbox'), '1');
    assert.equal(await count('hosting_login_links'), links);
    const opened = await open(url);
    assert.equal(opened.statusCode, 200, opened.body);
    assert.deepEqual(json(opened).data, { status: 'sandbox', message: 'Sandbox link: valid, but no control panel exists behind a test key.', sandbox: true });
    assert.equal(json(opened).meta.sandbox, true);
    assert.equal(opened.headers['cache-control'], 'no-store');
    assert.equal(await count('hosting_page_sessions'), sessions);
    assert.equal(opened.headers['set-cookie'], undefined);
    // Its sandbox flag is signed: dropped, the link is not a live one.
    assertError(await open(url, (u) => u.searchParams.delete('sandbox')), 404, 'RESOURCE_NOT_FOUND');
  });
});
