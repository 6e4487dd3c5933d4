// A create that finally fails after the platform built the machine (a worker died after the
// provider call, then the retries ran out) is refunded and cancelled, and the machine destroyed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { failOperation } from '../../src/core/operations/execute.ts';
import { computeFor } from '../../src/runtime.ts';
import { noopPanel } from '../../src/providers/hosting/noop.ts';
import { call, createCustomer, json, startApp } from '../helpers/app.ts';
import { serverBody } from '../helpers/servers.ts';

test('final failure after the machine exists: refund, cancel, and the machine and its addresses are freed', async () => {
  const t = await startApp();
  const c = await createCustomer(t, { deposit: '5.00' });
  const res = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ name: 'leak.example.com' }) });
  assert.equal(res.statusCode, 201);
  const { id, operation } = json(res).data;
  const compute = computeFor(t.config, t.database.db);
  // The provider made the machine for this operation (the worker then died before recording it).
  const machine = await compute.create({
    token: operation.id, hostname: 'leak.example.com', locationId: 1, cpuCores: 1, ramMb: 1024, storageGb: 25,
    osSlug: 'ubuntu-24.04', password: 'x', fromSnapshotRef: null, extraIpv4: 0, extraIpv6: 0, ipv6: true,
  }, async () => {});

  await failOperation({ db: t.database.db, compute, hosting: noopPanel }, operation.id, 'Gave up after 6 attempts');

  const op = json(await call(t.app, 'GET', `/v2/operations/${operation.id}`, { key: c.key })).data;
  assert.equal(op.status, 'failed');
  assert.equal(json(await call(t.app, 'GET', `/v2/servers/${id}`, { key: c.key })).data.status, 'cancelled');
  assert.equal(json(await call(t.app, 'GET', '/v2/billing/balance', { key: c.key })).data.balance.amount, '5.00');
  const vm = await t.database.db.selectFrom('sim_vms').select(['destroyed_at']).where('id', '=', machine.ref).executeTakeFirstOrThrow();
  assert.ok(vm.destroyed_at, 'the machine was destroyed');
  const leases = await t.database.db.selectFrom('ip_addresses').select('address').where('vm_id', '=', machine.ref).execute();
  assert.equal(leases.length, 0, 'its addresses went back to the pool');

  // A second (late) failure of the same operation changes nothing and refunds nothing more.
  await failOperation({ db: t.database.db, compute, hosting: noopPanel }, operation.id, 'again');
  assert.equal(json(await call(t.app, 'GET', '/v2/billing/balance', { key: c.key })).data.balance.amount, '5.00');
});
