// GET /v2/web-hosting, GET /v2/web-hosting/{id}, POST …/renew and POST …/cancel: shapes, live disk
// usage that degrades to null, the money of renewals and refunds, the cancellation notice, and
// another account's ids (404 on every read, write and action).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { type Customer, type TestApp, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { BUSINESS, activeHosting, orderHosting, withPanelFault } from '../helpers/hosting.ts';
import { assertError, assertInvalid, assertLedgerExact, balanceCents } from '../helpers/server-extras.ts';
import type { Json } from '../helpers/servers.ts';

let t: TestApp;
let c: Customer;
let other: Customer;
let active: Json;

before(async () => {
  // A short provider deadline, so the slow-panel detail is quick to prove.
  t = await startApp({ worker: 'embedded', providerTimeoutMs: 300 });
  c = await createCustomer(t, { deposit: '500.00', email: `manage-${randomUUID().slice(0, 8)}@example.com` });
  other = await createCustomer(t, { deposit: '100.00' });
  active = await activeHosting(t, c);
});

const get = (path: string, key = c.key, query?: Record<string, string>) => call(t.app, 'GET', `/v2${path}`, { key, query });
const post = (path: string, body?: unknown, key = c.key, headers: Record<string, string> = {}) => call(t.app, 'POST', `/v2${path}`, { key, body, headers });
const notices = (accountId: string) => t.database.db.selectFrom('notifications').selectAll().where('account_id', '=', accountId).orderBy('id').execute();
const transactionsOf = async (cust: Customer) => json(await get('/billing/transactions?per_page=100', cust.key)).data;

describe('GET /web-hosting', () => {
  test('the caller\'s accounts only, newest first, paged, with a status filter; no live disk usage', async () => {
    const owner = await createCustomer(t, { deposit: '100.00' });
    const a = await activeHosting(t, owner);
    const b = await activeHosting(t, owner);
    const cancelled = await activeHosting(t, owner);
    assert.equal((await post(`/web-hosting/${cancelled.id}/cancel`, {}, owner.key)).statusCode, 200);
    await activeHosting(t, other);

    const res = await get('/web-hosting', owner.key);
    assert.equal(res.statusCode, 200, res.body);
    const { data, meta } = json(res);
    assert.deepEqual(data.map((h: Json) => h.id), [cancelled.id, b.id, a.id]);
    assert.deepEqual(meta.pagination, { page: 1, per_page: 25, total: 3, total_pages: 1 });
    const item = data[1];
    assert.deepEqual(Object.keys(item).sort(), ['billing', 'created_at', 'disk_usage', 'domain', 'id', 'plan', 'server', 'status']);
    // The detail adds its next charge (recurring billing); lists do not.
    const { next_charge: _next, ...bAsListed } = b;
    assert.deepEqual(item, { ...bAsListed, disk_usage: { used_mb: null, quota_mb: 10240 } });

    assert.deepEqual(json(await get('/web-hosting', owner.key, { status: 'active' })).data.map((h: Json) => h.id), [b.id, a.id]);
    assert.deepEqual(json(await get('/web-hosting', owner.key, { status: 'cancelled' })).data.map((h: Json) => h.id), [cancelled.id]);
    assert.equal(json(await get('/web-hosting', owner.key, { status: 'suspended' })).meta.pagination.total, 0);
    const page2 = json(await get('/web-hosting', owner.key, { page: '2', per_page: '2' }));
    assert.deepEqual(page2.data.map((h: Json) => h.id), [a.id]);
    assert.deepEqual(page2.meta.pagination, { page: 2, per_page: 2, total: 3, total_pages: 2 });
    const past = json(await get('/web-hosting', owner.key, { page: '9' }));
    assert.deepEqual([past.data, past.meta.pagination.total], [[], 3]);
  });

  test('bad filters and pages are 422 naming the parameter', async () => {
    assertInvalid(await get('/web-hosting', c.key, { status: 'deleted' }), ['status']);
    assertInvalid(await get('/web-hosting', c.key, { per_page: '101' }), ['per_page']);
    assertInvalid(await get('/web-hosting', c.key, { page: '0' }), ['page']);
    assertInvalid(await get('/web-hosting', c.key, { page: 'x' }), ['page']);
    assertInvalid(await get('/web-hosting', c.key, { status: 'act\u0000ive' }), ['status']);
    assertError(await call(t.app, 'GET', '/v2/web-hosting'), 401, 'AUTH_REQUIRED');
  });
});

