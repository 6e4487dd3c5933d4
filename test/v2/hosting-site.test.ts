// The hosting page's API with the simulated panel: GET /v2/web-hosting/{id}/site, the SFTP
// password, databases (create within the package's limit, reset a password, drop), each with its
// errors, another account's ids (404), read-only callers (403), a test key (changes nothing), and
// the page's own session — the cookie a used login link sets — for that account alone.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { BUSINESS, activeHosting, orderHosting, withPanelFault } from '../helpers/hosting.ts';
import { PanelClient } from '../helpers/panel.ts';
import { assertError, assertInvalid } from '../helpers/server-extras.ts';
import type { Json } from '../helpers/servers.ts';

let t: TestApp;
let c: Customer;
let other: Customer;
let hosting: Json;
let starter: Json;
/** A key of c's account with hosting:read only, and one of a sub-user granted hosting:read only. */
let readerKey: string;
let subReaderKey: string;
let subUserId: number;

const site = (id = hosting.id, key = c.key) => call(t.app, 'GET', `/v2/web-hosting/${id}/site`, { key });
const sftp = (id = hosting.id, key = c.key) => call(t.app, 'POST', `/v2/web-hosting/${id}/sftp-password`, { key, body: {} });
const createDb = (body: unknown, id = hosting.id, key = c.key) => call(t.app, 'POST', `/v2/web-hosting/${id}/databases`, { key, body });
const resetDb = (db: string, id = hosting.id, key = c.key) => call(t.app, 'POST', `/v2/web-hosting/${id}/databases/${db}/password`, { key, body: {} });
const dropDb = (db: string, id = hosting.id, key = c.key) => call(t.app, 'DELETE', `/v2/web-hosting/${id}/databases/${db}`, { key });

async function newKey(body: Record<string, unknown>): Promise<string> {
  const res = await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/api-keys`, { name: 'k', ip_allowlist: ['127.0.0.1', '::1'], ...body });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data.key;
}

before(async () => {
  t = await startApp({ worker: 'embedded' });
  c = await createCustomer(t, { deposit: '200.00' });
  other = await createCustomer(t, { deposit: '50.00' });
  hosting = await activeHosting(t, c, { package_id: BUSINESS });
  starter = await activeHosting(t, c);
  readerKey = await newKey({ scopes: ['hosting:read'] });
  const sub = await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/sub-users`, { email: `reader-${Date.now()}@example.com`, first_name: 'Read', last_name: 'Only' });
  assert.equal(sub.statusCode, 201, sub.body);
  subUserId = json(sub).data.id;
  await t.database.db.updateTable('sub_users').set({ status: 'active', permissions: ['hosting:read'] }).where('id', '=', subUserId).execute();
  subReaderKey = await newKey({ sub_user_id: subUserId });
});

const userOf = async (h: Json) => (await t.database.db.selectFrom('web_hosting').select('username').where('id', '=', h.id).executeTakeFirstOrThrow()).username!;

describe('GET /web-hosting/{id}/site', () => {
  test('200: domain, URL, document root, PHP, SFTP, disk and databases with the limit; never a password', async () => {
    const res = await site();
    assert.equal(res.statusCode, 200, res.body);
    const d = json(res).data;
    const user = await userOf(hosting);
    assert.deepEqual(Object.keys(d).sort(), ['database_limit', 'databases', 'disk_usage', 'document_root', 'domain', 'id', 'php_version', 'sftp', 'site_url', 'status']);
    assert.equal(d.id, hosting.id);
    assert.equal(d.domain, hosting.domain);
    assert.equal(d.status, 'active');
    assert.equal(d.site_url, `https://${hosting.domain}/`);
    assert.equal(d.document_root, `/home/${user}/public_html`);
    assert.deepEqual(d.sftp, { host: hosting.server.hostname, port: 22, username: user });
    assert.equal(d.php_version, '8.2');
    assert.equal(d.disk_usage.quota_mb, 51200);
    assert.equal(typeof d.disk_usage.used_mb, 'number');
    assert.equal(d.disk_usage.enforced, true);
    assert.deepEqual(d.databases, [{ name: `${user}_main`, size_mb: 0 }]);
    assert.equal(d.database_limit, 10, 'Web Business allows 10 domains, so 10 databases');
    assert.ok(!/password/i.test(res.body));
  });

  test("404 for another account's id and an unknown one; 422 for a malformed id; 401 without a key", async () => {
    assertError(await site(hosting.id, other.key), 404, 'RESOURCE_NOT_FOUND');
    assertError(await site('wh_doesnotexist0000'), 404, 'RESOURCE_NOT_FOUND');
    assertInvalid(await site('x'.repeat(65)), ['id']);
    assertError(await call(t.app, 'GET', `/v2/web-hosting/${hosting.id}/site`), 401, 'AUTH_REQUIRED');
  });

  test('read-only callers read it: a hosting:read key and a sub-user with hosting:read', async () => {
    assert.equal((await site(hosting.id, readerKey)).statusCode, 200);
    assert.equal((await site(hosting.id, subReaderKey)).statusCode, 200);
  });

  test('502 when the panel fails', async () => {
    await withPanelFault(t, 'upstream_error', ['siteInfo'], async () => {
      const res = await site();
      assertError(res, 502, 'UPSTREAM_ERROR');
      assert.match(json(res).error.message, /hosting panel failed/);
    });
  });
});

