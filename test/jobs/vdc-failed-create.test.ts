// A VM create that finally fails after the platform built the machine (a worker died after the
// provider call, then the retries ran out): the VM is marked failed, its share goes back to the
// pool, and the machine and its addresses are freed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { failOperation } from '../../src/core/operations/execute.ts';
import { noopPanel } from '../../src/providers/hosting/noop.ts';
import { computeFor } from '../../src/runtime.ts';
import { call, createCustomer, json, startApp } from '../helpers/app.ts';
import { assertPoolConsistent, resources, setPool, vmBody } from '../helpers/vdc.ts';

test('final failure after the machine exists: failed, resources back in the pool, the machine destroyed; a late second failure changes nothing', async () => {
  const t = await startApp();
  const c = await createCustomer(t);
  await setPool(t, c.accountId, { cpu: 2, ram_mb: 4096, storage_gb: 100, ipv4: 2, ipv6: 2 });
  const res = await call(t.app, 'POST', '/v2/vdc/vms', { key: c.key, body: vmBody({ name: 'leak.example.com', cpu_cores: 2 }) });
  assert.equal(res.statusCode, 201, res.body);
  const { id, operation } = json(res).data;
  assert.equal((await resources(t, c.key)).cpu.used, 2);
  const compute = computeFor(t.config, t.database.db);
  // The provider made the machine for this operation (the worker then died before recording it).
  const machine = await compute.create({
    token: operation.id, hostname: 'leak.example.com', locationId: 1, cpuCores: 2, ramMb: 1024, storageGb: 10,
    osSlug: 'ubuntu-24.04', password: 'x', fromSnapshotRef: null, extraIpv4: 0, extraIpv6: 0, ipv6: true,
  }, async () => {});

  await failOperation({ db: t.database.db, compute, hosting: noopPanel }, operation.id, 'Gave up after 6 attempts');

  const op = json(await call(t.app, 'GET', `/v2/operations/${operation.id}`, { key: c.key })).data;
  assert.equal(op.status, 'failed');
  assert.equal(op.detail, 'Gave up after 6 attempts');
  const vm = json(await call(t.app, 'GET', `/v2/vdc/vms/${id}`, { key: c.key })).data;
  assert.equal(vm.status, 'failed');
  assert.equal(vm.power_state, 'error');
  assert.deepEqual((await resources(t, c.key)).cpu, { total: 2, used: 0, available: 2 });
  await assertPoolConsistent(t, c.accountId);
  const made = await t.database.db.selectFrom('sim_vms').select(['destroyed_at']).where('id', '=', machine.ref).executeTakeFirstOrThrow();
  assert.ok(made.destroyed_at, 'the machine was destroyed');
  assert.deepEqual(await t.database.db.selectFrom('ip_addresses').select('address').where('vm_id', '=', machine.ref).execute(), []);

  await failOperation({ db: t.database.db, compute, hosting: noopPanel }, operation.id, 'again');
  assert.deepEqual((await resources(t, c.key)).cpu, { total: 2, used: 0, available: 2 });
  await assertPoolConsistent(t, c.accountId);
});
