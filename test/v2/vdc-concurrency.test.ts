// The pool under concurrency: however many creates, resizes and operator changes race, `used`
// never exceeds `total` (the database refuses it), and it always equals the sum over live VMs.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type Customer, type TestApp, BUSY_MACHINE_CONNECT_WAIT_MS, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { clearFault, setFault } from '../helpers/server-actions.ts';
import { type Json } from '../helpers/servers.ts';
import { activeVm, assertPoolConsistent, resources, setPool, vmAction, vmBody } from '../helpers/vdc.ts';

let t: TestApp;

before(async () => {
  t = await startApp({ worker: 'embedded', databaseConnectTimeoutMs: BUSY_MACHINE_CONNECT_WAIT_MS });
});

const PLENTY = { ram_mb: 65_536, storage_gb: 1000, ipv4: 50, ipv6: 50 };

/** Reads the customer's pool over and over until `done`; every reading must be sane. */
function sampleWhile(key: string, done: Promise<unknown>): Promise<number> {
  let stop = false;
  void done.finally(() => { stop = true; });
  return (async () => {
    let n = 0;
    while (!stop) {
      const pool = await resources(t, key);
      for (const b of ['cpu', 'ram_mb', 'storage_gb', 'ipv4', 'ipv6', 'bandwidth_mbit']) {
        const x = pool[b];
        assert.ok(x.available >= 0 && x.used <= x.total && x.used + x.available === x.total, `${b}: ${JSON.stringify(x)}`);
      }
      n++;
    }
    return n;
  })();
}

async function raceCreates(c: Customer, n: number, apps = [t.app]): Promise<{ codes: number[]; created: Json[]; refused: Json[] }> {
  const all = Promise.all(Array.from({ length: n }, (_, i) =>
    call(apps[i % apps.length]!, 'POST', '/v2/vdc/vms', { key: c.key, body: vmBody({ name: `race-${i}.example.com` }) })));
  const samples = sampleWhile(c.key, all);
  const results = await all;
  assert.ok((await samples) > 0, 'the pool was read during the race');
  return {
    codes: results.map((r) => r.statusCode),
    created: results.filter((r) => r.statusCode === 201).map((r) => json(r).data),
    refused: results.filter((r) => r.statusCode !== 201).map((r) => json(r)),
  };
}

test('20 parallel creates against a pool that fits exactly 3: 3 VMs, 17 QUOTA_EXCEEDED naming cpu, used = Σ live VMs', async () => {
  const c = await createCustomer(t);
  await setPool(t, c.accountId, { cpu: 3, ...PLENTY });
  const { codes, created, refused } = await raceCreates(c, 20);
  assert.equal(codes.filter((s) => s === 201).length, 3, codes.join(','));
  assert.equal(codes.filter((s) => s === 422).length, 17, codes.join(','));
  for (const r of refused) {
    assert.equal(r.error.code, 'QUOTA_EXCEEDED');
    assert.deepEqual(r.error.errors.map((e: { field: string }) => e.field), ['cpu']);
  }
  const rows = await t.database.db.selectFrom('vdc_vms').select('id').where('account_id', '=', c.accountId).execute();
  assert.equal(rows.length, 3, 'refused requests left no VM rows');
  const ops = await t.database.db.selectFrom('operations').select('id').where('account_id', '=', c.accountId).execute();
  assert.equal(ops.length, 3, 'and no operations');
  assert.deepEqual(await assertPoolConsistent(t, c.accountId), { cpu: 3, ram_mb: 3072, storage_gb: 30, ipv4: 3, ipv6: 3 });
  const pool = await resources(t, c.key);
  assert.deepEqual(pool.cpu, { total: 3, used: 3, available: 0 });
  for (const vm of created) assert.equal((await waitForOperation(t, c.key, vm.operation.id)).status, 'completed');
  await assertPoolConsistent(t, c.accountId);
});

