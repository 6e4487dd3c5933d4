// POST /v2/vdc/vms/{id}/actions/{verb}: power, reset_password, reinstall and resize as vdc_vm.*
// operations on the servers' machinery — the 202 shape, the effect once the worker ran it, the
// 409 rules shared with servers, resize against the pool, per-verb input rules.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { newId } from '../../src/core/ids.ts';
import { passwordProblem } from '../../src/core/servers/rules.ts';
import { finishOperation, insertOperation } from '../../src/db/queries/operations.ts';
import { type Customer, type TestApp, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { assertError, clearFault, setFault } from '../helpers/server-actions.ts';
import { type Json } from '../helpers/servers.ts';
import { BIG_POOL, activeVm, assertPoolConsistent, createVm, resources, setPool, vmAction, vmRow } from '../helpers/vdc.ts';

let t: TestApp;
let c: Customer;
let vm: Json;

before(async () => {
  t = await startApp({ worker: 'embedded' });
  c = await createCustomer(t);
  await setPool(t, c.accountId, BIG_POOL);
  vm = await activeVm(t, c, { cpu_cores: 2, ram_mb: 2048, storage_gb: 20 });
});

async function run(id: string, verb: string, body?: unknown, key = c.key): Promise<Json> {
  const res = await vmAction(t, key, id, verb, body);
  assert.equal(res.statusCode, 202, res.body);
  const data = json(res).data;
  assert.equal(data.operation.status, 'queued');
  assert.equal(data.operation.type, `vdc_vm.${verb}`);
  const op = await waitForOperation(t, key, data.operation.id);
  assert.equal(op.status, 'completed', op.detail);
  return data;
}

const live = async (id: string) => json(await call(t.app, 'GET', `/v2/vdc/vms/${id}`, { key: c.key })).data;

test('stop, start and reboot: 202 with a queued vdc_vm operation, then the power state the platform reached', async () => {
  const res = await vmAction(t, c.key, vm.id, 'stop');
  assert.equal(res.statusCode, 202, res.body);
  const body = json(res);
  assert.deepEqual(Object.keys(body.data), ['operation']);
  assert.match(body.data.operation.id, /^op_/);
  assert.deepEqual(body.data.operation.resource, { type: 'vdc_vm', id: vm.id });
  assert.equal((await vmRow(t, vm.id)).power_state, 'stopping', 'shown while it runs');
  assert.equal((await waitForOperation(t, c.key, body.data.operation.id)).status, 'completed');
  assert.equal((await live(vm.id)).power_state, 'stopped');
  assert.equal((await vmRow(t, vm.id)).power_state, 'stopped');
  await run(vm.id, 'start');
  assert.equal((await live(vm.id)).power_state, 'running');
  await run(vm.id, 'reboot');
  assert.equal((await vmRow(t, vm.id)).power_state, 'running');
});

test('power verbs that make no sense in the current power state are 409, as for servers', async () => {
  assertError(await vmAction(t, c.key, vm.id, 'start'), 409, 'STATE_CONFLICT');
  await run(vm.id, 'stop');
  for (const verb of ['stop', 'reboot']) {
    const res = await vmAction(t, c.key, vm.id, verb);
    assertError(res, 409, 'STATE_CONFLICT');
    assert.match(json(res).error.message, new RegExp(`^VM ${vm.id} is`));
  }
  await run(vm.id, 'start');
});

test('a power action the platform refuses fails its operation; the power state becomes unknown', async () => {
  const s = await activeVm(t, c);
  await setFault(t, { mode: 'capacity_unavailable', calls: ['power'] });
  try {
    const res = await vmAction(t, c.key, s.id, 'stop');
    const op = await waitForOperation(t, c.key, json(res).data.operation.id);
    assert.equal(op.status, 'failed');
    assert.match(op.detail, /capacity/i);
  } finally {
    await clearFault(t);
  }
  assert.equal((await vmRow(t, s.id)).power_state, 'unknown');
  await run(s.id, 'stop');
});

test('every verb is 409 while another operation runs on the VM (naming it), and on a VM that is not active', async () => {
  const op = await insertOperation(t.database.db, {
    id: newId('op'), account_id: c.accountId, type: 'vdc_vm.test_hold', resource_type: 'vdc_vm', resource_id: vm.id, params: {}, detail: 'Held',
  });
  for (const [verb, body] of [['stop'], ['reboot'], ['reset_password'], ['reinstall'], ['resize', { cpu_cores: 3 }]] as const) {
    const res = await vmAction(t, c.key, vm.id, verb, body);
    assertError(res, 409, 'STATE_CONFLICT');
    assert.match(json(res).error.message, new RegExp(`^Operation ${op.id} \\(vdc_vm\\.test_hold\\) is still running on ${vm.id}`), verb);
  }
  assert.equal((await vmRow(t, vm.id)).held_cpu, 2, 'a refused resize holds nothing more');
  await finishOperation(t.database.db, op.id, 'completed', 'Released');

  const s = await activeVm(t, c);
  const nothing = { held_cpu: 0, held_ram_mb: 0, held_storage_gb: 0, held_ipv4: 0, held_ipv6: 0 };
  for (const status of ['pending', 'failed'] as const) {
    // A failed VM holds nothing (a CHECK says so).
    await t.database.db.updateTable('vdc_vms').set({ status, ...(status === 'failed' ? nothing : {}) }).where('id', '=', s.id).execute();
    for (const verb of ['start', 'stop', 'reboot', 'reset_password', 'reinstall']) assertError(await vmAction(t, c.key, s.id, verb), 409, 'STATE_CONFLICT');
    assertError(await vmAction(t, c.key, s.id, 'resize', { storage_gb: 40 }), 409, 'STATE_CONFLICT');
  }
  await t.database.db.updateTable('vdc_vms').set({ status: 'active', held_cpu: 1, held_ram_mb: 1024, held_storage_gb: 10, held_ipv4: 1, held_ipv6: 1 }).where('id', '=', s.id).execute();
  await assertPoolConsistent(t, c.accountId);
});

test('reset_password: a generated one is shown once and meets the rule; a chosen one is never echoed; a weak one is 422', async () => {
  const data = await run(vm.id, 'reset_password');
  assert.equal(passwordProblem(data.password), null);
  const row = await t.database.db.selectFrom('operations').select('params').where('id', '=', data.operation.id).executeTakeFirstOrThrow();
  assert.equal((row.params as Record<string, unknown>).password, undefined, 'erased once finished');
  const chosen = await run(vm.id, 'reset_password', { password: 'N3w!Passw0rd' });
  assert.equal(chosen.password, undefined);
  assertError(await vmAction(t, c.key, vm.id, 'reset_password', { password: 'weakpass' }), 422, 'INVALID_PASSWORD', 'password');
});

test('reinstall: another OS becomes the VM\'s OS; an unknown one is 422 OS_VERSION_INVALID', async () => {
  await run(vm.id, 'reinstall', { os_version_id: 3 });
  assert.equal((await live(vm.id)).os, 'debian-12');
  assert.equal((await vmRow(t, vm.id)).os_version_id, 3);
  await run(vm.id, 'reinstall');
  assert.equal((await live(vm.id)).os, 'debian-12');
  assertError(await vmAction(t, c.key, vm.id, 'reinstall', { os_version_id: 999 }), 422, 'OS_VERSION_INVALID', 'os_version_id');
});

test('resize: growth is taken from the pool when accepted, a shrink given back when it completes; never charged', async () => {
  const s = await activeVm(t, c, { cpu_cores: 2, ram_mb: 4096, storage_gb: 20 });
  const before = await resources(t, c.key);
  // The first attempt fails (retryably): the retry comes JOB_RETRY_DELAY_S later, so the hold can be seen meanwhile.
  await setFault(t, { mode: 'upstream_error', remaining: 1, calls: ['resize'] });
  const res = await vmAction(t, c.key, s.id, 'resize', { cpu_cores: 4, ram_mb: 2048, storage_gb: 30 });
  assert.equal(res.statusCode, 202, res.body);
  // While it runs the VM holds the larger of both sizes in each bucket.
  const during = await vmRow(t, s.id);
  assert.deepEqual([during.cpu_cores, during.held_cpu, during.held_ram_mb, during.held_storage_gb], [2, 4, 4096, 30]);
  const held = await resources(t, c.key);
  assert.equal(held.cpu.used, before.cpu.used + 2);
  assert.equal(held.ram_mb.used, before.ram_mb.used, 'a shrink is not given back before it is done');
  await assertPoolConsistent(t, c.accountId, { idle: false });
  assert.equal((await waitForOperation(t, c.key, json(res).data.operation.id)).status, 'completed');
  const after = await resources(t, c.key);
  assert.equal(after.cpu.used, before.cpu.used + 2);
  assert.equal(after.ram_mb.used, before.ram_mb.used - 2048, 'the shrink is back in the pool');
  assert.equal(after.storage_gb.used, before.storage_gb.used + 10);
  const l = await live(s.id);
  assert.deepEqual(l.specs, { cpu_cores: 4, ram_mb: 2048, storage_gb: 30 });
  assert.equal(l.power_state, 'running');
  assert.deepEqual(await t.database.db.selectFrom('transactions').select('id').where('account_id', '=', c.accountId).execute(), []);
  await assertPoolConsistent(t, c.accountId);
});

test('resize: more than the pool has is 422 QUOTA_EXCEEDED naming the bucket; a failed resize gives its growth back', async () => {
  const acc = await createCustomer(t);
  await setPool(t, acc.accountId, { cpu: 4, ram_mb: 4096, storage_gb: 100, ipv4: 4 });
  const s = await activeVm(t, acc, { cpu_cores: 2, ram_mb: 2048, storage_gb: 20 });
  const res = await vmAction(t, acc.key, s.id, 'resize', { cpu_cores: 5, ram_mb: 8192 });
  assertError(res, 422, 'QUOTA_EXCEEDED');
  assert.deepEqual(json(res).error.errors.map((e: { field: string }) => e.field), ['cpu', 'ram_mb']);
  assert.equal((await t.database.db.selectFrom('operations').select('id').where('resource_id', '=', s.id).where('type', '=', 'vdc_vm.resize').execute()).length, 0);
  await assertPoolConsistent(t, acc.accountId);

  await setFault(t, { mode: 'capacity_unavailable', calls: ['resize'] });
  try {
    const grow = await vmAction(t, acc.key, s.id, 'resize', { cpu_cores: 4 });
    assert.equal(grow.statusCode, 202, grow.body);
    assert.equal((await waitForOperation(t, acc.key, json(grow).data.operation.id)).status, 'failed');
  } finally {
    await clearFault(t);
  }
  assert.equal((await resources(t, acc.key)).cpu.used, 2, 'the growth is back');
  assert.deepEqual((await live2(acc, s.id)).specs, { cpu_cores: 2, ram_mb: 2048, storage_gb: 20 });
  await assertPoolConsistent(t, acc.accountId);
});

const live2 = async (acc: Customer, id: string) => json(await call(t.app, 'GET', `/v2/vdc/vms/${id}`, { key: acc.key })).data;

test('resize input: at least one size, disks only grow, whole GB of RAM, something must change', async () => {
  const cases: [unknown, string][] = [
    [{}, 'body'], [{ storage_gb: 10 }, 'storage_gb'], [{ ram_mb: 1500 }, 'ram_mb'], [{ cpu_cores: 2, ram_mb: 2048 }, 'body'],
    [{ cpu_cores: 0 }, 'cpu_cores'], [{ cpu_cores: '4' }, 'cpu_cores'], [{ storage_gb: 4001 }, 'storage_gb'],
  ];
  for (const [body, field] of cases) assertError(await vmAction(t, c.key, vm.id, 'resize', body), 422, 'VALIDATION_FAILED', field);
});

test('bad input is 422 naming the field: another verb\'s field, unknown field, wrong type; an unknown verb names verb', async () => {
  const cases: [string, unknown, string][] = [
    ['start', { password: 'N3w!Passw0rd' }, 'password'],
    ['reboot', { os_version_id: 1 }, 'os_version_id'],
    ['reinstall', { cpu_cores: 2 }, 'cpu_cores'],
    ['reset_password', { ram_mb: 2048 }, 'ram_mb'],
    ['stop', { force: true }, 'force'],
    ['resize', { cpu: 2 }, 'cpu'],
    ['reinstall', { os_version_id: '3' }, 'os_version_id'],
    ['reset_password', { password: 12345678 }, 'password'],
    ['reset_password', { password: 'A'.repeat(129) }, 'password'],
    ['reset_password', { password: 'Nul\u0000Passw0rd!' }, 'password'],
  ];
  for (const [verb, body, field] of cases) assertError(await vmAction(t, c.key, vm.id, verb, body), 422, 'VALIDATION_FAILED', field);
  const res = await vmAction(t, c.key, vm.id, 'clone');
  assertError(res, 422, 'VALIDATION_FAILED', 'verb');
  assert.match(json(res).error.errors[0].message, /start, stop, reboot, reinstall, reset_password, resize/);
  assertError(await call(t.app, 'POST', `/v2/vdc/vms/${vm.id}/actions/start`, { key: c.key, body: '{', headers: { 'content-type': 'application/json' } }), 400, 'REQUEST_MALFORMED');
  assertError(await call(t.app, 'GET', `/v2/vdc/vms/${vm.id}/actions/start`, { key: c.key }), 405, 'METHOD_NOT_ALLOWED');
  const pending = await createVm(t, c);
  await waitForOperation(t, c.key, pending.operation.id);
});