describe('writes', () => {
  test('POST /sftp-password: a new password each time, answered once and never cached', async () => {
    const a = await sftp();
    assert.equal(a.statusCode, 200, a.body);
    assert.equal(a.headers['cache-control'], 'no-store');
    const d = json(a).data;
    assert.deepEqual(Object.keys(d).sort(), ['password', 'username']);
    assert.equal(d.username, await userOf(hosting));
    assert.match(d.password, /^[A-Za-z0-9]{20}$/);
    const b = json(await sftp()).data;
    assert.notEqual(b.password, d.password);
    assertInvalid(await call(t.app, 'POST', `/v2/web-hosting/${hosting.id}/sftp-password`, { key: c.key, body: { password: 'mine' } }), ['password']);
  });

  test('POST /databases: 200 with its credentials, listed without a password; a second of the name is 409', async () => {
    const user = await userOf(hosting);
    const res = await createDb({ name: 'shop' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['cache-control'], 'no-store');
    const d = json(res).data;
    assert.deepEqual(d, { name: `${user}_shop`, username: `${user}_shop`, host: 'localhost', password: d.password });
    assert.match(d.password, /^[A-Za-z0-9]{20}$/);
    const listed = json(await site()).data.databases.map((x: Json) => x.name);
    assert.deepEqual(listed, [`${user}_main`, `${user}_shop`]);
    const dup = await createDb({ name: 'shop' });
    assertError(dup, 409, 'STATE_CONFLICT');
    assert.match(json(dup).error.message, /exists already/);
  });

  test('POST /databases: bad names are 422 naming name', async () => {
    for (const body of [{ name: 'Shop' }, { name: 'my-shop' }, { name: 'a'.repeat(17) }, { name: '' }, {}, { name: 'ok', extra: 1 }, { name: 5 }]) {
      const res = await createDb(body);
      assert.equal(res.statusCode, 422, `${JSON.stringify(body)}: ${res.body}`);
      assert.equal(json(res).error.code, 'VALIDATION_FAILED');
    }
    assertInvalid(await createDb({ name: 'Shop' }), ['name']);
  });

  test("POST /databases: over the package's limit is 422 QUOTA_EXCEEDED (Web Starter: one, its main)", async () => {
    const res = await createDb({ name: 'extra' }, starter.id);
    assertError(res, 422, 'QUOTA_EXCEEDED');
    assert.match(json(res).error.message, /allows 1 database; drop one/);
  });

  test('reset a database password; drop it; then both are 404', async () => {
    const user = await userOf(hosting);
    const db = json(await createDb({ name: 'blog' })).data.name;
    const r = await resetDb(db);
    assert.equal(r.statusCode, 200, r.body);
    assert.equal(json(r).data.name, db);
    assert.match(json(r).data.password, /^[A-Za-z0-9]{20}$/);
    const dropped = await dropDb(db);
    assert.equal(dropped.statusCode, 200, dropped.body);
    assert.deepEqual(json(dropped).data, { name: db, dropped: true });
    assert.ok(!json(await site()).data.databases.some((x: Json) => x.name === db));
    assertError(await resetDb(db), 404, 'RESOURCE_NOT_FOUND');
    assertError(await dropDb(db), 404, 'RESOURCE_NOT_FOUND');
    assertError(await resetDb(`${user}_nothere`), 404, 'RESOURCE_NOT_FOUND');
    // Another user's prefix is just a database the account does not have.
    assertError(await dropDb('someoneelse_main'), 404, 'RESOURCE_NOT_FOUND');
    for (const bad of ['NoUnderscore', 'a_B', `${user}_${'x'.repeat(17)}`, '_main']) assertInvalid(await resetDb(bad), ['database']);
  });

  test("another account's hosting is 404 on every write, and nothing changes", async () => {
    const user = await userOf(hosting);
    assertError(await sftp(hosting.id, other.key), 404, 'RESOURCE_NOT_FOUND');
    assertError(await createDb({ name: 'theirs' }, hosting.id, other.key), 404, 'RESOURCE_NOT_FOUND');
    assertError(await resetDb(`${user}_main`, hosting.id, other.key), 404, 'RESOURCE_NOT_FOUND');
    assertError(await dropDb(`${user}_main`, hosting.id, other.key), 404, 'RESOURCE_NOT_FOUND');
    assert.ok(json(await site()).data.databases.some((x: Json) => x.name === `${user}_main`));
  });

  test('read-only callers are refused every write (403), a sub-user with hosting:read included', async () => {
    const user = await userOf(hosting);
    for (const key of [readerKey, subReaderKey]) {
      assertError(await sftp(hosting.id, key), 403, 'AUTH_SCOPE_INSUFFICIENT');
      assertError(await createDb({ name: 'nope' }, hosting.id, key), 403, 'AUTH_SCOPE_INSUFFICIENT');
      assertError(await resetDb(`${user}_main`, hosting.id, key), 403, 'AUTH_SCOPE_INSUFFICIENT');
      assertError(await dropDb(`${user}_main`, hosting.id, key), 403, 'AUTH_SCOPE_INSUFFICIENT');
    }
    assert.ok(!json(await site()).data.databases.some((x: Json) => x.name === `${user}_nope`));
  });

  test('a test key changes nothing: plausible answers, no database made or dropped', async () => {
    const testKey = await newKey({ is_test: true });
    const user = await userOf(hosting);
    const before = json(await site()).data.databases;
    const s = await site(hosting.id, testKey);
    assert.equal(s.statusCode, 200, s.body);
    assert.equal(json(s).meta.sandbox, true);
    assert.equal(json(s).data.domain, hosting.domain);
    assert.equal(json(await sftp(hosting.id, testKey)).data.password, 'sandbox-password-not-set');
    assert.equal((await createDb({ name: 'sandboxed' }, hosting.id, testKey)).statusCode, 200);
    assert.equal((await dropDb(`${user}_main`, hosting.id, testKey)).statusCode, 200);
    assertInvalid(await createDb({ name: 'BAD' }, hosting.id, testKey), ['name']);
    assert.deepEqual(json(await site()).data.databases, before);
  });

  test('state: pending 409 everywhere; suspended reads but may not write; cancelled 409', async () => {
    await withPanelFault(t, 'upstream_error', ['createAccount'], async () => {
      const pending = await orderHosting(t, c);
      assertError(await site(pending.id), 409, 'STATE_CONFLICT');
      assertError(await sftp(pending.id), 409, 'STATE_CONFLICT');
      return pending;
    }).then((p) => waitForOperation(t, c.key, p.operation.id));
    const suspended = await activeHosting(t, c);
    await t.database.db.updateTable('web_hosting').set({ status: 'suspended' }).where('id', '=', suspended.id).execute();
    assert.equal(json(await site(suspended.id)).data.status, 'suspended');
    const refused = await sftp(suspended.id);
    assertError(refused, 409, 'STATE_CONFLICT');
    assert.match(json(refused).error.message, /is suspended; only an active account can change its passwords and databases/);
    assertError(await createDb({ name: 'x' }, suspended.id), 409, 'STATE_CONFLICT');
    const cancelled = await activeHosting(t, c);
    assert.equal((await call(t.app, 'POST', `/v2/web-hosting/${cancelled.id}/cancel`, { key: c.key, body: {} })).statusCode, 200);
    assertError(await site(cancelled.id), 409, 'STATE_CONFLICT');
  });

  test('passwords appear in no event', async () => {
    const pw = json(await sftp()).data.password;
    const dbPw = json(await createDb({ name: 'evt' })).data.password;
    const rows = await t.database.db.selectFrom('events').selectAll().where('account_id', '=', c.accountId).execute();
    const all = JSON.stringify(rows);
    assert.ok(!all.includes(pw) && !all.includes(dbPw));
  });
});

describe('the hosting page session (a used login link)', () => {
  async function openLink(key: string, id = hosting.id): Promise<PanelClient> {
    const res = await call(t.app, 'GET', `/v2/web-hosting/${id}/login`, { key });
    assert.equal(res.statusCode, 200, res.body);
    const u = new URL(json(res).data.login_url);
    const browser = new PanelClient(t);
    const opened = await browser.request('GET', u.pathname + u.search);
    assert.equal(opened.statusCode, 302, opened.body);
    assert.equal(opened.headers.location, `/panel/web-hosting/${id}`);
    return browser;
  }

  async function pageSession(b: PanelClient, id = hosting.id) {
    const res = await b.request('GET', `/panel/api/hosting-page/${id}`);
    if (res.statusCode === 200) b.csrf = json(res).data.csrf_token;
    return res;
  }

  test("the owner's link: the page reads and writes this account with its CSRF token, nothing else", async () => {
    const b = await openLink(c.key);
    const ps = await pageSession(b);
    assert.equal(ps.statusCode, 200, ps.body);
    assert.equal(json(ps).data.access, 'write');
    assert.equal(json(ps).data.hosting_id, hosting.id);
    const s = await b.request('GET', `/v2/web-hosting/${hosting.id}/site`);
    assert.equal(s.statusCode, 200, s.body);
    assert.equal(json(s).data.domain, hosting.domain);
    const reset = await b.request('POST', `/v2/web-hosting/${hosting.id}/sftp-password`, {});
    assert.equal(reset.statusCode, 200, reset.body);
    assertError(await b.request('POST', `/v2/web-hosting/${hosting.id}/sftp-password`, {}, { csrf: false }), 403, 'CSRF_TOKEN_INVALID');
    // The account's other hosting, its other resources, the panel's own API: not through this cookie.
    assertError(await b.request('GET', `/v2/web-hosting/${starter.id}/site`), 404, 'RESOURCE_NOT_FOUND');
    assertError(await b.request('POST', `/v2/web-hosting/${starter.id}/sftp-password`, {}), 404, 'RESOURCE_NOT_FOUND');
    assertError(await b.request('GET', `/v2/web-hosting/${hosting.id}`), 401, 'AUTH_REQUIRED');
    assertError(await b.request('GET', '/v2/servers'), 401, 'AUTH_REQUIRED');
    assert.equal((await b.me()).signed_in, false);
    assertError(await pageSession(b, starter.id), 404, 'RESOURCE_NOT_FOUND');
    // Leaving ends it.
    assert.equal((await b.request('DELETE', `/panel/api/hosting-page/${hosting.id}`)).statusCode, 200);
    assertError(await b.request('GET', `/v2/web-hosting/${hosting.id}/site`), 401, 'AUTH_REQUIRED');
    assertError(await pageSession(b), 404, 'RESOURCE_NOT_FOUND');
  });

  test("a reader's link opens the page read-only: writes are 403", async () => {
    const b = await openLink(subReaderKey);
    const ps = await pageSession(b);
    assert.equal(json(ps).data.access, 'read');
    assert.equal((await b.request('GET', `/v2/web-hosting/${hosting.id}/site`)).statusCode, 200);
    const refused = await b.request('POST', `/v2/web-hosting/${hosting.id}/sftp-password`, {});
    assertError(refused, 403, 'AUTH_SCOPE_INSUFFICIENT');
    assert.match(json(refused).error.message, /read-only/);
    assertError(await b.request('POST', `/v2/web-hosting/${hosting.id}/databases`, { name: 'nope' }), 403, 'AUTH_SCOPE_INSUFFICIENT');
  });

  test('the session ends with its sub-user: deactivated, the page is gone', async () => {
    const sub = await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/sub-users`, { email: `w-${Date.now()}@example.com`, first_name: 'W', last_name: 'R' });
    const id = json(sub).data.id;
    await t.database.db.updateTable('sub_users').set({ status: 'active', permissions: ['hosting:read', 'hosting:write'] }).where('id', '=', id).execute();
    const b = await openLink(await newKey({ sub_user_id: id }));
    await pageSession(b);
    assert.equal((await b.request('POST', `/v2/web-hosting/${hosting.id}/sftp-password`, {})).statusCode, 200);
    // Losing hosting:write makes it read-only; deactivation ends it.
    await t.database.db.updateTable('sub_users').set({ permissions: ['hosting:read'] }).where('id', '=', id).execute();
    assertError(await b.request('POST', `/v2/web-hosting/${hosting.id}/sftp-password`, {}), 403, 'AUTH_SCOPE_INSUFFICIENT');
    await t.database.db.updateTable('sub_users').set({ status: 'inactive' }).where('id', '=', id).execute();
    assertError(await b.request('GET', `/v2/web-hosting/${hosting.id}/site`), 401, 'AUTH_REQUIRED');
  });

  test('a forged cookie opens nothing', async () => {
    const b = new PanelClient(t);
    b.cookies.set('hc_hosting', 'A'.repeat(43));
    assertError(await b.request('GET', `/v2/web-hosting/${hosting.id}/site`), 401, 'AUTH_REQUIRED');
    assertError(await pageSession(b), 404, 'RESOURCE_NOT_FOUND');
  });
});
