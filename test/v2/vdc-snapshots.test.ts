// Snapshots of VDC VMs: free; take (POST), list, delete and restore — shapes, the operations on
// the VM, the platform's side (simulated), 404s and 409s.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type Customer, type TestApp, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { assertError, clearFault, setFault } from '../helpers/server-actions.ts';
import { type Json } from '../helpers/servers.ts';
import { BIG_POOL, activeVm, setPool, vmAction, vmRow } from '../helpers/vdc.ts';

const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
let t: TestApp;
let c: Customer;
let vm: Json;

before(async () => {
  t = await startApp({ worker: 'embedded' });
  c = await createCustomer(t);
  await setPool(t, c.accountId, BIG_POOL);
  vm = await activeVm(t, c, { storage_gb: 40 });
});

const snapshots = (id: string, key = c.key, query?: Record<string, string>) => call(t.app, 'GET', `/v2/vdc/vms/${id}/snapshots`, { key, ...(query ? { query } : {}) });
const take = (id: string, body: unknown, key = c.key) => call(t.app, 'POST', `/v2/vdc/vms/${id}/snapshots`, { key, body });
const remove = (id: string, sid: number | string, key = c.key) => call(t.app, 'DELETE', `/v2/vdc/vms/${id}/snapshots/${sid}`, { key });
const restore = (id: string, sid: number | string, key = c.key, body?: unknown) =>
  call(t.app, 'POST', `/v2/vdc/vms/${id}/snapshots/${sid}/restore`, { key, ...(body === undefined ? {} : { body }) });

/** Takes a snapshot and waits until it is available. */
async function available(id: string, name: string): Promise<Json> {
  const res = await take(id, { name });
  assert.equal(res.statusCode, 201, res.body);
  assert.equal((await waitForOperation(t, c.key, json(res).data.operation.id)).status, 'completed');
  return json(res).data;
}

test('take: 201 with the snapshot (creating) and its vdc_vm.snapshot operation; free; then available with its size', async () => {
  const res = await take(vm.id, { name: '  before-upgrade ' });
  assert.equal(res.statusCode, 201, res.body);
  const d = json(res).data;
  assert.deepEqual(Object.keys(d).sort(), ['created_at', 'id', 'name', 'operation', 'status']);
  assert.equal(typeof d.id, 'number');
  assert.equal(d.name, 'before-upgrade');
  assert.equal(d.status, 'creating');
  assert.match(d.created_at, TS);
  assert.equal(d.operation.type, 'vdc_vm.snapshot');
  assert.deepEqual(d.operation.resource, { type: 'vdc_vm', id: vm.id });
  assert.equal((await waitForOperation(t, c.key, d.operation.id)).status, 'completed');
  const list = json(await snapshots(vm.id));
  assert.deepEqual(list.meta.pagination, { page: 1, per_page: 25, total: 1, total_pages: 1 });
  const s = list.data[0];
  assert.deepEqual(Object.keys(s).sort(), ['created_at', 'id', 'name', 'size_gb', 'status']);
  assert.equal(s.status, 'available');
  assert.ok(s.size_gb > 0 && s.size_gb <= 40, String(s.size_gb));
  assert.deepEqual(await t.database.db.selectFrom('transactions').select('id').where('account_id', '=', c.accountId).execute(), [], 'free');
});

test('list: newest first, paged; take: bad input 422', async () => {
  const a = await available(vm.id, 'one');
  const b = await available(vm.id, 'two');
  const page1 = json(await snapshots(vm.id, c.key, { per_page: '1' }));
  assert.deepEqual(page1.data.map((x: { id: number }) => x.id), [b.id]);
  const page2 = json(await snapshots(vm.id, c.key, { per_page: '1', page: '2' }));
  assert.deepEqual(page2.data.map((x: { id: number }) => x.id), [a.id]);
  for (const [body, field] of [[{}, 'name'], [{ name: '' }, 'name'], [{ name: '   ' }, 'name'], [{ name: 5 }, 'name'], [{ name: 'x'.repeat(101) }, 'name'],
    [{ name: 'ok', size: 1 }, 'size'], [{ name: 'nul\u0000' }, 'name']] as [unknown, string][]) {
    assertError(await take(vm.id, body), 422, 'VALIDATION_FAILED', field);
  }
  assertError(await snapshots(vm.id, c.key, { per_page: '0' }), 422, 'VALIDATION_FAILED', 'per_page');
});

test('a failed snapshot disappears; a VM busy or not active is 409', async () => {
  await setFault(t, { mode: 'capacity_unavailable', calls: ['snapshot'] });
  let failedId: number;
  try {
    const res = await take(vm.id, { name: 'doomed' });
    failedId = json(res).data.id;
    assert.equal((await waitForOperation(t, c.key, json(res).data.operation.id)).status, 'failed');
  } finally {
    await clearFault(t);
  }
  assert.ok(!json(await snapshots(vm.id)).data.some((x: { id: number }) => x.id === failedId));

  // Retryable failures keep the operation (and so the VM) busy until the retry.
  await setFault(t, { mode: 'upstream_error', remaining: 1, calls: ['snapshot'] });
  const busy = await take(vm.id, { name: 'slow' });
  const op = json(busy).data.operation.id;
  for (const res of [await take(vm.id, { name: 'second' }), await vmAction(t, c.key, vm.id, 'reboot'), await remove(vm.id, json(busy).data.id)]) {
    assertError(res, 409, 'STATE_CONFLICT');
    assert.match(json(res).error.message, new RegExp(`^Operation ${op} \\(vdc_vm\\.snapshot\\)`));
  }
  assertError(await restore(vm.id, json(busy).data.id), 409, 'STATE_CONFLICT');
  assert.equal((await waitForOperation(t, c.key, op)).status, 'completed');

  const s = await activeVm(t, c);
  await t.database.db.updateTable('vdc_vms').set({ status: 'pending' }).where('id', '=', s.id).execute();
  assertError(await take(s.id, { name: 'x' }), 409, 'STATE_CONFLICT');
  await t.database.db.updateTable('vdc_vms').set({ status: 'active' }).where('id', '=', s.id).execute();
});

