// Addresses are the core's: a create takes its machine's addresses in its own write, so a location
// whose pool is short answers 422 CAPACITY_UNAVAILABLE before any charge — never a charge, a failed
// provisioning and a refund. 20 creates at once against room for 5: exactly 5 servers, 15 × 422
// with nothing charged, and no address handed out twice. Released addresses rest IP_COOLDOWN_S.
// VDC VMs (v2 and v1) take theirs the same way: exactly as many VMs as addresses, the rest 422 with
// nothing written, and a VM that fails or is deleted gives its address back to rest.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type Customer, type TestApp, BUSY_MACHINE_CONNECT_WAIT_MS, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { assertLedgerExact, balanceCents } from '../helpers/server-extras.ts';
import { PASSWORD, UBUNTU, serverBody } from '../helpers/servers.ts';
import { clearFault, setFault } from '../helpers/server-actions.ts';
import { expectV1Error, v1 } from '../helpers/v1.ts';
import { BIG_POOL, assertPoolConsistent, setPool, vmBody } from '../helpers/vdc.ts';
import { setIpCooldown } from '../../src/db/queries/ip-pools.ts';

let t: TestApp;

/** A location with a /29 (5 leasable IPv4 addresses beside the gateway), a /64 and one big node. */
async function smallLocation(code: string, octet: number): Promise<number> {
  const loc = await adminCall(t, 'POST', '/admin/v1/locations', { name: `Small ${code}`, code, country: 'DE', provider: 'primary' });
  assert.equal(loc.statusCode, 201, loc.body);
  const id = json(loc).data.id as number;
  for (const pool of [{ version: 4, cidr: `198.51.${octet}.0/29`, gateway: `198.51.${octet}.1` }, { version: 6, cidr: `2001:db8:${octet}::/64`, gateway: `2001:db8:${octet}::1` }]) {
    const p = await adminCall(t, 'POST', `/admin/v1/locations/${id}/ip-pools`, pool);
    assert.equal(p.statusCode, 201, p.body);
  }
  const node = await adminCall(t, 'POST', '/admin/v1/nodes', { location_id: id, name: `${code}-n1`, cpu_vendor: 'intel', cpu_cores: 512, ram_mb: 1_048_576, storage_gb: 100_000 });
  assert.equal(node.statusCode, 201, node.body);
  return id;
}

before(async () => {
  t = await startApp({ worker: 'embedded', databaseConnectTimeoutMs: BUSY_MACHINE_CONNECT_WAIT_MS });
});

test('20 parallel creates against room for 5 addresses: 5 servers, 15 × 422 uncharged, no address twice', async () => {
  const loc = await smallLocation('ipam-a', 101);
  const customers: Customer[] = [];
  for (let i = 0; i < 4; i++) customers.push(await createCustomer(t, { deposit: '100.00' }));
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) =>
    call(t.app, 'POST', '/v2/servers', { key: customers[i % 4]!.key, body: serverBody({ location_id: loc }) })));
  const created = answers.filter((a) => a.statusCode === 201);
  const refused = answers.filter((a) => a.statusCode === 422);
  assert.equal(created.length, 5, answers.map((a) => `${a.statusCode} ${a.body.slice(0, 120)}`).join('\n'));
  assert.equal(refused.length, 15, answers.filter((a) => a.statusCode !== 201 && a.statusCode !== 422).map((a) => `${a.statusCode} ${a.body.slice(0, 160)}`).join('\n'));
  for (const r of refused) assert.equal(json(r).error.code, 'CAPACITY_UNAVAILABLE');
  // Every create that got its 201 completes: its addresses were taken with it.
  const addresses: string[] = [];
  for (const a of created) {
    const data = json(a).data;
    const key = customers[answers.indexOf(a) % 4]!.key;
    const op = await waitForOperation(t, key, data.operation.id, 60_000);
    assert.equal(op.status, 'completed', op.detail);
    const server = json(await call(t.app, 'GET', `/v2/servers/${data.id}`, { key })).data;
    addresses.push(server.network.ipv4.address);
  }
  assert.equal(new Set(addresses).size, 5, addresses.join(', '));
  for (const a of addresses) assert.match(a, /^198\.51\.101\.[2-6]$/);
  // Nothing charged for the refusals: each balance is 100.00 less its own servers' first cycles.
  const price = 500;
  for (const [i, c] of customers.entries()) {
    const mine = created.filter((a) => answers.indexOf(a) % 4 === i).length;
    assert.equal(await balanceCents(t, c), 10_000 - mine * price);
    await assertLedgerExact(t, c);
  }
  // A clone needs addresses too: the full pool refuses it before its charge.
  const first = created[0]!;
  const owner = customers[answers.indexOf(first) % 4]!;
  const before = await balanceCents(t, owner);
  const clone = await call(t.app, 'POST', `/v2/servers/${json(first).data.id}/actions/clone`, { key: owner.key });
  assert.equal(clone.statusCode, 422, clone.body);
  assert.equal(json(clone).error.code, 'CAPACITY_UNAVAILABLE');
  assert.equal(await balanceCents(t, owner), before);
});

