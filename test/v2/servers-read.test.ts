// GET /v2/servers, GET /v2/servers/{id} and GET /v2/operations/{id}: shapes, filters, paging,
// live fields with a degraded fallback, and tenant isolation.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { operationDetail } from '../../src/core/operations/service.ts';
import { insertOperation } from '../../src/db/queries/operations.ts';
import { activeServer, createServer } from '../helpers/servers.ts';
import { v1 } from '../helpers/v1.ts';
import { findAccountServer, findAccountServerDetail } from '../../src/db/queries/servers.ts';

let t: TestApp;
let c: Customer;
let other: Customer;
let running: { id: string };
let pending: { id: string; operation: { id: string } };

before(async () => {
  t = await startApp({ worker: 'embedded' });
  c = await createCustomer(t, { deposit: '500.00' });
  other = await createCustomer(t, { deposit: '50.00' });
  running = await activeServer(t, c, { name: 'alpha.example.com' });
  // Never provisioned: the worker only runs in the first app, so stop that from happening by
  // creating it through a sibling without a worker is not needed — a pending row suffices.
  pending = await createServer(t, c, { name: 'beta.example.com' });
  await waitForOperation(t, c.key, pending.operation.id);
  await t.database.db.updateTable('servers').set({ status: 'pending', power_state: 'provisioning' }).where('id', '=', pending.id).execute();
});

test('list: items carry id, name, status, null power_state, specs, plan, billing — and nothing else', async () => {
  const res = await call(t.app, 'GET', '/v2/servers', { key: c.key });
  assert.equal(res.statusCode, 200);
  const body = json(res);
  assert.deepEqual(body.meta.pagination, { page: 1, per_page: 25, total: 2, total_pages: 1 });
  assert.deepEqual(body.data.map((s: { name: string }) => s.name), ['beta.example.com', 'alpha.example.com'], 'newest first');
  for (const s of body.data) {
    assert.deepEqual(Object.keys(s).sort(), ['billing', 'id', 'name', 'plan', 'power_state', 'specs', 'status']);
    assert.equal(s.power_state, null);
    assert.equal(s.os, undefined);
  }
  assert.deepEqual(body.data[1].plan, { id: 1, name: 'Cloud S' });
});

test('list: status filter, paging, a page past the end, bad parameters', async () => {
  const active = json(await call(t.app, 'GET', '/v2/servers', { key: c.key, query: { status: 'active' } }));
  assert.deepEqual(active.data.map((s: { id: string }) => s.id), [running.id]);
  const pend = json(await call(t.app, 'GET', '/v2/servers', { key: c.key, query: { status: 'pending' } }));
  assert.deepEqual(pend.data.map((s: { id: string }) => s.id), [pending.id]);
  const p2 = json(await call(t.app, 'GET', '/v2/servers', { key: c.key, query: { per_page: '1', page: '2' } }));
  assert.deepEqual(p2.data.map((s: { id: string }) => s.id), [running.id]);
  assert.deepEqual(p2.meta.pagination, { page: 2, per_page: 1, total: 2, total_pages: 2 });
  const past = json(await call(t.app, 'GET', '/v2/servers', { key: c.key, query: { page: '9' } }));
  assert.deepEqual(past.data, []);
  for (const query of [{ status: 'deleted' }, { per_page: '101' }, { page: '0' }, { page: '1e1' }] as Record<string, string>[]) {
    const res = await call(t.app, 'GET', '/v2/servers', { key: c.key, query });
    assert.equal(res.statusCode, 422, JSON.stringify(query));
    assert.equal(json(res).error.errors[0].field, Object.keys(query)[0]);
  }
});

test('list: another account sees none of them', async () => {
  const body = json(await call(t.app, 'GET', '/v2/servers', { key: other.key }));
  assert.deepEqual(body.data, []);
  assert.equal(body.meta.pagination.total, 0);
});