test('restore: 202 with vdc_vm.restore; the disk and OS come back from the snapshot, the size stays', async () => {
  const snap = await available(vm.id, 'ubuntu-state');
  assert.equal((await waitForOperation(t, c.key, json(await vmAction(t, c.key, vm.id, 'reinstall', { os_version_id: 3 })).data.operation.id)).status, 'completed');
  assert.equal(json(await call(t.app, 'GET', `/v2/vdc/vms/${vm.id}`, { key: c.key })).data.os, 'debian-12');
  const res = await restore(vm.id, snap.id);
  assert.equal(res.statusCode, 202, res.body);
  const d = json(res).data;
  assert.deepEqual(Object.keys(d), ['operation']);
  assert.equal(d.operation.type, 'vdc_vm.restore');
  assert.equal(d.operation.status, 'queued');
  assert.equal((await waitForOperation(t, c.key, d.operation.id)).status, 'completed');
  const after = json(await call(t.app, 'GET', `/v2/vdc/vms/${vm.id}`, { key: c.key })).data;
  assert.equal(after.os, 'ubuntu-24.04', 'the platform reports the snapshot\'s OS');
  assert.equal((await vmRow(t, vm.id)).os_version_id, 1);
  assert.equal(after.power_state, 'running');
  assert.deepEqual(after.specs, vm.specs);
  assertError(await restore(vm.id, snap.id, c.key, { force: true }), 422, 'VALIDATION_FAILED', 'force');
});

test('a restore the platform cannot do fails its operation; power becomes unknown', async () => {
  const snap = await available(vm.id, 'to-fail');
  await setFault(t, { mode: 'capacity_unavailable', calls: ['restoreSnapshot'] });
  try {
    const res = await restore(vm.id, snap.id);
    assert.equal((await waitForOperation(t, c.key, json(res).data.operation.id)).status, 'failed');
  } finally {
    await clearFault(t);
  }
  assert.equal((await vmRow(t, vm.id)).power_state, 'unknown');
  // Either power verb may follow.
  assert.equal((await waitForOperation(t, c.key, json(await vmAction(t, c.key, vm.id, 'start')).data.operation.id)).status, 'completed');
});

test('delete: 200, gone from the list at once; the vdc_vm.snapshot_delete operation removes it from the platform', async () => {
  const snap = await available(vm.id, 'to-delete');
  const row = await t.database.db.selectFrom('vdc_snapshots').selectAll().where('id', '=', snap.id).executeTakeFirstOrThrow();
  const res = await remove(vm.id, snap.id);
  assert.equal(res.statusCode, 200, res.body);
  const d = json(res).data;
  assert.deepEqual(Object.keys(d).sort(), ['id', 'operation', 'status']);
  assert.equal(d.id, snap.id);
  assert.equal(d.status, 'deleted');
  assert.equal(d.operation.type, 'vdc_vm.snapshot_delete');
  assert.ok(!json(await snapshots(vm.id)).data.some((x: { id: number }) => x.id === snap.id));
  assert.equal((await waitForOperation(t, c.key, d.operation.id)).status, 'completed');
  assert.equal(await t.database.db.selectFrom('sim_snapshots').select('id').where('id', '=', row.provider_ref!).executeTakeFirst(), undefined);
  assertError(await remove(vm.id, snap.id), 404, 'RESOURCE_NOT_FOUND');
  assertError(await restore(vm.id, snap.id), 404, 'RESOURCE_NOT_FOUND');
});

test('a snapshot is reached only through its own VM; unknown ids 404, malformed ids 422', async () => {
  const snap = await available(vm.id, 'mine');
  const otherVm = await activeVm(t, c);
  for (const res of [await remove(otherVm.id, snap.id), await restore(otherVm.id, snap.id), await remove(vm.id, 999999), await restore(vm.id, 999999)]) {
    assertError(res, 404, 'RESOURCE_NOT_FOUND');
  }
  for (const sid of ['x', '0', '1.5', '99999999999']) assertError(await remove(vm.id, sid), 422, 'VALIDATION_FAILED', 'sid');
  const stranger = await createCustomer(t);
  for (const res of [await snapshots(vm.id, stranger.key), await remove(vm.id, snap.id, stranger.key), await restore(vm.id, snap.id, stranger.key), await take(vm.id, { name: 'x' }, stranger.key)]) {
    assertError(res, 404, 'RESOURCE_NOT_FOUND');
    assert.ok(!res.body.includes('mine'));
  }
});

test('deleting the VM takes its snapshots with it, upstream too', async () => {
  const s = await activeVm(t, c, { name: 'short-lived.example.com' });
  const snap = await available(s.id, 'last');
  const ref = (await t.database.db.selectFrom('vdc_snapshots').select('provider_ref').where('id', '=', snap.id).executeTakeFirstOrThrow()).provider_ref!;
  const res = await call(t.app, 'DELETE', `/v2/vdc/vms/${s.id}`, { key: c.key, query: { confirm_name: 'short-lived.example.com' } });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal((await waitForOperation(t, c.key, json(res).data.operation.id)).status, 'completed');
  assert.ok((await t.database.db.selectFrom('vdc_snapshots').select('deleted_at').where('id', '=', snap.id).executeTakeFirstOrThrow()).deleted_at);
  assert.equal(await t.database.db.selectFrom('sim_snapshots').select('id').where('id', '=', ref).executeTakeFirst(), undefined);
});