test('a released address rests IP_COOLDOWN_S before it is handed out again', async () => {
  const loc = await smallLocation('ipam-b', 102);
  // As a process started with IP_COOLDOWN_S=3600 (the default) records it.
  await setIpCooldown(t.database.db, 3600);
  const c = await createCustomer(t, { deposit: '100.00' });
  const made: { id: string; ip: string }[] = [];
  for (let i = 0; i < 5; i++) {
    const res = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: loc }) });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal((await waitForOperation(t, c.key, json(res).data.operation.id)).status, 'completed');
    const s = json(await call(t.app, 'GET', `/v2/servers/${json(res).data.id}`, { key: c.key })).data;
    made.push({ id: s.id, ip: s.network.ipv4.address });
  }
  const del = await call(t.app, 'DELETE', `/v2/servers/${made[0]!.id}`, { key: c.key });
  assert.ok(del.statusCode < 300, del.body);
  await until(async () => (await t.database.db.selectFrom('ip_addresses').select('vm_id').where('address', '=', made[0]!.ip).executeTakeFirst())?.vm_id === null);
  // Released, but resting: the pool has nothing to give.
  const refused = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: loc }) });
  assert.equal(refused.statusCode, 422, refused.body);
  assert.equal(json(refused).error.code, 'CAPACITY_UNAVAILABLE');
  // Rested long enough (as if an hour went by): handed out again.
  await t.database.db.updateTable('ip_addresses').set({ released_at: new Date(Date.now() - 3_601_000) }).where('address', '=', made[0]!.ip).execute();
  const again = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: loc }) });
  assert.equal(again.statusCode, 201, again.body);
  assert.equal((await waitForOperation(t, c.key, json(again).data.operation.id)).status, 'completed');
  const s = json(await call(t.app, 'GET', `/v2/servers/${json(again).data.id}`, { key: c.key })).data;
  assert.equal(s.network.ipv4.address, made[0]!.ip);
});

/** The location's address leases: who holds each, and since when each free one rests. */
async function leasesOf(loc: number) {
  return t.database.db.selectFrom('ip_addresses as l').innerJoin('ip_pools as p', 'p.id', 'l.pool_id')
    .select(['l.address', 'l.vm_id', 'l.released_at', 'p.version']).where('p.location_id', '=', loc).orderBy('l.address').execute();
}

test('20 parallel VM creates (v2 and v1) against room for 5 addresses: 5 VMs, 15 × 422 with nothing written, no address twice', async () => {
  const loc = await smallLocation('ipam-v', 103);
  const customers: Customer[] = [];
  for (let i = 0; i < 4; i++) {
    const c = await createCustomer(t);
    await setPool(t, c.accountId, BIG_POOL);
    customers.push(c);
  }
  const viaV1 = (i: number) => i % 5 === 4;
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => {
    const key = customers[i % 4]!.key;
    return viaV1(i)
      ? v1(t.app, 'POST', '/v1/vms', {
        key, body: { vm_name: `v1-vm-${i}.example.com`, password: PASSWORD, cpu_cores: 1, ram_gb: 1, disk_gb: 10, location_name: 'ipam-v', os_id: UBUNTU },
      })
      : call(t.app, 'POST', '/v2/vdc/vms', { key, body: vmBody({ location_id: loc }) });
  }));
  const created = answers.filter((a) => a.statusCode === 201 || (a.statusCode === 200 && json(a).success === true));
  assert.equal(created.length, 5, answers.map((a) => `${a.statusCode} ${a.body.slice(0, 120)}`).join('\n'));
  for (const [i, a] of answers.entries()) {
    if (created.includes(a)) continue;
    if (viaV1(i)) expectV1Error(a, 422, 'CAPACITY_UNAVAILABLE');
    else {
      assert.equal(a.statusCode, 422, a.body);
      assert.equal(json(a).error.code, 'CAPACITY_UNAVAILABLE');
      assert.match(json(a).error.message, /no free address for a new VM/);
    }
  }
  // Nothing written for the refusals: 5 VMs, 5 create operations, 5 machines; the pools hold only theirs.
  const accounts = customers.map((c) => c.accountId);
  const vms = await t.database.db.selectFrom('vdc_vms').select(['id', 'account_id']).where('account_id', 'in', accounts).execute();
  assert.equal(vms.length, 5);
  const ops = await t.database.db.selectFrom('operations').select(['id', 'account_id', 'resource_id']).where('account_id', 'in', accounts).where('type', '=', 'vdc_vm.create').execute();
  assert.equal(ops.length, 5);
  assert.equal((await t.database.db.selectFrom('sim_vms').select('id').where('location_id', '=', loc).execute()).length, 5);
  assert.deepEqual(await t.database.db.selectFrom('transactions').select('id').where('account_id', 'in', accounts).execute(), []);
  // Every VM that got its answer is provisioned with the addresses its create took.
  const addresses: string[] = [];
  for (const op of ops) {
    const key = customers.find((c) => c.accountId === op.account_id)!.key;
    const done = await waitForOperation(t, key, op.id, 60_000);
    assert.equal(done.status, 'completed', done.detail);
    const vm = json(await call(t.app, 'GET', `/v2/vdc/vms/${op.resource_id}`, { key })).data;
    addresses.push(vm.primary_ip, vm.primary_ipv6);
  }
  assert.equal(new Set(addresses).size, 10, addresses.join(', '));
  for (const a of addresses.filter((_, i) => i % 2 === 0)) assert.match(a, /^198\.51\.103\.[2-6]$/);
  const leases = await leasesOf(loc);
  assert.deepEqual(leases.filter((l) => l.vm_id !== null).map((l) => l.address).sort(), [...addresses].sort());
  for (const c of customers) await assertPoolConsistent(t, c.accountId);
});

