// DELETE /v2/servers/{id} (refund of the unused hours, gone everywhere, machine destroyed by the
// worker) and PATCH /v2/servers/{id} (rename).
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { formatCents, prorate } from '../../src/core/money.ts';
import { cycleHours } from '../../src/core/servers/rules.ts';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { assertError, assertLedger, balanceCents, holdBusy, ledgerRows, serverRow } from '../helpers/server-actions.ts';
import { activeServer, createServer } from '../helpers/servers.ts';

let t: TestApp;
let c: Customer;
let other: Customer;

before(async () => {
  t = await startApp({ worker: 'embedded' });
  c = await createCustomer(t, { deposit: '300.00' });
  other = await createCustomer(t, { deposit: '20.00' });
});

const del = (id: string, key = c.key) => call(t.app, 'DELETE', `/v2/servers/${id}`, { key });
const rename = (id: string, body: unknown, key = c.key) => call(t.app, 'PATCH', `/v2/servers/${id}`, { key, body });

test('delete: refund of the unused hours, the new balance, then 404 and out of every list', async () => {
  const s = await activeServer(t, c, { name: 'gone.example.com', ipv4_count: 2 });
  const row = await serverRow(t, s.id);
  assert.equal(row.price_cents, 800, 'Cloud S + one extra IPv4');
  const before = await balanceCents(t, c.accountId);
  const res = await del(s.id);
  assert.equal(res.statusCode, 200, res.body);
  const { period, remaining } = cycleHours(row.period_started_at, row.next_billing_at, new Date());
  const refund = prorate(800, remaining, period);
  assert.ok(refund > 0 && refund < 800);
  const body = json(res);
  assert.deepEqual(body.data, {
    id: s.id, status: 'deleted',
    refund: { amount: formatCents(refund), currency: 'USD' },
    balance: { amount: formatCents(before + refund), currency: 'USD' },
  });
  assert.equal(await balanceCents(t, c.accountId), before + refund);
  const rows = await ledgerRows(t, c.accountId, `(${s.id}) deleted`);
  assert.deepEqual(rows.map((r) => [r.type, r.amount_cents]), [['refund', refund]]);
  await assertLedger(t, c.accountId);

  assertError(await call(t.app, 'GET', `/v2/servers/${s.id}`, { key: c.key }), 404, 'RESOURCE_NOT_FOUND');
  assertError(await del(s.id), 404, 'RESOURCE_NOT_FOUND');
  assertError(await rename(s.id, { name: 'x' }), 404, 'RESOURCE_NOT_FOUND');
  assertError(await call(t.app, 'POST', `/v2/servers/${s.id}/actions/reboot`, { key: c.key }), 404, 'RESOURCE_NOT_FOUND');
  for (const status of [undefined, 'active']) {
    const list = json(await call(t.app, 'GET', '/v2/servers', { key: c.key, ...(status ? { query: { status } } : {}) }));
    assert.ok(!list.data.some((x: { id: string }) => x.id === s.id));
  }
  const ips = await t.database.db.selectFrom('server_ips').select('released_at').where('server_id', '=', s.id).execute();
  assert.equal(ips.length, 1);
  assert.ok(ips[0]!.released_at, 'the extra address stops billing');
});

test('delete: the worker destroys the machine, and the host name is free again', async () => {
  const s = await activeServer(t, c, { name: 'reuse.example.com' });
  const ref = (await serverRow(t, s.id)).provider_ref!;
  assert.equal((await del(s.id)).statusCode, 200);
  const op = await t.database.db.selectFrom('operations').select(['id', 'type']).where('resource_id', '=', s.id).where('type', '=', 'server.delete').executeTakeFirstOrThrow();
  assert.equal((await waitForOperation(t, c.key, op.id)).status, 'completed');
  const vm = await t.database.db.selectFrom('sim_vms').select('destroyed_at').where('id', '=', ref).executeTakeFirstOrThrow();
  assert.ok(vm.destroyed_at, 'the machine is destroyed at the platform');
  const again = await createServer(t, c, { name: 'reuse.example.com' });
  assert.equal(again.name, 'reuse.example.com');
  await waitForOperation(t, c.key, again.operation.id);
});

test('delete: 409 STATE_CONFLICT while the server is pending or another operation runs; nothing changes', async () => {
  const s = await activeServer(t, c);
  const before = await balanceCents(t, c.accountId);
  const release = await holdBusy(t, c.accountId, s.id);
  const busy = await del(s.id);
  assertError(busy, 409, 'STATE_CONFLICT');
  // The 409 names the operation in the way, so the client knows what to poll.
  assert.match(json(busy).error.message, new RegExp(`Operation ${release.operationId} \\(server\\.test_hold\\) is still running on ${s.id}`));
  await release();
  await t.database.db.updateTable('servers').set({ status: 'pending' }).where('id', '=', s.id).execute();
  assertError(await del(s.id), 409, 'STATE_CONFLICT');
  // A pending server with its create operation still running: that operation is named.
  const building = await holdBusy(t, c.accountId, s.id);
  const res = await del(s.id);
  assertError(res, 409, 'STATE_CONFLICT');
  assert.match(json(res).error.message, new RegExp(`still being built by operation ${building.operationId}`));
  await building();
  assert.equal(await balanceCents(t, c.accountId), before);
  assert.equal((await serverRow(t, s.id)).deleted_at, null);
  await t.database.db.updateTable('servers').set({ status: 'active' }).where('id', '=', s.id).execute();
});