test('the same across two API instances, with IPv4 the bucket that runs out', async () => {
  const c = await createCustomer(t);
  await setPool(t, c.accountId, { ...PLENTY, cpu: 100, ipv4: 4 });
  const sibling = await t.sibling();
  const { codes, created, refused } = await raceCreates(c, 12, [t.app, sibling]);
  assert.equal(codes.filter((s) => s === 201).length, 4, codes.join(','));
  for (const r of refused) assert.deepEqual(r.error.errors.map((e: { field: string }) => e.field), ['ipv4']);
  for (const vm of created) await waitForOperation(t, c.key, vm.operation.id);
  assert.deepEqual((await resources(t, c.key)).ipv4, { total: 4, used: 4, available: 0 });
  await assertPoolConsistent(t, c.accountId);
});

test('parallel resizes that together exceed the pool: only those that fit are accepted; the rest are QUOTA_EXCEEDED', async () => {
  const c = await createCustomer(t);
  await setPool(t, c.accountId, { cpu: 14, ...PLENTY });
  const vms = await Promise.all(Array.from({ length: 8 }, (_, i) => activeVm(t, c, { name: `r-${i}.example.com` })));
  // 8 used, 6 available; each resize wants 2 more: exactly 3 fit.
  const all = Promise.all(vms.map((vm) => vmAction(t, c.key, vm.id, 'resize', { cpu_cores: 3 })));
  const samples = sampleWhile(c.key, all);
  const results = await all;
  await samples;
  const codes = results.map((r) => r.statusCode);
  assert.equal(codes.filter((s) => s === 202).length, 3, codes.join(','));
  assert.equal(codes.filter((s) => s === 422).length, 5, codes.join(','));
  for (const r of results.filter((x) => x.statusCode === 422)) assert.equal(json(r).error.code, 'QUOTA_EXCEEDED');
  await assertPoolConsistent(t, c.accountId, { idle: false });
  assert.deepEqual((await resources(t, c.key)).cpu, { total: 14, used: 14, available: 0 });
  for (const r of results.filter((x) => x.statusCode === 202)) assert.equal((await waitForOperation(t, c.key, json(r).data.operation.id)).status, 'completed');
  await assertPoolConsistent(t, c.accountId);
  const sizes = await t.database.db.selectFrom('vdc_vms').select('cpu_cores').where('account_id', '=', c.accountId).execute();
  assert.deepEqual(sizes.map((s) => s.cpu_cores).sort(), [1, 1, 1, 1, 1, 3, 3, 3]);

  // A shrink gives back only once it is done: growths asked while the shrinks run find nothing free.
  // (The platform keeps failing the shrinks, retryably, until the fault is cleared: they are surely still running.)
  const grown = (await t.database.db.selectFrom('vdc_vms').select('id').where('account_id', '=', c.accountId).where('cpu_cores', '=', 3).execute()).map((r) => r.id);
  const small = vms.map((v) => v.id).filter((id) => !grown.includes(id));
  await setFault(t, { mode: 'upstream_error', calls: ['resize'] });
  let shrinks: Json[];
  try {
    shrinks = await Promise.all(grown.map((id) => vmAction(t, c.key, id, 'resize', { cpu_cores: 1 })));
    assert.deepEqual(shrinks.map((r) => r.statusCode), grown.map(() => 202), 'shrinks always fit');
    const growths = await Promise.all(small.map((id) => vmAction(t, c.key, id, 'resize', { cpu_cores: 2 })));
    assert.deepEqual(growths.map((r) => r.statusCode), small.map(() => 422), 'nothing is free while the shrinks run');
  } finally {
    await clearFault(t);
  }
  for (const r of shrinks) assert.equal((await waitForOperation(t, c.key, json(r).data.operation.id)).status, 'completed');
  assert.deepEqual((await resources(t, c.key)).cpu, { total: 14, used: 8, available: 6 });
  await assertPoolConsistent(t, c.accountId);
});