test('detail: live power state and OS from the provider', async () => {
  const res = await call(t.app, 'GET', `/v2/servers/${running.id}`, { key: c.key });
  assert.equal(res.statusCode, 200);
  const s = json(res).data;
  assert.deepEqual(Object.keys(s).sort(), ['billing', 'created_at', 'id', 'location_id', 'name', 'network', 'next_charge', 'os', 'plan', 'power_state', 'specs', 'status']);
  assert.equal(s.next_charge.due_at, s.billing.next_billing_at, 'the detail shows its next charge');
  assert.equal(s.next_charge.status, 'scheduled');
  assert.equal(s.power_state, 'running');
  assert.equal(s.os, 'ubuntu-24.04');
});

test('detail: a provider that does not answer degrades power_state to unknown, not to an error', async () => {
  assert.equal((await adminCall(t, 'PUT', '/admin/v1/provider/fault', { mode: 'timeout', calls: ['status'] })).statusCode, 200);
  try {
    const res = await call(t.app, 'GET', `/v2/servers/${running.id}`, { key: c.key });
    assert.equal(res.statusCode, 200);
    assert.equal(json(res).data.power_state, 'unknown');
    assert.deepEqual(json(res).data.specs, { cpu_cores: 1, ram_mb: 1024, storage_gb: 25 });
  } finally {
    await adminCall(t, 'PUT', '/admin/v1/provider/fault', { mode: 'none' });
  }
});

test('detail: a pending server reports provisioning without asking the provider', async () => {
  const s = json(await call(t.app, 'GET', `/v2/servers/${pending.id}`, { key: c.key })).data;
  assert.equal(s.status, 'pending');
  assert.equal(s.power_state, 'provisioning');
});

test("detail: another account's id and an unknown id are both 404 RESOURCE_NOT_FOUND", async () => {
  for (const [key, id] of [[other.key, running.id], [c.key, 'srv_doesnotexist0000'], [c.key, 'x'.repeat(64)]] as const) {
    const res = await call(t.app, 'GET', `/v2/servers/${id}`, { key });
    assert.equal(res.statusCode, 404);
    assert.equal(json(res).error.code, 'RESOURCE_NOT_FOUND');
    assert.equal(res.body.includes('alpha'), false);
  }
  assert.equal((await call(t.app, 'GET', `/v2/servers/${'x'.repeat(65)}`, { key: c.key })).statusCode, 422);
});

test("operations: the owner reads it; another account's key gets 404; unknown ids 404", async () => {
  const own = await call(t.app, 'GET', `/v2/operations/${pending.operation.id}`, { key: c.key });
  assert.equal(own.statusCode, 200);
  const op = json(own).data;
  assert.deepEqual(Object.keys(op).sort(), ['created_at', 'detail', 'id', 'progress_pct', 'resource', 'status', 'type', 'updated_at']);
  assert.equal(op.status, 'completed');
  for (const [key, id] of [[other.key, pending.operation.id], [c.key, 'op_doesnotexist000000'], [c.key, 'op_sandbox_bm90IGpzb24']] as const) {
    const res = await call(t.app, 'GET', `/v2/operations/${id}`, { key });
    assert.equal(res.statusCode, 404, id);
    assert.equal(json(res).error.code, 'RESOURCE_NOT_FOUND');
  }
});

test('operations: a queued operation has no progress_pct', async () => {
  const created = await createServer(t, other, { name: 'queued.example.com' });
  assert.equal(created.operation.status, 'queued');
  assert.equal('progress_pct' in created.operation, false);
});