test('delete: a cancelled server (already refunded when provisioning failed) is removed with a zero refund', async () => {
  const s = await activeServer(t, c);
  await t.database.db.updateTable('servers').set({ status: 'cancelled' }).where('id', '=', s.id).execute();
  const before = await balanceCents(t, c.accountId);
  const res = await del(s.id);
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(json(res).data.refund, { amount: '0.00', currency: 'USD' });
  assert.equal(await balanceCents(t, c.accountId), before);
});

test('delete and rename: another account\'s server is 404 and stays untouched', async () => {
  const s = await activeServer(t, c, { name: 'mine.example.com' });
  const row = await serverRow(t, s.id);
  for (const res of [await del(s.id, other.key), await rename(s.id, { name: 'theirs.example.com' }, other.key)]) {
    assertError(res, 404, 'RESOURCE_NOT_FOUND');
    assert.ok(!res.body.includes('mine.example.com'));
  }
  assert.deepEqual(await serverRow(t, s.id), row);
  assert.equal(await balanceCents(t, other.accountId), 2000);
});

test('delete in the sandbox: the same answer, nothing persists', async () => {
  const owner = await createCustomer(t, { deposit: '10.00' });
  const s = await activeServer(t, owner);
  const k = json(await adminCall(t, 'POST', `/admin/v1/accounts/${owner.accountId}/api-keys`, { name: 'sb', ip_allowlist: ['127.0.0.1'], is_test: true })).data.key;
  const res = await del(s.id, k);
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(json(res).meta.sandbox, true);
  assert.equal(json(res).data.status, 'deleted');
  assert.equal((await serverRow(t, s.id)).deleted_at, null);
  assert.equal(await balanceCents(t, owner.accountId), 500);
  assert.equal(json(await call(t.app, 'GET', `/v2/servers/${s.id}`, { key: owner.key })).data.status, 'active');
});

test('rename: 200 with the updated server; a same-case or own-name rename is fine', async () => {
  const s = await activeServer(t, c, { name: 'old.example.com' });
  const res = await rename(s.id, { name: 'new.example.com' });
  assert.equal(res.statusCode, 200, res.body);
  const data = json(res).data;
  assert.equal(data.name, 'new.example.com');
  assert.equal(data.id, s.id);
  assert.deepEqual(data.specs, s.specs);
  assert.equal(json(await call(t.app, 'GET', `/v2/servers/${s.id}`, { key: c.key })).data.name, 'new.example.com');
  assert.equal((await rename(s.id, { name: 'new.example.com' })).statusCode, 200);
  assert.equal(json(await rename(s.id, { name: 'NEW.example.com' })).data.name, 'NEW.example.com');
  // The old name is free.
  const again = await createServer(t, c, { name: 'old.example.com' });
  await waitForOperation(t, c.key, again.operation.id);
});

test('rename: a name another live server has is 409 HOSTNAME_IN_USE; a deleted server\'s name is free', async () => {
  const a = await activeServer(t, c, { name: 'taken.example.com' });
  const b = await activeServer(t, c, { name: 'other.example.com' });
  assertError(await rename(b.id, { name: 'TAKEN.example.com' }), 409, 'HOSTNAME_IN_USE', 'name');
  assert.equal((await serverRow(t, b.id)).name, 'other.example.com');
  assert.equal((await del(a.id)).statusCode, 200);
  assert.equal((await rename(b.id, { name: 'taken.example.com' })).statusCode, 200);
  // Another account may use any name.
  const theirs = await activeServer(t, other, { name: 'shared.example.com' });
  assert.equal((await rename(b.id, { name: 'shared.example.com' })).statusCode, 200);
  assert.equal((await serverRow(t, theirs.id)).name, 'shared.example.com');
});

test('rename: bad input is 422 VALIDATION_FAILED naming the field', async () => {
  const s = await activeServer(t, c);
  const cases: [unknown, string][] = [
    [{}, 'name'],
    [{ name: 42 }, 'name'],
    [{ name: '' }, 'name'],
    [{ name: 'not a host!' }, 'name'],
    [{ name: '-bad.example.com' }, 'name'],
    [{ name: 'a'.repeat(254) }, 'name'],
    [{ name: 'ok.example.com', status: 'active' }, 'status'],
  ];
  for (const [body, field] of cases) assertError(await rename(s.id, body), 422, 'VALIDATION_FAILED', field);
  assertError(await call(t.app, 'PATCH', `/v2/servers/${s.id}`, { key: c.key }), 422, 'VALIDATION_FAILED');
  assertError(await call(t.app, 'PATCH', `/v2/servers/${s.id}`, { key: c.key, body: 'name=x', headers: { 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
  assert.equal((await serverRow(t, s.id)).name, s.name);
});
