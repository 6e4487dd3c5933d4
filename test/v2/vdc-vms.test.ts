// VDC VMs: create (POST /v2/vdc/vms), list, detail with live fields, usage and delete — shapes,
// every documented error, bad input, idempotency, and other accounts' ids.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, test } from 'node:test';
import { newId } from '../../src/core/ids.ts';
import { finishOperation, insertOperation } from '../../src/db/queries/operations.ts';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { assertError, clearFault, setFault } from '../helpers/server-actions.ts';
import { SINGAPORE } from '../helpers/servers.ts';
import { BIG_POOL, activeVm, assertPoolConsistent, createVm, resources, setPool, vmAction, vmBody, vmRow } from '../helpers/vdc.ts';

const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
let t: TestApp;
let c: Customer;
let other: Customer;
let vm: { id: string; name: string };

before(async () => {
  t = await startApp({ worker: 'embedded', providerTimeoutMs: 300 });
  c = await createCustomer(t);
  other = await createCustomer(t);
  await setPool(t, c.accountId, BIG_POOL);
  await setPool(t, other.accountId, BIG_POOL);
  vm = await activeVm(t, c, { name: 'alpha.example.com', cpu_cores: 2, ram_mb: 2048, storage_gb: 20 });
});

const post = (body: unknown, key = c.key, headers: Record<string, string> = {}) => call(t.app, 'POST', '/v2/vdc/vms', { key, body, headers });
const get = (path: string, key = c.key) => call(t.app, 'GET', `/v2/vdc/vms${path}`, { key });
const del = (id: string, confirm: string | undefined, key = c.key) =>
  call(t.app, 'DELETE', `/v2/vdc/vms/${id}`, { key, ...(confirm === undefined ? {} : { query: { confirm_name: confirm } }) });

/** An unfinished operation on the VM, written directly (no race with the worker). */
async function holdBusy(accountId: string, vmId: string) {
  const op = await insertOperation(t.database.db, {
    id: newId('op'), account_id: accountId, type: 'vdc_vm.test_hold', resource_type: 'vdc_vm', resource_id: vmId, params: {}, detail: 'Held by a test',
  });
  return Object.assign(() => finishOperation(t.database.db, op.id, 'completed', 'Released'), { operationId: op.id });
}

test('create: 201 with the pending VM, field by field, and its vdc_vm.create operation; it becomes active with its addresses', async () => {
  const res = await post(vmBody({ name: 'beta.example.com', cpu_cores: 2, ram_mb: 4096, storage_gb: 40, os_version_id: 3 }));
  assert.equal(res.statusCode, 201, res.body);
  const body = json(res);
  const d = body.data;
  assert.deepEqual(Object.keys(d).sort(), ['created_at', 'id', 'name', 'operation', 'os', 'power_state', 'primary_ip', 'primary_ipv6', 'specs', 'status']);
  assert.match(d.id, /^vm_[0-9A-Za-z]{16}$/);
  assert.equal(d.name, 'beta.example.com');
  assert.equal(d.status, 'pending');
  assert.equal(d.power_state, 'provisioning');
  assert.equal(d.os, 'debian-12');
  assert.deepEqual(d.specs, { cpu_cores: 2, ram_mb: 4096, storage_gb: 40 });
  assert.equal(d.primary_ip, null);
  assert.equal(d.primary_ipv6, null);
  assert.match(d.created_at, TS);
  assert.equal(d.operation.type, 'vdc_vm.create');
  assert.equal(d.operation.status, 'queued');
  assert.deepEqual(d.operation.resource, { type: 'vdc_vm', id: d.id });
  assert.equal(body.meta.sandbox, undefined);
  assert.equal(res.headers['idempotent-replayed'], undefined);

  const op = await waitForOperation(t, c.key, d.operation.id);
  assert.equal(op.status, 'completed', op.detail);
  const live = json(await get(`/${d.id}`)).data;
  assert.equal(live.status, 'active');
  assert.equal(live.power_state, 'running');
  assert.equal(live.os, 'debian-12');
  assert.match(live.primary_ip, /^10\.1\.0\.\d+$/);
  assert.match(live.primary_ipv6, /^2001:db8:1::/);
  assert.deepEqual(live.specs, d.specs);
  // Never charged: the balance has no row for it.
  assert.deepEqual(await t.database.db.selectFrom('transactions').select('id').where('account_id', '=', c.accountId).execute(), []);
  await assertPoolConsistent(t, c.accountId);
});