test('operations: one running at 0 % says it is starting, not queued', async () => {
  // Taken by a worker (running, under a lease) before the runner's first step has written its own text.
  const op = await insertOperation(t.database.db, {
    id: `op_${randomBytes(8).toString('hex')}`, account_id: c.accountId, type: 'server.create', resource_type: 'server',
    resource_id: `srv_${randomBytes(8).toString('hex')}`, params: {}, detail: 'Queued for provisioning',
  }, 3600);
  try {
    const read = json(await call(t.app, 'GET', `/v2/operations/${op.id}`, { key: c.key })).data;
    assert.equal(read.status, 'running');
    assert.equal(read.progress_pct, 0);
    assert.equal(read.detail, 'Starting provisioning');
  } finally {
    await t.database.db.deleteFrom('operations').where('id', '=', op.id).execute();
  }
  assert.equal(operationDetail({ status: 'running', detail: 'Queued: set the root password' }), 'Starting: set the root password');
  assert.equal(operationDetail({ status: 'running', detail: 'Queued' }), 'Starting');
  assert.equal(operationDetail({ status: 'running', detail: 'Copying disk (40 %)' }), 'Copying disk (40 %)');
  assert.equal(operationDetail({ status: 'queued', detail: 'Queued for removal' }), 'Queued for removal');
});

test('detail read: the facts it sends as one JSON value are what pg reads from the rows (instants to the millisecond, cents, network, a due charge)', async () => {
  const db = t.database.db;
  // Timestamps with microseconds and a charge still due, as the billing pass leaves them.
  await sql`UPDATE servers SET next_billing_at = '2031-05-06 07:08:09.123456+00', created_at = '2030-01-02 03:04:05.987654+02' WHERE id = ${running.id}`.execute(db);
  const [charge] = (await sql<{ id: number }>`
    INSERT INTO billing_charges (account_id, resource_type, resource_id, period_start, period_end, amount_cents, description, status, due_since)
    VALUES (${c.accountId}, 'server', ${running.id}, '2031-04-06 07:08:09.5+00', '2031-05-06 07:08:09.5+00', 12345, 'Owed', 'due', '2031-04-06 07:08:09.999999+00')
    RETURNING id`.execute(db)).rows;
  await sql`INSERT INTO server_ips (server_id, version, address, price_cents) VALUES (${running.id}, 6, '2001:db8::42', 300), (${running.id}, 4, NULL, 300)`.execute(db);
  try {
    const detail = (await findAccountServerDetail(db, c.accountId, running.id))!;
    const row = (await findAccountServer(db, c.accountId, running.id))!;
    for (const [k, v] of Object.entries(detail.server)) assert.deepEqual(v, row[k as keyof typeof row], k);
    assert.ok(detail.server.created_at instanceof Date && detail.server.next_billing_at instanceof Date);
    const due = await db.selectFrom('billing_charges').selectAll().where('id', '=', charge!.id).executeTakeFirstOrThrow();
    assert.deepEqual(detail.due, { description: 'Owed', amountCents: 12345, dueSince: due.due_since, periodStart: due.period_start, periodEnd: due.period_end });
    assert.deepEqual(detail.extra_ips, [{ address: '2001:db8::42', version: 6 }], 'addresses not yet filled are left out');
    assert.equal(detail.snapshot_fees_cents, 0);
    assert.equal(detail.plan_name, 'Cloud S');
    assert.equal(await findAccountServerDetail(db, other.accountId, running.id), undefined, "another account's id");
    const shown = json(await call(t.app, 'GET', `/v2/servers/${running.id}`, { key: c.key })).data;
    assert.deepEqual([shown.created_at, shown.billing.next_billing_at], ['2030-01-02T01:04:05Z', '2031-05-06T07:08:09Z']);
    assert.deepEqual(shown.next_charge, {
      description: 'Owed', amount: { amount: '123.45', currency: 'USD' }, due_at: '2031-04-06T07:08:09Z',
      period_start: '2031-04-06T07:08:09Z', period_end: '2031-05-06T07:08:09Z', status: 'overdue',
    });
  } finally {
    await sql`DELETE FROM billing_charges WHERE id = ${charge!.id}`.execute(db);
    await sql`DELETE FROM server_ips WHERE server_id = ${running.id}`.execute(db);
  }
});