test('the operator lowering the pool while creates race: never below what is used, and used never past total', async () => {
  const c = await createCustomer(t);
  await setPool(t, c.accountId, { cpu: 10, ...PLENTY });
  const creates = Array.from({ length: 10 }, (_, i) => call(t.app, 'POST', '/v2/vdc/vms', { key: c.key, body: vmBody({ name: `low-${i}.example.com` }) }));
  const lower = adminCall(t, 'PUT', `/admin/v1/accounts/${c.accountId}/vdc-pool`, { cpu: 5 });
  const [results, lowered] = await Promise.all([Promise.all(creates), lower]);
  const made = results.filter((r) => r.statusCode === 201).length;
  const pool = await resources(t, c.key);
  if (lowered.statusCode === 200) {
    assert.equal(pool.cpu.total, 5);
    assert.ok(made <= 5, `${made} VMs in a pool of 5`);
  } else {
    assert.equal(lowered.statusCode, 409, lowered.body);
    assert.equal(json(lowered).error.code, 'STATE_CONFLICT');
    assert.equal(pool.cpu.total, 10);
    assert.ok(made > 5);
  }
  assert.equal(pool.cpu.used, made);
  for (const r of results.filter((x) => x.statusCode !== 201)) assert.equal(json(r).error.code, 'QUOTA_EXCEEDED');
  for (const r of results.filter((x) => x.statusCode === 201)) await waitForOperation(t, c.key, json(r).data.operation.id);
  await assertPoolConsistent(t, c.accountId);
});

test('delete gives the resources back; a failed provisioning gives them back too', async () => {
  const c = await createCustomer(t);
  await setPool(t, c.accountId, { cpu: 2, ...PLENTY });
  const a = await activeVm(t, c, { name: 'a.example.com' });
  const b = await activeVm(t, c, { name: 'b.example.com' });
  assert.equal((await resources(t, c.key)).cpu.available, 0);
  const del = await call(t.app, 'DELETE', `/v2/vdc/vms/${a.id}`, { key: c.key, query: { confirm_name: 'a.example.com' } });
  assert.equal(del.statusCode, 200, del.body);
  assert.deepEqual((await resources(t, c.key)).cpu, { total: 2, used: 1, available: 1 });
  await assertPoolConsistent(t, c.accountId);

  await setFault(t, { mode: 'capacity_unavailable', calls: ['create'] });
  try {
    const res = await call(t.app, 'POST', '/v2/vdc/vms', { key: c.key, body: vmBody({ name: 'doomed.example.com' }) });
    assert.equal(res.statusCode, 201, res.body);
    const op = await waitForOperation(t, c.key, json(res).data.operation.id);
    assert.equal(op.status, 'failed');
    assert.match(op.detail, /capacity/i);
  } finally {
    await clearFault(t);
  }
  assert.deepEqual((await resources(t, c.key)).cpu, { total: 2, used: 1, available: 1 }, 'given back');
  await assertPoolConsistent(t, c.accountId);
  // The freed room is usable at once.
  const again = await activeVm(t, c, { name: 'c.example.com' });
  assert.equal(again.status, 'active');
  assert.equal((await resources(t, c.key)).cpu.available, 0);
  await assertPoolConsistent(t, c.accountId);
  assert.ok(b.id);
});

test('the database itself refuses a VM the pool cannot hold, even bypassing the API', async () => {
  const c = await createCustomer(t);
  await setPool(t, c.accountId, { cpu: 1, ...PLENTY });
  const row = {
    account_id: c.accountId, name: 'direct.example.com', location_id: 1, os_version_id: 1, cpu_cores: 2, ram_mb: 1024, storage_gb: 10,
    held_cpu: 2, held_ram_mb: 1024, held_storage_gb: 10, held_ipv4: 1, held_ipv6: 0,
  };
  await assert.rejects(t.database.db.insertInto('vdc_vms').values({ id: 'vm_direct0000000001', ...row }).execute(), /vdc_pools_cpu_within_total/);
  const none = await createCustomer(t);
  await assert.rejects(t.database.db.insertInto('vdc_vms').values({ id: 'vm_direct0000000002', ...row, account_id: none.accountId }).execute(), /has no VDC pool/);
  await assertPoolConsistent(t, c.accountId);
});