test('create: a pool without IPv6 gives VMs no IPv6 address; one whose IPv6 is all taken refuses them (QUOTA_EXCEEDED naming ipv6)', async () => {
  const acc = await createCustomer(t);
  await setPool(t, acc.accountId, { ...BIG_POOL, ipv6: 0 });
  const v4only = await activeVm(t, acc);
  assert.equal(v4only.primary_ipv6, null);
  assert.match(v4only.primary_ip, /^10\./);
  assert.equal((await vmRow(t, v4only.id)).held_ipv6, 0);
  await setPool(t, acc.accountId, { ipv6: 1 });
  const withV6 = await activeVm(t, acc);
  assert.match(withV6.primary_ipv6, /^2001:db8:/);
  const res = await post(vmBody(), acc.key);
  assertError(res, 422, 'QUOTA_EXCEEDED', 'ipv6');
  assert.deepEqual(json(res).error.errors.map((e: { field: string }) => e.field), ['ipv6']);
  assert.deepEqual((await resources(t, acc.key)).ipv6, { total: 1, used: 1, available: 0 });
  await assertPoolConsistent(t, acc.accountId);
});

test('create: QUOTA_EXCEEDED names every bucket that falls short; no pool at all is QUOTA_EXCEEDED too', async () => {
  const acc = await createCustomer(t);
  await setPool(t, acc.accountId, { cpu: 2, ram_mb: 2048, storage_gb: 100, ipv4: 1 });
  let res = await post(vmBody({ cpu_cores: 4, ram_mb: 4096, storage_gb: 50 }), acc.key);
  assertError(res, 422, 'QUOTA_EXCEEDED');
  const err = json(res).error;
  assert.deepEqual(err.errors.map((e: { field: string; code: string }) => [e.field, e.code]), [['cpu', 'QUOTA_EXCEEDED'], ['ram_mb', 'QUOTA_EXCEEDED']]);
  assert.match(err.errors[0].message, /needs 4 vCPU; the pool has 2 of 2 available/);
  assert.match(err.message, /not enough left in cpu, ram_mb/);
  await createVm(t, acc, { cpu_cores: 1 });
  res = await post(vmBody({ cpu_cores: 1 }), acc.key);
  assertError(res, 422, 'QUOTA_EXCEEDED', 'ipv4');

  const none = await createCustomer(t);
  res = await post(vmBody(), none.key);
  assertError(res, 422, 'QUOTA_EXCEEDED', 'cpu');
  assert.match(json(res).error.message, /has no VDC pool/);
  assert.deepEqual(await t.database.db.selectFrom('vdc_vms').select('id').where('account_id', '=', none.accountId).execute(), []);
});

test('create: checks run input → references → pool, each documented error naming its field', async () => {
  const acc = await createCustomer(t);
  const cases: [Record<string, unknown>, number, string, string][] = [
    [{ password: 'weakpass' }, 422, 'INVALID_PASSWORD', 'password'],
    [{ name: 'bad host!' }, 422, 'VALIDATION_FAILED', 'name'],
    [{ ram_mb: 1536 }, 422, 'VALIDATION_FAILED', 'ram_mb'],
    [{ location_id: SINGAPORE }, 422, 'LOCATION_INVALID', 'location_id'],
    [{ location_id: 999 }, 422, 'LOCATION_INVALID', 'location_id'],
    [{ os_version_id: 999 }, 422, 'OS_VERSION_INVALID', 'os_version_id'],
  ];
  // `acc` has no pool: every case is refused for its own reason first.
  for (const [over, status, code, field] of cases) assertError(await post(vmBody(over), acc.key), status, code, field);
});

