// v1 VDC: the pool, VMs and their snapshots through v1's names and envelope, over the same core as
// v2 — a VM made in v1 is read in v2 and the other way round.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { type Customer, type TestApp, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { PASSWORD, UBUNTU } from '../helpers/servers.ts';
import { clearFault, setFault } from '../helpers/server-actions.ts';
import { activeVm, assertPoolConsistent, setPool } from '../helpers/vdc.ts';
import { expectV1Error, v1 } from '../helpers/v1.ts';

let t: TestApp;
let c: Customer;
let other: Customer;
/** Made through v2, provisioned. */
let v2vm: { id: string; name: string };

const body = (over: Record<string, unknown> = {}) => ({
  vm_name: `v1-${randomUUID().slice(0, 8)}.example.com`, password: PASSWORD, cpu_cores: 1, ram_gb: 1, disk_gb: 10,
  location_name: 'Frankfurt', os_id: UBUNTU, ...over,
});

/** The VM's last operation, to wait for (v1 has no operations to poll). */
async function lastOperation(vmId: string): Promise<string> {
  const row = await t.database.db.selectFrom('operations').select('id').where('resource_id', '=', vmId)
    .orderBy('created_at', 'desc').limit(1).executeTakeFirstOrThrow();
  return row.id;
}
async function settle(key: string, vmId: string) {
  const op = await waitForOperation(t, key, await lastOperation(vmId));
  assert.equal(op.status, 'completed', op.detail);
}

before(async () => {
  t = await startApp({ worker: 'embedded' });
  c = await createCustomer(t);
  other = await createCustomer(t);
  await setPool(t, c.accountId, { cpu: 8, ram_mb: 16384, storage_gb: 200, ipv4: 6, ipv6: 6, bandwidth_mbit: 500 });
  await setPool(t, other.accountId, { cpu: 8, ram_mb: 16384, storage_gb: 200, ipv4: 6, ipv6: 6 });
  v2vm = await activeVm(t, c, { name: 'made-in-v2.example.com', cpu_cores: 2, ram_mb: 2048, storage_gb: 20 });
});

describe('GET /v1/resources', () => {
  test('totals, usage and available in v1 names, RAM in GB', async () => {
    const res = await v1(t.app, 'GET', '/v1/resources', { key: c.key });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(json(res).data, {
      resources: { cpu_cores: 8, ram_gb: 16, disk_gb: 200, ipv4_count: 6, ipv6_count: 6, bandwidth_mbit: 500 },
      usage: { cpu_used: 2, ram_used_gb: 2, disk_used_gb: 20, ipv4_used: 1, ipv6_used: 1, bandwidth_used_mbit: 0 },
      available: { cpu_available: 6, ram_available_gb: 14, disk_available_gb: 180, ipv4_available: 5, ipv6_available: 5, bandwidth_available_mbit: 500 },
    });
  });

  test('an account without a VDC reads zeros; a disallowed IP is 401 INVALID_API_KEY', async () => {
    const none = await createCustomer(t);
    assert.equal(json(await v1(t.app, 'GET', '/v1/resources', { key: none.key })).data.resources.cpu_cores, 0);
    expectV1Error(await v1(t.app, 'GET', '/v1/resources', { key: c.key, ip: '198.51.100.7' }), 401, 'INVALID_API_KEY');
  });
});