test('a VM that fails or is deleted gives its address back; it rests IP_COOLDOWN_S before it is handed out again', async () => {
  const loc = await smallLocation('ipam-w', 104);
  await setIpCooldown(t.database.db, 3600);
  const c = await createCustomer(t);
  await setPool(t, c.accountId, BIG_POOL);
  const post = () => call(t.app, 'POST', '/v2/vdc/vms', { key: c.key, body: vmBody({ location_id: loc }) });
  // The platform refuses the machine: the VM fails and its reserved addresses go back to rest.
  await setFault(t, { mode: 'capacity_unavailable', calls: ['create'], remaining: 1 });
  let failedVm: string;
  try {
    const res = await post();
    assert.equal(res.statusCode, 201, res.body);
    failedVm = json(res).data.id;
    assert.equal((await waitForOperation(t, c.key, json(res).data.operation.id)).status, 'failed');
  } finally {
    await clearFault(t);
  }
  await until(async () => (await leasesOf(loc)).filter((l) => l.version === 4).every((l) => l.vm_id === null));
  const resting = (await leasesOf(loc)).find((l) => l.version === 4)!;
  assert.ok(resting.released_at, 'the failed VM\'s address rests');
  assert.equal((await t.database.db.selectFrom('vdc_vms').select('status').where('id', '=', failedVm).executeTakeFirstOrThrow()).status, 'failed');
  const made: { id: string; name: string; ip: string }[] = [];
  for (let i = 0; i < 4; i++) {
    const res = await post();
    assert.equal(res.statusCode, 201, res.body);
    assert.equal((await waitForOperation(t, c.key, json(res).data.operation.id)).status, 'completed');
    const vm = json(await call(t.app, 'GET', `/v2/vdc/vms/${json(res).data.id}`, { key: c.key })).data;
    assert.notEqual(vm.primary_ip, resting.address);
    made.push({ id: vm.id, name: vm.name, ip: vm.primary_ip });
  }
  // Four held, one resting: nothing to give.
  const full = await post();
  assert.equal(full.statusCode, 422, full.body);
  assert.equal(json(full).error.code, 'CAPACITY_UNAVAILABLE');
  const del = await call(t.app, 'DELETE', `/v2/vdc/vms/${made[0]!.id}`, { key: c.key, query: { confirm_name: made[0]!.name } });
  assert.ok(del.statusCode < 300, del.body);
  await until(async () => (await leasesOf(loc)).find((l) => l.address === made[0]!.ip)?.vm_id === null);
  const stillFull = await post();
  assert.equal(stillFull.statusCode, 422, stillFull.body);
  // Rested long enough (as if an hour went by): both are handed out again.
  await t.database.db.updateTable('ip_addresses').set({ released_at: new Date(Date.now() - 3_601_000) })
    .where('address', 'in', [resting.address, made[0]!.ip]).execute();
  const again: string[] = [];
  for (let i = 0; i < 2; i++) {
    const res = await post();
    assert.equal(res.statusCode, 201, res.body);
    assert.equal((await waitForOperation(t, c.key, json(res).data.operation.id)).status, 'completed');
    again.push(json(await call(t.app, 'GET', `/v2/vdc/vms/${json(res).data.id}`, { key: c.key })).data.primary_ip);
  }
  assert.deepEqual(again.sort(), [resting.address, made[0]!.ip].sort());
  await assertPoolConsistent(t, c.accountId);
});

async function until(probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