test('create: bad input is 422 VALIDATION_FAILED naming the field (types, unknown and missing fields, limits, oversize, NUL)', async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ cpu_cores: '2' }, 'cpu_cores'], [{ cpu_cores: 0 }, 'cpu_cores'], [{ cpu_cores: 65 }, 'cpu_cores'], [{ cpu_cores: 1.5 }, 'cpu_cores'],
    [{ ram_mb: 512 }, 'ram_mb'], [{ storage_gb: 5 }, 'storage_gb'], [{ location_id: 'fra' }, 'location_id'], [{ os_version_id: null }, 'os_version_id'],
    [{ plan_id: 1 }, 'plan_id'], [{ name: 'a'.repeat(254) }, 'name'], [{ name: '' }, 'name'], [{ password: 'A1!a'.repeat(33) }, 'password'],
    [{ name: 'nul\u0000.example.com' }, 'name'],
  ];
  for (const [over, field] of cases) assertError(await post(vmBody(over)), 422, 'VALIDATION_FAILED', field);
  for (const missing of ['name', 'password', 'cpu_cores', 'ram_mb', 'storage_gb', 'location_id', 'os_version_id']) {
    const body: Record<string, unknown> = vmBody();
    delete body[missing];
    assertError(await post(body), 422, 'VALIDATION_FAILED', missing);
  }
  assertError(await call(t.app, 'POST', '/v2/vdc/vms', { key: c.key, body: '{', headers: { 'content-type': 'application/json' } }), 400, 'REQUEST_MALFORMED');
  assertError(await call(t.app, 'POST', '/v2/vdc/vms', { key: c.key, body: 'x', headers: { 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
  assertError(await post(vmBody(), c.key, { 'idempotency-key': 'not-a-uuid' }), 422, 'VALIDATION_FAILED', 'Idempotency-Key');
});

test('create with user_data (an addition, as POST /servers takes): handed to the platform\'s create; over 64 KiB is 422 naming user_data, nothing made', async () => {
  const userData = '#cloud-config\nhostname: vdc-user-data\n';
  const res = await post(vmBody({ name: 'cloud-init.example.com', user_data: userData }));
  assert.equal(res.statusCode, 201, res.body);
  const d = json(res).data;
  assert.equal(d.user_data, undefined, 'not shown again');
  assert.equal((await waitForOperation(t, c.key, d.operation.id)).status, 'completed');
  // What the worker's create hands to the platform (LXD: cloud-init.user-data; test/providers/lxd-vdc-drain.test.ts).
  const op = await t.database.db.selectFrom('operations').select('params').where('id', '=', d.operation.id).executeTakeFirstOrThrow();
  assert.equal(op.params.user_data, userData);
  const before = (await t.database.db.selectFrom('vdc_vms').select('id').where('account_id', '=', c.accountId).execute()).length;
  // 64 KiB exactly passes the rule; one byte more (ASCII: the schema's length; multi-byte: the byte rule) does not.
  assertError(await post(vmBody({ user_data: 'x'.repeat(65_537) })), 422, 'VALIDATION_FAILED', 'user_data');
  assertError(await post(vmBody({ user_data: 'é'.repeat(32_769) })), 422, 'VALIDATION_FAILED', 'user_data');
  assertError(await post(vmBody({ user_data: 42 })), 422, 'VALIDATION_FAILED', 'user_data');
  assert.equal((await t.database.db.selectFrom('vdc_vms').select('id').where('account_id', '=', c.accountId).execute()).length, before);
  const most = await post(vmBody({ user_data: 'x'.repeat(65_536) }));
  assert.equal(most.statusCode, 201, most.body);
  await waitForOperation(t, c.key, json(most).data.operation.id);
});

test('create with an Idempotency-Key: a retry replays the first answer and creates nothing more; another body is 409', async () => {
  const key = randomUUID();
  const body = vmBody({ name: 'keyed.example.com' });
  const first = await post(body, c.key, { 'idempotency-key': key });
  assert.equal(first.statusCode, 201, first.body);
  const again = await post(body, c.key, { 'idempotency-key': key });
  assert.equal(again.statusCode, 201);
  assert.equal(again.headers['idempotent-replayed'], 'true');
  assert.deepEqual(json(again).data, json(first).data);
  assertError(await post({ ...body, cpu_cores: 2 }, c.key, { 'idempotency-key': key }), 409, 'IDEMPOTENCY_KEY_CONFLICT');
  const rows = await t.database.db.selectFrom('vdc_vms').select('id').where('name', '=', 'keyed.example.com').execute();
  assert.equal(rows.length, 1);
  await waitForOperation(t, c.key, json(first).data.operation.id);
});

test('list: the account\'s VMs newest first with the recorded state, paged; another account sees none', async () => {
  const acc = await createCustomer(t);
  await setPool(t, acc.accountId, BIG_POOL);
  const a = await activeVm(t, acc, { name: 'one.example.com' });
  const b = await createVm(t, acc, { name: 'two.example.com' });
  await waitForOperation(t, acc.key, b.operation.id);
  const res = await call(t.app, 'GET', '/v2/vdc/vms', { key: acc.key });
  assert.equal(res.statusCode, 200, res.body);
  const body = json(res);
  assert.deepEqual(body.meta.pagination, { page: 1, per_page: 25, total: 2, total_pages: 1 });
  assert.deepEqual(body.data.map((v: { name: string }) => v.name), ['two.example.com', 'one.example.com']);
  assert.deepEqual(body.data[1], a);
  const p2 = json(await call(t.app, 'GET', '/v2/vdc/vms', { key: acc.key, query: { per_page: '1', page: '2' } }));
  assert.deepEqual(p2.data.map((v: { id: string }) => v.id), [a.id]);
  assert.deepEqual(p2.meta.pagination, { page: 2, per_page: 1, total: 2, total_pages: 2 });
  assert.deepEqual(json(await call(t.app, 'GET', '/v2/vdc/vms', { key: acc.key, query: { page: '5' } })).data, []);
  for (const query of [{ per_page: '101' }, { page: '0' }, { page: 'x' }] as Record<string, string>[]) {
    assertError(await call(t.app, 'GET', '/v2/vdc/vms', { key: acc.key, query }), 422, 'VALIDATION_FAILED');
  }
  const theirs = json(await call(t.app, 'GET', '/v2/vdc/vms', { key: other.key }));
  assert.ok(!theirs.data.some((v: { id: string }) => v.id === a.id || v.id === b.id));
});

test('detail: live power state, OS and size from the platform; the list shows what was recorded', async () => {
  const row = await vmRow(t, vm.id);
  await t.database.db.updateTable('sim_vms').set({ power: 'stopped', os_slug: 'rocky-9' }).where('id', '=', row.provider_ref!).execute();
  try {
    const live = json(await get(`/${vm.id}`)).data;
    assert.equal(live.power_state, 'stopped');
    assert.equal(live.os, 'rocky-9');
    const listed = json(await call(t.app, 'GET', '/v2/vdc/vms', { key: c.key })).data.find((v: { id: string }) => v.id === vm.id);
    assert.equal(listed.power_state, 'running');
    assert.equal(listed.os, 'ubuntu-24.04');
  } finally {
    await t.database.db.updateTable('sim_vms').set({ power: 'running', os_slug: 'ubuntu-24.04' }).where('id', '=', row.provider_ref!).execute();
  }
});

test('detail: a platform that does not answer within PROVIDER_TIMEOUT_MS degrades power_state to unknown; a VM off the primary platform reports unknown', async () => {
  await setFault(t, { mode: 'timeout', calls: ['status'] });
  try {
    const started = Date.now();
    const res = await get(`/${vm.id}`);
    assert.equal(res.statusCode, 200);
    assert.ok(Date.now() - started < 2_000, 'answered within the deadline');
    assert.equal(json(res).data.power_state, 'unknown');
    assert.deepEqual(json(res).data.specs, { cpu_cores: 2, ram_mb: 2048, storage_gb: 20 });
  } finally {
    await clearFault(t);
  }
  const acc = await createCustomer(t);
  await setPool(t, acc.accountId, BIG_POOL);
  const elsewhere = await activeVm(t, acc, { location_id: 3 });
  await t.database.db.updateTable('locations').set({ provider: 'partner' }).where('id', '=', 3).execute();
  try {
    assert.equal(json(await get(`/${elsewhere.id}`, acc.key)).data.power_state, 'unknown');
  } finally {
    await t.database.db.updateTable('locations').set({ provider: 'primary' }).where('id', '=', 3).execute();
  }
});

test('usage: utilization, what it is in MB and GB of the VM, and when it was measured', async () => {
  const res = await get(`/${vm.id}/usage`);
  assert.equal(res.statusCode, 200, res.body);
  const u = json(res).data;
  assert.deepEqual(Object.keys(u).sort(), ['cpu_pct', 'disk_pct', 'disk_used_gb', 'memory_pct', 'memory_used_mb', 'sampled_at']);
  for (const k of ['cpu_pct', 'memory_pct', 'disk_pct']) assert.ok(u[k] >= 0 && u[k] <= 100, k);
  assert.equal(u.memory_used_mb, Math.round((2048 * u.memory_pct) / 100));
  assert.equal(u.disk_used_gb, Math.round(20 * u.disk_pct) / 100);
  assert.match(u.sampled_at, TS);
});

test('usage: a VM not active is 409; a failing platform 502 UPSTREAM_ERROR, a full one 422 CAPACITY_UNAVAILABLE', async () => {
  const pending = await createVm(t, c);
  await waitForOperation(t, c.key, pending.operation.id);
  await t.database.db.updateTable('vdc_vms').set({ status: 'pending' }).where('id', '=', pending.id).execute();
  assertError(await get(`/${pending.id}/usage`), 409, 'STATE_CONFLICT');
  await t.database.db.updateTable('vdc_vms').set({ status: 'active' }).where('id', '=', pending.id).execute();
  for (const [mode, status, code] of [['upstream_error', 502, 'UPSTREAM_ERROR'], ['timeout', 502, 'UPSTREAM_ERROR'], ['capacity_unavailable', 422, 'CAPACITY_UNAVAILABLE']] as const) {
    await setFault(t, { mode, calls: ['metrics'] });
    try {
      assertError(await get(`/${vm.id}/usage`), status, code);
    } finally {
      await clearFault(t);
    }
  }
});

test('delete: confirm_name is required and must be the VM\'s name exactly; a mismatch changes nothing', async () => {
  const target = await activeVm(t, c, { name: 'gamma.example.com' });
  const before = await vmRow(t, target.id);
  assertError(await del(target.id, undefined), 422, 'VALIDATION_FAILED', 'confirm_name');
  for (const wrong of ['gamma', 'GAMMA.example.com', 'gamma.example.com ', 'alpha.example.com']) {
    const res = await del(target.id, wrong);
    assertError(res, 422, 'VALIDATION_FAILED', 'confirm_name');
    assert.match(json(res).error.errors[0].message, /must be the VM's name exactly/);
  }
  assertError(await del(target.id, 'x'.repeat(254)), 422, 'VALIDATION_FAILED', 'confirm_name');
  assertError(await del(target.id, 'nul\u0000'), 422, 'VALIDATION_FAILED', 'confirm_name');
  assert.deepEqual(await vmRow(t, target.id), before);
});

test('delete: 200 with the result; the VM leaves every list, its resources go back to the pool, its machine is destroyed', async () => {
  const target = await activeVm(t, c, { name: 'delta.example.com', cpu_cores: 4, ram_mb: 8192, storage_gb: 100 });
  const usedBefore = (await resources(t, c.key)).cpu.used;
  const res = await del(target.id, 'delta.example.com');
  assert.equal(res.statusCode, 200, res.body);
  const d = json(res).data;
  assert.deepEqual(Object.keys(d).sort(), ['id', 'operation', 'status']);
  assert.equal(d.id, target.id);
  assert.equal(d.status, 'deleted');
  assert.equal(d.operation.type, 'vdc_vm.delete');
  assert.deepEqual(d.operation.resource, { type: 'vdc_vm', id: target.id });
  assert.equal((await resources(t, c.key)).cpu.used, usedBefore - 4, 'returned at once');
  await assertPoolConsistent(t, c.accountId);
  assertError(await get(`/${target.id}`), 404, 'RESOURCE_NOT_FOUND');
  assertError(await del(target.id, 'delta.example.com'), 404, 'RESOURCE_NOT_FOUND');
  assert.ok(!json(await call(t.app, 'GET', '/v2/vdc/vms', { key: c.key })).data.some((v: { id: string }) => v.id === target.id));
  assert.equal((await waitForOperation(t, c.key, d.operation.id)).status, 'completed');
  const row = await vmRow(t, target.id);
  const machine = await t.database.db.selectFrom('sim_vms').selectAll().where('id', '=', row.provider_ref!).executeTakeFirstOrThrow();
  assert.ok(machine.destroyed_at, 'the machine is destroyed');
  const leases = await t.database.db.selectFrom('ip_addresses').select('address').where('vm_id', '=', machine.id).execute();
  assert.deepEqual(leases, [], 'its addresses are free');
});

test('delete: a VM still being created or busy is 409 naming the operation; a failed one can be deleted', async () => {
  const target = await activeVm(t, c, { name: 'epsilon.example.com' });
  const release = await holdBusy(c.accountId, target.id);
  let res = await del(target.id, 'epsilon.example.com');
  assertError(res, 409, 'STATE_CONFLICT');
  assert.match(json(res).error.message, new RegExp(`^Operation ${release.operationId} \\(vdc_vm\\.test_hold\\) is still running on ${target.id}`));
  await t.database.db.updateTable('vdc_vms').set({ status: 'pending' }).where('id', '=', target.id).execute();
  res = await del(target.id, 'epsilon.example.com');
  assertError(res, 409, 'STATE_CONFLICT');
  assert.match(json(res).error.message, /still being created by operation/);
  await release();
  await t.database.db.updateTable('vdc_vms').set({ status: 'active' }).where('id', '=', target.id).execute();
  assert.equal((await vmRow(t, target.id)).deleted_at, null);

  // A VM whose provisioning failed holds nothing and can go.
  await setFault(t, { mode: 'capacity_unavailable', calls: ['create'] });
  let failed;
  try {
    failed = await createVm(t, c, { name: 'zeta.example.com' });
    assert.equal((await waitForOperation(t, c.key, failed.operation.id)).status, 'failed');
  } finally {
    await clearFault(t);
  }
  const f = json(await get(`/${failed.id}`)).data;
  assert.equal(f.status, 'failed');
  assert.equal(f.power_state, 'error');
  res = await del(failed.id, 'zeta.example.com');
  assert.equal(res.statusCode, 200, res.body);
  assert.equal((await waitForOperation(t, c.key, json(res).data.operation.id)).status, 'completed');
  await assertPoolConsistent(t, c.accountId);
});

test("another account's VM (and an unknown id) is 404 on every read, write and action, and nothing happens to it", async () => {
  const before = await vmRow(t, vm.id);
  const snap = { id: 1 };
  const attempts: [string, string, unknown?][] = [
    ['GET', `/v2/vdc/vms/${vm.id}`], ['GET', `/v2/vdc/vms/${vm.id}/usage`], ['GET', `/v2/vdc/vms/${vm.id}/snapshots`],
    ['DELETE', `/v2/vdc/vms/${vm.id}?confirm_name=alpha.example.com`],
    ['POST', `/v2/vdc/vms/${vm.id}/snapshots`, { name: 'mine now' }],
    ['DELETE', `/v2/vdc/vms/${vm.id}/snapshots/${snap.id}`], ['POST', `/v2/vdc/vms/${vm.id}/snapshots/${snap.id}/restore`],
  ];
  for (const verb of ['start', 'stop', 'reboot', 'reinstall', 'reset_password']) attempts.push(['POST', `/v2/vdc/vms/${vm.id}/actions/${verb}`]);
  attempts.push(['POST', `/v2/vdc/vms/${vm.id}/actions/resize`, { cpu_cores: 4 }]);
  for (const [method, url, body] of attempts) {
    const res = await call(t.app, method as 'GET', url, { key: other.key, ...(body === undefined ? {} : { body }) });
    assertError(res, 404, 'RESOURCE_NOT_FOUND');
    assert.ok(!res.body.includes('alpha'), `${method} ${url} leaks nothing`);
    const unknown = await call(t.app, method as 'GET', url.replace(vm.id, 'vm_doesnotexist000000'), { key: c.key, ...(body === undefined ? {} : { body }) });
    assertError(unknown, 404, 'RESOURCE_NOT_FOUND');
  }
  assert.deepEqual(await vmRow(t, vm.id), before);
  const ops = await t.database.db.selectFrom('operations').select('id').where('account_id', '=', other.accountId).execute();
  assert.deepEqual(ops, []);
  assertError(await get(`/${'x'.repeat(65)}`), 422, 'VALIDATION_FAILED', 'id');
});

test('scopes: vdc:read reads VMs and polls their operations; a servers-only key reads neither', async () => {
  const keyRes = await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/api-keys`, { name: 'vdc', ip_allowlist: ['127.0.0.1'], scopes: ['vdc:read', 'vdc:write'] });
  const vdcKey = json(keyRes).data.key as string;
  const made = json(await post(vmBody(), vdcKey)).data;
  assert.equal(json(await get(`/${made.id}`, vdcKey)).data.id, made.id);
  const op = await call(t.app, 'GET', `/v2/operations/${made.operation.id}`, { key: vdcKey });
  assert.equal(op.statusCode, 200, op.body);
  assert.equal(json(op).data.type, 'vdc_vm.create');
  await waitForOperation(t, c.key, made.operation.id);
  const serversKey = json(await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/api-keys`, { name: 'srv', ip_allowlist: ['127.0.0.1'], scopes: ['servers:read'] })).data.key as string;
  assertError(await get(`/${made.id}`, serversKey), 403, 'AUTH_SCOPE_INSUFFICIENT');
  const polled = await call(t.app, 'GET', `/v2/operations/${made.operation.id}`, { key: serversKey });
  assertError(polled, 403, 'AUTH_SCOPE_INSUFFICIENT');
  assert.match(json(polled).error.message, /vdc:read/);
  const readOnly = json(await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/api-keys`, { name: 'ro', ip_allowlist: ['127.0.0.1'], scopes: ['vdc:read'] })).data.key as string;
  assertError(await vmAction(t, readOnly, vm.id, 'reboot'), 403, 'AUTH_SCOPE_INSUFFICIENT');
});
