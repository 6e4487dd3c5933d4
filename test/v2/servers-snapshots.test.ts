// GET/POST /v2/servers/{id}/snapshots: the billable snapshot (first month charged with the row,
// refunded if it finally fails), its errors in the API's check order (docs/architecture.md, "Check order"), idempotency, the sandbox, and
// servers created from a snapshot.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type Customer, type TestApp, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { activeServer, serverBody } from '../helpers/servers.ts';
import { assertError, assertInvalid, assertLedgerExact, balanceCents, setFault, withFault, withPendingServer } from '../helpers/server-extras.ts';

let t: TestApp;
let c: Customer;
let other: Customer;
let server: { id: string; specs: object };

before(async () => {
  t = await startApp({ worker: 'embedded' });
  c = await createCustomer(t, { deposit: '500.00' });
  other = await createCustomer(t, { deposit: '100.00' });
  server = await activeServer(t, c, { plan_id: 2 });
});

const url = (id = server.id) => `/v2/servers/${id}/snapshots`;
const post = (body: unknown, key = c.key, id = server.id, headers: Record<string, string> = {}) => call(t.app, 'POST', url(id), { key, body, headers });
const list = async (key = c.key, id = server.id) => json(await call(t.app, 'GET', url(id), { key }));

describe('POST /servers/{id}/snapshots', () => {
  test('201 creating with its queued operation; the first month (1.50) is charged now', async () => {
    const before = await balanceCents(t, c);
    const res = await post({ name: 'before-upgrade' });
    assert.equal(res.statusCode, 201, res.body);
    const body = json(res);
    const { operation, ...snap } = body.data;
    assert.deepEqual(Object.keys(snap).sort(), ['created_at', 'id', 'name', 'status']);
    assert.ok(Number.isInteger(snap.id));
    assert.equal(snap.name, 'before-upgrade');
    assert.equal(snap.status, 'creating');
    assert.match(snap.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(operation.type, 'server.snapshot');
    assert.equal(operation.status, 'queued');
    assert.deepEqual(operation.resource, { type: 'server', id: server.id });
    assert.equal(body.meta.sandbox, undefined);
    assert.equal(await balanceCents(t, c), before - 150);
    const tx = json(await call(t.app, 'GET', '/v2/billing/transactions', { key: c.key, query: { type: 'withdraw' } })).data[0];
    assert.equal(tx.amount.amount, '1.50');
    assert.match(tx.description, /before-upgrade/);

    const done = await waitForOperation(t, c.key, operation.id);
    assert.equal(done.status, 'completed', done.detail);
    const listed = (await list()).data.find((s: { id: number }) => s.id === snap.id);
    assert.deepEqual(Object.keys(listed).sort(), ['created_at', 'id', 'name', 'size_gb', 'status']);
    assert.equal(listed.status, 'available');
    assert.equal(typeof listed.size_gb, 'number');
    assert.ok(listed.size_gb > 0 && listed.size_gb <= 80, `size ${listed.size_gb} within the 80 GB disk`);
    await assertLedgerExact(t, c);
  });

  test('bad input is 422 naming the field, checked before the balance', async () => {
    const broke = await createCustomer(t, { deposit: '15.00' });
    const s = await activeServer(t, broke, { plan_id: 2 });
    for (const [body, field] of [
      [{}, 'name'], [{ name: '' }, 'name'], [{ name: 'x'.repeat(101) }, 'name'], [{ name: 7 }, 'name'],
      [{ name: '   ' }, 'name'], [{ name: 'ok', size: 1 }, 'size'], [{ name: null }, 'name'],
    ] as const) {
      assertInvalid(await post(body, broke.key, s.id), [field]);
    }
    assertError(await post({ name: 'x'.repeat(100) }, broke.key, s.id), 422, 'INSUFFICIENT_BALANCE');
    assert.deepEqual((await list(broke.key, s.id)).data, [], 'nothing was written');
    assert.equal(await balanceCents(t, broke), 0);
    await assertLedgerExact(t, broke);
  });

  test("404 for an unknown server and for another account's, on both routes; nothing charged", async () => {
    const before = await balanceCents(t, other);
    assertError(await post({ name: 'x' }, other.key), 404, 'RESOURCE_NOT_FOUND');
    assertError(await call(t.app, 'GET', url(), { key: other.key }), 404, 'RESOURCE_NOT_FOUND');
    assertError(await post({ name: 'x' }, c.key, 'srv_doesnotexist0000'), 404, 'RESOURCE_NOT_FOUND');
    assertError(await call(t.app, 'GET', url('srv_doesnotexist0000'), { key: c.key }), 404, 'RESOURCE_NOT_FOUND');
    assert.equal(await balanceCents(t, other), before);
  });

  test('409 STATE_CONFLICT for a pending server, even without the balance to pay', async () => {
    const poor = await createCustomer(t, { deposit: '5.00' });
    await withPendingServer(t, poor, async (pending) => {
      assertError(await post({ name: 'x' }, poor.key, pending.id), 409, 'STATE_CONFLICT');
    });
  });

  test('409 STATE_CONFLICT while another operation runs on the server; the loser pays nothing', async () => {
    const s = await activeServer(t, c);
    // The first snapshot fails once and waits for its retry, so it is still running.
    await setFault(t, { mode: 'upstream_error', calls: ['snapshot'], remaining: 1 });
    const first = await post({ name: 'one' }, c.key, s.id);
    assert.equal(first.statusCode, 201, first.body);
    const before = await balanceCents(t, c);
    const second = await post({ name: 'two' }, c.key, s.id);
    assertError(second, 409, 'STATE_CONFLICT');
    assert.match(json(second).error.message, new RegExp(`^Operation ${json(first).data.operation.id} \\(server\\.snapshot\\) is still running on ${s.id}`));
    assert.equal(await balanceCents(t, c), before);
    // Meanwhile the list shows the first one creating, without a size.
    const creating = (await list(c.key, s.id)).data;
    assert.equal(creating.length, 1);
    assert.equal(creating[0].status, 'creating');
    assert.equal(creating[0].size_gb, null);
    const done = await waitForOperation(t, c.key, json(first).data.operation.id);
    assert.equal(done.status, 'completed', done.detail);
    assert.equal((await list(c.key, s.id)).data[0].status, 'available');
  });

  test('a snapshot that finally fails is removed and refunded', async () => {
    const s = await activeServer(t, c);
    const before = await balanceCents(t, c);
    const op = await withFault(t, 'capacity_unavailable', ['snapshot'], async () => {
      const res = await post({ name: 'doomed' }, c.key, s.id);
      assert.equal(res.statusCode, 201, res.body);
      return waitForOperation(t, c.key, json(res).data.operation.id);
    });
    assert.equal(op.status, 'failed');
    assert.match(op.detail, /capacity/i);
    assert.deepEqual((await list(c.key, s.id)).data, []);
    assert.equal(await balanceCents(t, c), before);
    const refund = json(await call(t.app, 'GET', '/v2/billing/transactions', { key: c.key, query: { type: 'refund' } })).data[0];
    assert.equal(refund.amount.amount, '1.50');
    assert.match(refund.description, /doomed/);
    await assertLedgerExact(t, c);
  });

  test('Idempotency-Key: the same request is replayed without a second charge; another body is 409', async () => {
    const s = await activeServer(t, c);
    const headers = { 'idempotency-key': '6f0c1e52-8a8e-4a51-9d84-3c1a0b9f7e21' };
    const before = await balanceCents(t, c);
    const a = await post({ name: 'nightly' }, c.key, s.id, headers);
    assert.equal(a.statusCode, 201, a.body);
    await waitForOperation(t, c.key, json(a).data.operation.id);
    const b = await post({ name: 'nightly' }, c.key, s.id, headers);
    assert.equal(b.statusCode, 201, b.body);
    assert.equal(b.headers['idempotent-replayed'], 'true');
    assert.deepEqual(json(b).data, json(a).data);
    assert.equal(await balanceCents(t, c), before - 150);
    assertError(await post({ name: 'other' }, c.key, s.id, headers), 409, 'IDEMPOTENCY_KEY_CONFLICT');
    assertInvalid(await post({ name: 'x' }, c.key, s.id, { 'idempotency-key': 'not-a-uuid' }), ['Idempotency-Key']);
    assert.equal((await list(c.key, s.id)).data.length, 1);
  });

  test('sandbox: 201 with meta.sandbox, nothing stored, nothing charged', async () => {
    // Another account's test key sees no such server either.
    assertError(await post({ name: 'x' }, (await createCustomer(t, { isTest: true })).key), 404, 'RESOURCE_NOT_FOUND');
    const test = await testKeyFor(c);
    const before = await balanceCents(t, c);
    const count = (await list()).meta.pagination.total;
    const res = await post({ name: 'sandboxed' }, test);
    assert.equal(res.statusCode, 201, res.body);
    const body = json(res);
    assert.equal(body.meta.sandbox, true);
    assert.equal(body.data.status, 'creating');
    const op = json(await call(t.app, 'GET', `/v2/operations/${body.data.operation.id}`, { key: test })).data;
    assert.equal(op.status, 'completed');
    assert.equal((await list()).meta.pagination.total, count);
    assert.equal(await balanceCents(t, c), before);
    const listed = await list(test);
    assert.equal(listed.meta.sandbox, true);
    assert.equal(listed.meta.pagination.total, count);
  });
});

describe('GET /servers/{id}/snapshots', () => {
  test('paged, newest first; bad paging is 422', async () => {
    const all = await list();
    assert.ok(all.data.length >= 1);
    assert.deepEqual(Object.keys(all.meta.pagination).sort(), ['page', 'per_page', 'total', 'total_pages']);
    const ids = all.data.map((s: { id: number }) => s.id);
    assert.deepEqual(ids, [...ids].sort((a, b) => b - a));
    assertInvalid(await call(t.app, 'GET', url(), { key: c.key, query: { per_page: '101' } }), ['per_page']);
  });
});

describe('servers from a snapshot', () => {
  test('an available snapshot gives a server of its size; a creating one or another account’s is 422 SOURCE_NOT_FOUND', async () => {
    const fromSource = (id: number, key = c.key) => call(t.app, 'POST', '/v2/servers', {
      key, body: serverBody({ plan_id: undefined, os_version_id: undefined, source: { snapshot_id: id } }),
    });
    await setFault(t, { mode: 'upstream_error', calls: ['snapshot'], remaining: 1 });
    const res = await post({ name: 'golden' });
    assert.equal(res.statusCode, 201, res.body);
    const snap = json(res).data;
    const early = await fromSource(snap.id);
    assertError(early, 422, 'SOURCE_NOT_FOUND');
    assert.equal(json(early).error.errors[0].field, 'source.snapshot_id');
    assert.equal((await waitForOperation(t, c.key, snap.operation.id)).status, 'completed');

    assertError(await fromSource(snap.id, other.key), 422, 'SOURCE_NOT_FOUND');
    const made = await fromSource(snap.id);
    assert.equal(made.statusCode, 201, made.body);
    const copy = json(made).data;
    assert.deepEqual(copy.specs, server.specs);
    assert.equal(copy.plan, null);
    const op = await waitForOperation(t, c.key, copy.operation.id);
    assert.equal(op.status, 'completed', op.detail);
    await assertLedgerExact(t, c);
  });
});

async function testKeyFor(customer: Customer): Promise<string> {
  const res = await call(t.app, 'POST', `/admin/v1/accounts/${customer.accountId}/api-keys`, {
    headers: { authorization: `Bearer ${t.adminToken}` },
    body: { name: 'sandbox', ip_allowlist: ['127.0.0.1', '::1'], is_test: true },
  });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data.key;
}