describe('GET /web-hosting/{id}', () => {
  test('every field of the resource, with the disk used now from the panel', async () => {
    const res = await get(`/web-hosting/${active.id}`);
    assert.equal(res.statusCode, 200, res.body);
    const { data } = json(res);
    assert.deepEqual(Object.keys(data).sort(), ['billing', 'created_at', 'disk_usage', 'domain', 'id', 'next_charge', 'plan', 'server', 'status']);
    assert.equal(data.id, active.id);
    assert.deepEqual(data.next_charge.amount, { amount: '3.99', currency: 'USD' });
    assert.equal(data.next_charge.due_at, data.billing.next_billing_at);
    assert.equal(data.status, 'active');
    assert.deepEqual(data.plan, { id: 1, name: 'Web Starter' });
    assert.match(data.server.hostname, /\.panel\.hostcloud\.example$/);
    assert.equal(data.disk_usage.quota_mb, 10240);
    assert.ok(Number.isInteger(data.disk_usage.used_mb) && data.disk_usage.used_mb > 0 && data.disk_usage.used_mb <= 10240, String(data.disk_usage.used_mb));
    const panel = await t.database.db.selectFrom('sim_hosting_accounts').select(['domain', 'username', 'state']).where('domain', '=', active.domain).executeTakeFirstOrThrow();
    assert.equal(panel.state, 'active');
    assert.deepEqual(data.billing, { amount: '3.99', currency: 'USD', cycle: 'monthly', next_billing_at: active.billing.next_billing_at });
  });

  test('the panel down or slow: still 200, used_mb null, within the provider deadline', async () => {
    await withPanelFault(t, 'upstream_error', ['diskUsage'], async () => {
      const res = await get(`/web-hosting/${active.id}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(json(res).data.disk_usage, { used_mb: null, quota_mb: 10240 });
      assert.equal(json(res).data.status, 'active');
    });
    await withPanelFault(t, 'timeout', ['diskUsage'], async () => {
      const started = Date.now();
      const res = await get(`/web-hosting/${active.id}`);
      const took = Date.now() - started;
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(json(res).data.disk_usage.used_mb, null);
      assert.ok(took >= 250 && took < 2000, `answered after ${took} ms (deadline 300 ms)`);
    });
    assert.equal(typeof json(await get(`/web-hosting/${active.id}`)).data.disk_usage.used_mb, 'number', 'back once the panel is');
  });

  test('404 for another account\'s id, an unknown id and an id past the length limit is 422', async () => {
    assertError(await get(`/web-hosting/${active.id}`, other.key), 404, 'RESOURCE_NOT_FOUND');
    assertError(await get('/web-hosting/wh_doesnotexist0000'), 404, 'RESOURCE_NOT_FOUND');
    assertInvalid(await get(`/web-hosting/${'x'.repeat(65)}`), ['id']);
    assertInvalid(await get('/web-hosting/wh_%00'), ['id']);
  });
});

describe('POST /web-hosting/{id}/renew', () => {
  test('charges one cycle and moves next_billing_at one cycle; no body needed; Idempotency-Key replays', async () => {
    const h = await activeHosting(t, c, { package_id: BUSINESS, billing_cycle: 'yearly' });
    const before = await balanceCents(t, c);
    const res = await post(`/web-hosting/${h.id}/renew`);
    assert.equal(res.statusCode, 200, res.body);
    const { data } = json(res);
    assert.deepEqual(Object.keys(data).sort(), ['billing', 'charged', 'created_at', 'disk_usage', 'domain', 'id', 'plan', 'server', 'status']);
    assert.deepEqual(data.charged, { amount: '99.90', currency: 'USD' });
    assert.equal(data.status, 'active');
    const moved = new Date(h.billing.next_billing_at);
    moved.setUTCFullYear(moved.getUTCFullYear() + 1);
    assert.equal(data.billing.next_billing_at, moved.toISOString().replace('.000Z', 'Z'));
    assert.equal(await balanceCents(t, c), before - 9990);
    const [charge] = await transactionsOf(c);
    assert.equal(charge.type, 'withdraw');
    assert.match(charge.description, new RegExp(`^Web hosting ${h.domain.replace(/\./g, '\\.')} \\(${h.id}\\): renewal, one yearly cycle to ${data.billing.next_billing_at}, 99\\.90 USD$`));

    const key = randomUUID();
    const first = await post(`/web-hosting/${h.id}/renew`, {}, c.key, { 'idempotency-key': key });
    const again = await post(`/web-hosting/${h.id}/renew`, {}, c.key, { 'idempotency-key': key });
    assert.equal(again.statusCode, 200);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(json(again).data, json(first).data);
    assert.equal(await balanceCents(t, c), before - 2 * 9990, 'two renewals charged, the replay not');
    // The key belongs to that renewal: renewing another hosting account with it is another request.
    assertError(await post(`/web-hosting/${active.id}/renew`, {}, c.key, { 'idempotency-key': key }), 409, 'IDEMPOTENCY_KEY_CONFLICT');
    await assertLedgerExact(t, c);
  });

  test('parallel renewals each add their own cycle', async () => {
    const h = await activeHosting(t, c);
    const before = await balanceCents(t, c);
    const answers = await Promise.all(Array.from({ length: 4 }, () => post(`/web-hosting/${h.id}/renew`)));
    for (const a of answers) assert.equal(a.statusCode, 200, a.body);
    const final = json(await get(`/web-hosting/${h.id}`)).data.billing.next_billing_at;
    let expected = new Date(h.billing.next_billing_at);
    for (let i = 0; i < 4; i++) {
      const day = expected.getUTCDate();
      const d = new Date(expected);
      d.setUTCDate(1);
      d.setUTCMonth(d.getUTCMonth() + 1);
      d.setUTCDate(Math.min(day, new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate()));
      expected = d;
    }
    assert.equal(final, expected.toISOString().replace('.000Z', 'Z'));
    assert.equal(await balanceCents(t, c), before - 4 * 399);
  });

  test('409 for an account that is not active (pending, cancelled); 422 without the balance; nothing charged', async () => {
    const pending = await withPanelFault(t, 'upstream_error', ['createAccount'], async () => {
      const p = await orderHosting(t, c);
      const before = await balanceCents(t, c);
      const res = await post(`/web-hosting/${p.id}/renew`);
      assertError(res, 409, 'STATE_CONFLICT');
      assert.match(json(res).error.message, /is pending; only an active account can be renewed/);
      assert.equal(await balanceCents(t, c), before);
      return p;
    });
    await waitForOperation(t, c.key, pending.operation.id);

    const h = await activeHosting(t, c);
    assert.equal((await post(`/web-hosting/${h.id}/cancel`, {})).statusCode, 200);
    const before = await balanceCents(t, c);
    const res = await post(`/web-hosting/${h.id}/renew`);
    assertError(res, 409, 'STATE_CONFLICT');
    assert.match(json(res).error.message, /is cancelled/);
    await t.database.db.updateTable('web_hosting').set({ status: 'suspended' }).where('id', '=', pending.id).execute();
    assertError(await post(`/web-hosting/${pending.id}/renew`), 409, 'STATE_CONFLICT');
    assert.equal(await balanceCents(t, c), before);

    const poor = await createCustomer(t, { deposit: '4.00' });
    const cheap = await activeHosting(t, poor);
    const refused = await post(`/web-hosting/${cheap.id}/renew`, undefined, poor.key);
    assertError(refused, 422, 'INSUFFICIENT_BALANCE');
    assert.equal(json(await get(`/web-hosting/${cheap.id}`, poor.key)).data.billing.next_billing_at, cheap.billing.next_billing_at);
    assert.equal(await balanceCents(t, poor), 1);
  });

  test('404 for another account\'s id (never charged); a body with fields is 422', async () => {
    const before = await balanceCents(t, other);
    assertError(await post(`/web-hosting/${active.id}/renew`, {}, other.key), 404, 'RESOURCE_NOT_FOUND');
    assertError(await post('/web-hosting/wh_doesnotexist0000/renew'), 404, 'RESOURCE_NOT_FOUND');
    assert.equal(await balanceCents(t, other), before);
    assertInvalid(await post(`/web-hosting/${active.id}/renew`, { years: 1 }), ['years']);
    assertInvalid(await post(`/web-hosting/${active.id}/renew`, [1]), ['body']);
    assertInvalid(await post(`/web-hosting/${active.id}/renew`, {}, c.key, { 'idempotency-key': 'nope' }), ['Idempotency-Key']);
  });
});

describe('POST /web-hosting/{id}/cancel', () => {
  test('refund: true gives back the last charged cycle; the panel account is terminated; reason kept; no notice without send_email', async () => {
    const h = await activeHosting(t, c, { package_id: BUSINESS });
    assert.equal((await post(`/web-hosting/${h.id}/renew`)).statusCode, 200);
    const before = await balanceCents(t, c);
    const noticesBefore = (await notices(c.accountId)).length;
    const res = await post(`/web-hosting/${h.id}/cancel`, { refund: true, reason: 'Moving elsewhere' });
    assert.equal(res.statusCode, 200, res.body);
    const { data } = json(res);
    assert.deepEqual(Object.keys(data).sort(), ['billing', 'created_at', 'disk_usage', 'domain', 'id', 'operation', 'plan', 'refund', 'server', 'status']);
    assert.equal(data.status, 'cancelled');
    assert.deepEqual(data.refund, { amount: '9.99', currency: 'USD' });
    assert.equal(data.operation.type, 'hosting.cancel');
    assert.deepEqual(data.operation.resource, { type: 'web_hosting', id: h.id });
    assert.equal(await balanceCents(t, c), before + 999, 'one cycle back, not both');
    const [refund] = await transactionsOf(c);
    assert.equal(refund.type, 'refund');
    assert.match(refund.description, new RegExp(`^Refund: web hosting ${h.domain.replace(/\./g, '\\.')} \\(${h.id}\\) cancelled, its last monthly cycle$`));
    const row = await t.database.db.selectFrom('web_hosting').select(['cancel_reason', 'cancelled_at']).where('id', '=', h.id).executeTakeFirstOrThrow();
    assert.equal(row.cancel_reason, 'Moving elsewhere');
    assert.ok(row.cancelled_at);
    assert.equal((await notices(c.accountId)).length, noticesBefore, 'no notice without send_email');

    const op = await waitForOperation(t, c.key, data.operation.id);
    assert.equal(op.status, 'completed');
    assert.equal(op.detail, 'The control panel account was terminated');
    const panel = await t.database.db.selectFrom('sim_hosting_accounts').select('state').where('domain', '=', h.domain).executeTakeFirstOrThrow();
    assert.equal(panel.state, 'terminated');
    assert.equal(json(await get(`/web-hosting/${h.id}`)).data.status, 'cancelled');
    assert.equal(json(await get(`/web-hosting/${h.id}`)).data.disk_usage.used_mb, null);
    await assertLedgerExact(t, c);
  });

  test('refund: false (the default) refunds nothing; send_email queues one notice to the account, in the same transaction', async () => {
    const h = await activeHosting(t, c, { domain: 'bücher-laden.example' });
    const before = await balanceCents(t, c);
    const res = await post(`/web-hosting/${h.id}/cancel`, { send_email: true, reason: 'Too expensive' });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(json(res).data.refund, { amount: '0.00', currency: 'USD' });
    assert.equal(await balanceCents(t, c), before);
    const [notice] = (await notices(c.accountId)).filter((n) => n.body.includes(h.id));
    assert.ok(notice, 'a notice was queued');
    assert.equal(notice.kind, 'hosting.cancelled');
    assert.equal(notice.status, 'queued');
    assert.match(notice.to_email, /^manage-/);
    assert.equal(notice.subject, 'Your web hosting for bücher-laden.example has been cancelled');
    assert.match(notice.body, /has been cancelled/);
    assert.match(notice.body, /No refund was made\./);
    assert.match(notice.body, /Reason given: Too expensive/);
    const listed = json(await call(t.app, 'GET', `/admin/v1/notifications?account_id=${c.accountId}&kind=hosting.cancelled`, { headers: { authorization: `Bearer ${t.adminToken}` } }));
    assert.ok(listed.data.some((n: Json) => n.id === notice.id), 'the operator sees it');

    const withRefund = await activeHosting(t, c);
    await post(`/web-hosting/${withRefund.id}/cancel`, { send_email: true, refund: true });
    const [second] = (await notices(c.accountId)).filter((n) => n.body.includes(withRefund.id));
    assert.match(second!.body, /3\.99 USD, the last billing cycle, has been refunded/);
    assert.doesNotMatch(second!.body, /Reason given/);
    await waitForOperation(t, c.key, json(res).data.operation.id);
  });

  test('409: a cancelled account, and one still being provisioned (naming its operation)', async () => {
    const h = await activeHosting(t, c);
    assert.equal((await post(`/web-hosting/${h.id}/cancel`, { refund: true })).statusCode, 200);
    const before = await balanceCents(t, c);
    const twice = await post(`/web-hosting/${h.id}/cancel`, { refund: true });
    assertError(twice, 409, 'STATE_CONFLICT');
    assert.match(json(twice).error.message, /already cancelled/);
    assert.equal(await balanceCents(t, c), before, 'never refunded twice');

    await withPanelFault(t, 'upstream_error', ['createAccount'], async () => {
      const p = await orderHosting(t, c);
      const res = await post(`/web-hosting/${p.id}/cancel`, {});
      assertError(res, 409, 'STATE_CONFLICT');
      assert.match(json(res).error.message, new RegExp(`Operation ${p.operation.id} \\(hosting\\.create\\) is still running`));
    });
  });

  test('a suspended account can be cancelled', async () => {
    const h = await activeHosting(t, c);
    await t.database.db.updateTable('web_hosting').set({ status: 'suspended' }).where('id', '=', h.id).execute();
    const res = await post(`/web-hosting/${h.id}/cancel`, {});
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json(res).data.status, 'cancelled');
    await waitForOperation(t, c.key, json(res).data.operation.id);
  });

  test('the panel down: the cancellation stands at once; the termination is retried until the panel is back', async () => {
    const h = await activeHosting(t, c);
    const res = await withPanelFault(t, 'upstream_error', ['terminate'], async () => {
      const r = await post(`/web-hosting/${h.id}/cancel`, {});
      assert.equal(r.statusCode, 200, r.body);
      const deadline = Date.now() + 10_000;
      while ((await t.database.db.selectFrom('operations').select('attempts').where('id', '=', json(r).data.operation.id).executeTakeFirstOrThrow()).attempts < 1) {
        assert.ok(Date.now() < deadline);
        await new Promise((x) => setTimeout(x, 50));
      }
      assert.equal(json(await get(`/web-hosting/${h.id}`)).data.status, 'cancelled');
      return r;
    });
    const op = await waitForOperation(t, c.key, json(res).data.operation.id);
    assert.equal(op.status, 'completed', op.detail);
    const panel = await t.database.db.selectFrom('sim_hosting_accounts').select('state').where('domain', '=', h.domain).executeTakeFirstOrThrow();
    assert.equal(panel.state, 'terminated');
  });

  test('bad input is 422 naming the field; another account\'s id is 404 and changes nothing', async () => {
    assertInvalid(await post(`/web-hosting/${active.id}/cancel`, { refund: 'yes' }), ['refund']);
    assertInvalid(await post(`/web-hosting/${active.id}/cancel`, { send_email: 1 }), ['send_email']);
    assertInvalid(await post(`/web-hosting/${active.id}/cancel`, { reason: 'x'.repeat(501) }), ['reason']);
    assertInvalid(await post(`/web-hosting/${active.id}/cancel`, { reason: 'bad\u0000reason' }), ['reason']);
    assertInvalid(await post(`/web-hosting/${active.id}/cancel`, { reason: 42 }), ['reason']);
    assertInvalid(await post(`/web-hosting/${active.id}/cancel`, { delete_files: true }), ['delete_files']);
    const before = await balanceCents(t, other);
    assertError(await post(`/web-hosting/${active.id}/cancel`, { refund: true, send_email: true }, other.key), 404, 'RESOURCE_NOT_FOUND');
    assertError(await post('/web-hosting/wh_doesnotexist0000/cancel', {}), 404, 'RESOURCE_NOT_FOUND');
    assert.equal(await balanceCents(t, other), before);
    assert.equal((await notices(other.accountId)).length, 0);
    assert.equal(json(await get(`/web-hosting/${active.id}`)).data.status, 'active');
  });
});