describe('VMs', () => {
  let vmId: string;

  test('POST /v1/vms: 200 with the VM in v1 form; it is provisioned and v2 sees it', async () => {
    const res = await v1(t.app, 'POST', '/v1/vms', {
      key: c.key, body: body({ vm_name: 'made-in-v1.example.com', cpu_cores: 2, ram_gb: 2, disk_gb: 20, location_name: 'fra1' }),
    });
    assert.equal(res.statusCode, 200, res.body);
    const out = json(res);
    assert.equal(out.success, true);
    assert.deepEqual(Object.keys(out.data).sort(), ['cpu_cores', 'disk_gb', 'primary_ip', 'ram_gb', 'status', 'vm_id', 'vm_name']);
    assert.equal(out.data.vm_name, 'made-in-v1.example.com');
    assert.equal(out.data.status, 'pending');
    assert.deepEqual([out.data.cpu_cores, out.data.ram_gb, out.data.disk_gb], [2, 2, 20]);
    vmId = out.data.vm_id;
    assert.match(vmId, /^vm_/);
    await settle(c.key, vmId);
    const v2 = json(await call(t.app, 'GET', `/v2/vdc/vms/${vmId}`, { key: c.key })).data;
    assert.equal(v2.name, 'made-in-v1.example.com');
    assert.equal(v2.status, 'active');
    assert.deepEqual(v2.specs, { cpu_cores: 2, ram_mb: 2048, storage_gb: 20 });
    await assertPoolConsistent(t, c.accountId);
  });

  test('GET /v1/vms: data.vms with v1 list fields and pagination; VMs of both versions', async () => {
    const res = await v1(t.app, 'GET', '/v1/vms', { key: c.key, query: { per_page: '1' } });
    assert.equal(res.statusCode, 200);
    const out = json(res);
    assert.deepEqual(out.pagination, { current_page: 1, total: 2, total_pages: 2 });
    assert.equal(out.data.vms.length, 1);
    const all = json(await v1(t.app, 'GET', '/v1/vms', { key: c.key })).data.vms;
    const mine = all.find((v: { unique_id: string }) => v.unique_id === v2vm.id);
    assert.deepEqual(mine, {
      unique_id: v2vm.id, vm_name: 'made-in-v2.example.com', cpu_cores: 2, ram_gb: 2, disk_gb: 20,
      primary_ip: mine.primary_ip, status: 'active', os_name: 'Ubuntu', os_version: '24.04',
    });
    assert.match(mine.primary_ip, /^\d+\.\d+\.\d+\.\d+$/);
    assert.equal(json(await v1(t.app, 'GET', '/v1/vms', { key: other.key })).data.vms.length, 0);
    expectV1Error(await v1(t.app, 'GET', '/v1/vms', { key: c.key, query: { per_page: '101' } }), 422, 'VALIDATION_FAILED', ['per_page']);
  });

  test('GET /v1/vms/{id}: detail fields; another account\'s VM and an unknown id → 404 NOT_FOUND', async () => {
    const res = await v1(t.app, 'GET', `/v1/vms/${v2vm.id}`, { key: c.key });
    assert.equal(res.statusCode, 200);
    const d = json(res).data;
    assert.deepEqual(Object.keys(d).sort(), ['cpu_cores', 'disk_gb', 'primary_ip', 'ram_gb', 'status', 'vm_id', 'vm_name']);
    assert.equal(d.vm_id, v2vm.id);
    assert.equal(d.status, 'active');
    expectV1Error(await v1(t.app, 'GET', `/v1/vms/${v2vm.id}`, { key: other.key }), 404, 'NOT_FOUND');
    expectV1Error(await v1(t.app, 'GET', '/v1/vms/vm_nope', { key: c.key }), 404, 'NOT_FOUND');
    expectV1Error(await v1(t.app, 'GET', `/v1/vms/${v2vm.id}`, { key: c.key, ip: '198.51.100.7' }), 401, 'INVALID_API_KEY');
  });

  test('POST /v1/vms bad input: schema, v1 field names on core refusals, quota, references', async () => {
    const create = (b: unknown) => v1(t.app, 'POST', '/v1/vms', { key: c.key, body: b });
    expectV1Error(await create({ ...body(), ram_gb: 'two' }), 422, 'VALIDATION_FAILED', ['ram_gb']);
    expectV1Error(await create({ ...body(), extra: 1 }), 422, 'VALIDATION_FAILED');
    const { vm_name: _, ...noName } = body();
    expectV1Error(await create(noName), 422, 'VALIDATION_FAILED', ['vm_name']);
    expectV1Error(await create(body({ vm_name: 'not a host name!' })), 422, 'VALIDATION_FAILED', ['vm_name']);
    expectV1Error(await create(body({ password: 'weakpass' })), 422, 'INVALID_PASSWORD', ['password']);
    expectV1Error(await create(body({ location_name: 'Atlantis' })), 422, 'LOCATION_INVALID', ['location_name']);
    // Singapore is in the catalog but served by a partner: no VMs there.
    expectV1Error(await create(body({ location_name: 'Singapore' })), 422, 'LOCATION_INVALID', ['location_name']);
    expectV1Error(await create(body({ os_id: 999 })), 422, 'OS_VERSION_INVALID', ['os_id']);
    // 4 of 8 vCPUs and 4 of 16 GB are used: 5 vCPUs and 13 GB do not fit.
    const quota = expectV1Error(await create(body({ cpu_cores: 5, ram_gb: 13 })), 422, 'QUOTA_EXCEEDED', ['cpu_cores', 'ram_gb']);
    assert.match(quota.message, /pool/);
    const bad = await t.app.inject({ method: 'POST', url: '/v1/vms', headers: { 'x-api-key': c.key, 'content-type': 'application/json' }, payload: '{"vm_name":' });
    expectV1Error(bad, 400, 'REQUEST_MALFORMED');
    await assertPoolConsistent(t, c.accountId);
  });

  test('POST /v1/vms with an Idempotency-Key: a retry answers the first VM', async () => {
    const key = randomUUID();
    const b = body();
    const first = await v1(t.app, 'POST', '/v1/vms', { key: c.key, body: b, headers: { 'idempotency-key': key } });
    assert.equal(first.statusCode, 200, first.body);
    const again = await v1(t.app, 'POST', '/v1/vms', { key: c.key, body: b, headers: { 'idempotency-key': key } });
    assert.equal(again.statusCode, 200);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal(json(again).data.vm_id, json(first).data.vm_id);
    await settle(c.key, json(first).data.vm_id);
    assert.equal((await v1(t.app, 'DELETE', `/v1/vms/${json(first).data.vm_id}`, { key: c.key, body: { confirm_vm_name: b.vm_name } })).statusCode, 200);
    await settle(c.key, json(first).data.vm_id);
  });

  test('stop and start: v1 messages; status reads stopped while off; a pointless action is 422 STATE_CONFLICT', async () => {
    const stop = await v1(t.app, 'POST', `/v1/vms/${vmId}/stop`, { key: c.key });
    assert.equal(stop.statusCode, 200, stop.body);
    assert.deepEqual(json(stop), { success: true, message: 'VM is stopping' });
    await settle(c.key, vmId);
    assert.equal(json(await v1(t.app, 'GET', `/v1/vms/${vmId}`, { key: c.key })).data.status, 'stopped');
    expectV1Error(await v1(t.app, 'POST', `/v1/vms/${vmId}/stop`, { key: c.key }), 422, 'STATE_CONFLICT');
    const start = await v1(t.app, 'POST', `/v1/vms/${vmId}/start`, { key: c.key });
    assert.deepEqual(json(start), { success: true, message: 'VM is starting' });
    await settle(c.key, vmId);
    assert.equal(json(await v1(t.app, 'GET', `/v1/vms/${vmId}`, { key: c.key })).data.status, 'active');
    expectV1Error(await v1(t.app, 'POST', `/v1/vms/${vmId}/start`, { key: other.key }), 404, 'NOT_FOUND');
    expectV1Error(await v1(t.app, 'POST', `/v1/vms/${vmId}/stop`, { key: c.key, ip: '198.51.100.7' }), 401, 'INVALID_API_KEY');
  });

  test('GET /v1/vms/{id}/usage: load average, memory MB, disk GB', async () => {
    const res = await v1(t.app, 'GET', `/v1/vms/${vmId}/usage`, { key: c.key });
    assert.equal(res.statusCode, 200, res.body);
    const u = json(res).data.usage;
    assert.deepEqual(Object.keys(u).sort(), ['cpu', 'disk', 'memory']);
    assert.ok(u.cpu.load_average >= 0 && u.cpu.load_average <= 2, String(u.cpu.load_average));
    assert.ok(Number.isInteger(u.memory.used_mb) && u.memory.used_mb <= 2048);
    assert.ok(u.disk.used_gb >= 0 && u.disk.used_gb <= 20);
    expectV1Error(await v1(t.app, 'GET', `/v1/vms/${vmId}/usage`, { key: other.key }), 404, 'NOT_FOUND');
  });

  test('usage: a failing platform is 502 UPSTREAM_ERROR, a full one 422 CAPACITY_UNAVAILABLE, in the v1 envelope', async () => {
    for (const [mode, status, code] of [['upstream_error', 502, 'UPSTREAM_ERROR'], ['capacity_unavailable', 422, 'CAPACITY_UNAVAILABLE']] as const) {
      await setFault(t, { mode, calls: ['metrics'] });
      try {
        expectV1Error(await v1(t.app, 'GET', `/v1/vms/${vmId}/usage`, { key: c.key }), status, code);
      } finally {
        await clearFault(t);
      }
    }
  });

  test('POST /v1/vms/{id}/resize: v1 sizes in GB, the pool takes the growth, quota names v1 fields', async () => {
    expectV1Error(await v1(t.app, 'POST', `/v1/vms/${vmId}/resize`, { key: c.key, body: {} }), 422, 'VALIDATION_FAILED');
    expectV1Error(await v1(t.app, 'POST', `/v1/vms/${vmId}/resize`, { key: c.key, body: { disk_gb: 10 } }), 422, 'VALIDATION_FAILED', ['disk_gb']);
    expectV1Error(await v1(t.app, 'POST', `/v1/vms/${vmId}/resize`, { key: c.key, body: { ram_gb: 15 } }), 422, 'QUOTA_EXCEEDED', ['ram_gb']);
    expectV1Error(await v1(t.app, 'POST', `/v1/vms/${vmId}/resize`, { key: other.key, body: { cpu_cores: 3 } }), 404, 'NOT_FOUND');
    const res = await v1(t.app, 'POST', `/v1/vms/${vmId}/resize`, { key: c.key, body: { cpu_cores: 3, ram_gb: 3 } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json(res).message, 'VM resize started');
    assert.equal(json(res).data.vm_id, vmId);
    await settle(c.key, vmId);
    const d = json(await v1(t.app, 'GET', `/v1/vms/${vmId}`, { key: c.key })).data;
    assert.deepEqual([d.cpu_cores, d.ram_gb, d.disk_gb], [3, 3, 20]);
    assert.equal(json(await v1(t.app, 'GET', '/v1/resources', { key: c.key })).data.usage.cpu_used, 5);
    await assertPoolConsistent(t, c.accountId);
  });

  test('snapshots: create, list under data.snapshots (completed), restore, delete', async () => {
    const created = await v1(t.app, 'POST', `/v1/vms/${vmId}/snapshots`, { key: c.key, body: { name: 'before' } });
    assert.equal(created.statusCode, 200, created.body);
    const s = json(created).data;
    assert.deepEqual(Object.keys(s).sort(), ['id', 'name', 'status']);
    assert.equal(s.name, 'before');
    assert.equal(s.status, 'creating');
    const snapshotId = s.id as number;
    await settle(c.key, vmId);
    const list = await v1(t.app, 'GET', `/v1/vms/${vmId}/snapshots`, { key: c.key });
    assert.deepEqual(json(list).data.snapshots, [{ id: snapshotId, name: 'before', status: 'completed' }]);
    assert.deepEqual(json(list).pagination, { current_page: 1, total: 1, total_pages: 1 });
    const restore = await v1(t.app, 'POST', `/v1/vms/${vmId}/snapshots/${snapshotId}/restore`, { key: c.key });
    assert.deepEqual(json(restore), { success: true, message: 'Snapshot restore started' });
    await settle(c.key, vmId);
    expectV1Error(await v1(t.app, 'POST', `/v1/vms/${vmId}/snapshots`, { key: c.key, body: {} }), 422, 'VALIDATION_FAILED', ['name']);
    expectV1Error(await v1(t.app, 'GET', `/v1/vms/${vmId}/snapshots`, { key: other.key }), 404, 'NOT_FOUND');
    expectV1Error(await v1(t.app, 'POST', `/v1/vms/${vmId}/snapshots/${snapshotId}/restore`, { key: other.key }), 404, 'NOT_FOUND');
    expectV1Error(await v1(t.app, 'DELETE', `/v1/vms/${vmId}/snapshots/abc`, { key: c.key }), 404, 'NOT_FOUND');
    expectV1Error(await v1(t.app, 'DELETE', `/v1/vms/${vmId}/snapshots/${snapshotId}`, { key: other.key }), 404, 'NOT_FOUND');
    const del = await v1(t.app, 'DELETE', `/v1/vms/${vmId}/snapshots/${snapshotId}`, { key: c.key });
    assert.deepEqual(json(del), { success: true, message: 'Snapshot deleted' });
    assert.deepEqual(json(await v1(t.app, 'GET', `/v1/vms/${vmId}/snapshots`, { key: c.key })).data.snapshots, []);
    expectV1Error(await v1(t.app, 'DELETE', `/v1/vms/${vmId}/snapshots/${snapshotId}`, { key: c.key }), 404, 'NOT_FOUND');
    await settle(c.key, vmId);
  });

  test('DELETE /v1/vms/{id}: confirm_vm_name must name the VM; the share returns; v2 no longer sees it', async () => {
    expectV1Error(await v1(t.app, 'DELETE', `/v1/vms/${vmId}`, { key: c.key, body: {} }), 422, 'VALIDATION_FAILED', ['confirm_vm_name']);
    expectV1Error(await v1(t.app, 'DELETE', `/v1/vms/${vmId}`, { key: c.key, body: { confirm_vm_name: 'wrong.example.com' } }), 422, 'VALIDATION_FAILED', ['confirm_vm_name']);
    expectV1Error(await v1(t.app, 'DELETE', `/v1/vms/${vmId}`, { key: other.key, body: { confirm_vm_name: 'made-in-v1.example.com' } }), 404, 'NOT_FOUND');
    const res = await v1(t.app, 'DELETE', `/v1/vms/${vmId}`, { key: c.key, body: { confirm_vm_name: 'made-in-v1.example.com' } });
    assert.deepEqual(json(res), { success: true, message: 'VM is being deleted' });
    assert.equal((await call(t.app, 'GET', `/v2/vdc/vms/${vmId}`, { key: c.key })).statusCode, 404);
    expectV1Error(await v1(t.app, 'GET', `/v1/vms/${vmId}`, { key: c.key }), 404, 'NOT_FOUND');
    assert.equal(json(await v1(t.app, 'GET', '/v1/resources', { key: c.key })).data.usage.cpu_used, 2);
    await assertPoolConsistent(t, c.accountId, { idle: false });
  });

  test('a VM made in v2 is deleted through v1', async () => {
    const res = await v1(t.app, 'DELETE', `/v1/vms/${v2vm.id}`, { key: c.key, body: { confirm_vm_name: v2vm.name } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json(await v1(t.app, 'GET', '/v1/resources', { key: c.key })).data.usage.cpu_used, 0);
  });
});

test('12 parallel v1 creates against a pool for 3: 3 × 200, 9 × 422 QUOTA_EXCEEDED naming v1 fields; the pool never overcommits', async () => {
  const racer = await createCustomer(t);
  await setPool(t, racer.accountId, { cpu: 3, ram_mb: 16384, storage_gb: 200, ipv4: 10, ipv6: 10 });
  const results = await Promise.all(Array.from({ length: 12 }, () => v1(t.app, 'POST', '/v1/vms', { key: racer.key, body: body() })));
  const created = results.filter((r) => r.statusCode === 200);
  const refused = results.filter((r) => r.statusCode === 422);
  assert.equal(created.length, 3, results.map((r) => r.statusCode).join(','));
  assert.equal(refused.length, 9);
  for (const r of refused) expectV1Error(r, 422, 'QUOTA_EXCEEDED', ['cpu_cores']);
  const pool = json(await v1(t.app, 'GET', '/v1/resources', { key: racer.key })).data;
  assert.deepEqual([pool.usage.cpu_used, pool.available.cpu_available], [3, 0]);
  for (const r of created) await settle(racer.key, json(r).data.vm_id);
  await assertPoolConsistent(t, racer.accountId);
});