test('list: every page size walks every server exactly once, newest first, whichever end the page is read from (ties in created_at broken by id, a deleted row, a status filter, rows of another account)', async () => {
  const db = t.database.db;
  const mine = await createCustomer(t, { deposit: '10.00' });
  const template = (await findAccountServer(db, c.accountId, running.id))!;
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
  // 11 live servers, three sharing an instant; one deleted, which no page may show; the other
  // account's rows interleaved in time.
  let n = 0;
  const row = (accountId: string, minute: number, extra: Partial<Omit<typeof template, 'network'>> = {}) => ({
    ...template, network: JSON.stringify(template.network), id: `srv_pages${String(n++).padStart(11, '0')}`, account_id: accountId, name: `p${n}.example.com`, created_at: at(minute), ...extra,
  });
  const rows = [
    ...[0, 1, 2, 3, 4, 5, 5, 5, 6, 7, 8].map((m, i) => row(mine.accountId, m, {
      status: i % 3 === 0 ? 'suspended' : 'active', power_state: i % 2 === 0 ? 'stopped' : 'running',
    })),
    row(mine.accountId, 9, { deleted_at: at(10) }),
    ...[0, 3, 6, 9].map((m) => row(other.accountId, m)),
  ];
  await db.insertInto('servers').values(rows).execute();
  try {
    const expected = (status?: string) => rows
      .filter((r) => r.account_id === mine.accountId && r.deleted_at === null && (!status || r.status === status))
      .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : -1))
      .map((r) => r.id);
    for (const status of [undefined, 'active', 'suspended']) {
      const want = expected(status);
      for (let perPage = 1; perPage <= want.length + 1; perPage++) {
        const seen: string[] = [];
        const pages = Math.ceil(want.length / perPage);
        for (let page = 1; page <= pages + 1; page++) {
          const query: Record<string, string> = { per_page: String(perPage), page: String(page), ...(status ? { status } : {}) };
          const body = json(await call(t.app, 'GET', '/v2/servers', { key: mine.key, query }));
          assert.deepEqual(body.meta.pagination, { page, per_page: perPage, total: want.length, total_pages: pages }, JSON.stringify(query));
          assert.deepEqual(body.data.map((s: { id: string }) => s.id), want.slice((page - 1) * perPage, page * perPage), JSON.stringify(query));
          seen.push(...body.data.map((s: { id: string }) => s.id));
        }
        assert.deepEqual(seen, want, `per_page ${perPage}${status ? `, ${status}` : ''}`);
      }
    }
    // v1's `stopped` and `active` filter on the power state too (a filter shape of their own).
    const v1want = (stopped: boolean) => rows
      .filter((r) => r.account_id === mine.accountId && r.deleted_at === null && r.status === 'active' && (r.power_state === 'stopped') === stopped)
      .sort((a, b) => b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : -1))
      .map((r) => r.id);
    for (const [status, stopped] of [['stopped', true], ['active', false]] as const) {
      const want = v1want(stopped);
      assert.ok(want.length >= 3, `${status}: ${want.length}`);
      const seen: string[] = [];
      for (let page = 1; page <= want.length; page++) {
        const res = await v1(t.app, 'GET', `/v1/servers?status=${status}&per_page=1&page=${page}`, { key: mine.key });
        assert.equal(res.statusCode, 200, res.body);
        seen.push(...json(res).data.map((s: { server_id: string }) => s.server_id));
      }
      assert.deepEqual(seen, want, `v1 ${status}`);
    }
    // The last page the API accepts: an offset near 10⁹, nothing on it, the total still right.
    const last = json(await call(t.app, 'GET', '/v2/servers', { key: mine.key, query: { per_page: '100', page: '10000000' } }));
    assert.deepEqual(last.data, []);
    assert.equal(last.meta.pagination.total, expected().length);
  } finally {
    await db.deleteFrom('servers').where('id', 'in', rows.map((r) => r.id)).execute();
  }
});
