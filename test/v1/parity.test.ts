// v1 and v2 are two faces of one core. The same scenario — create a server, power it off, add an
// address and its reverse DNS, take a snapshot, upgrade, delete — run through v1 for one account and
// through v2 for another (step by step, side by side) ends with identical balances, ledgers and
// platform state. And a resource made in one version is read, changed and deleted through the other.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type Customer, type TestApp, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { PASSWORD, type Json } from '../helpers/servers.ts';
import { balanceCents } from '../helpers/server-extras.ts';
import { expectV1Error, v1 } from '../helpers/v1.ts';

let t: TestApp;

before(async () => {
  t = await startApp({ worker: 'embedded' });
});

/** Waits for every unfinished operation on a resource (v1 answers without the operation). */
async function settle(c: Customer, resourceId: string): Promise<void> {
  const ops = await t.database.db.selectFrom('operations').select('id').where('resource_id', '=', resourceId).where('status', 'in', ['queued', 'running']).execute();
  for (const op of ops) {
    const done = await waitForOperation(t, c.key, op.id);
    assert.equal(done.status, 'completed', done.detail);
  }
}

interface Flow {
  create(): Promise<string>;
  stop(id: string): Promise<void>;
  addIp(id: string): Promise<string>;
  setRdns(id: string, address: string, name: string): Promise<void>;
  snapshot(id: string): Promise<void>;
  upgrade(id: string): Promise<void>;
  remove(id: string): Promise<void>;
}

const ok = (res: { statusCode: number; body: string }, status = 200) => assert.equal(res.statusCode, status, res.body);

function v1Flow(c: Customer): Flow {
  return {
    async create() {
      const res = await v1(t.app, 'POST', '/v1/servers', { key: c.key, body: { package_id: 1, version_id: 1, location_id: 1, server_name: 'parity-v1.example.com', password: PASSWORD } });
      ok(res);
      return json(res).data.server_id;
    },
    async stop(id) { ok(await v1(t.app, 'POST', `/v1/servers/${id}/stop`, { key: c.key })); },
    async addIp(id) {
      const res = await v1(t.app, 'POST', `/v1/servers/${id}/ips/purchase`, { key: c.key, body: { ip_type: 'IPv4' } });
      ok(res);
      return json(res).data.ip_address;
    },
    async setRdns(id, address, name) { ok(await v1(t.app, 'POST', `/v1/servers/${id}/ips/${address}`, { key: c.key, body: { rdns: name } })); },
    async snapshot(id) { ok(await v1(t.app, 'POST', `/v1/servers/${id}/snapshots`, { key: c.key, body: { name: 'parity' } })); },
    async upgrade(id) { ok(await v1(t.app, 'POST', `/v1/servers/${id}/upgrade`, { key: c.key, body: { new_package_id: 2 } })); },
    async remove(id) { ok(await v1(t.app, 'DELETE', `/v1/servers/${id}`, { key: c.key })); },
  };
}

function v2Flow(c: Customer): Flow {
  return {
    async create() {
      const res = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: { name: 'parity-v2.example.com', location_id: 1, plan_id: 1, os_version_id: 1, password: PASSWORD } });
      ok(res, 201);
      return json(res).data.id;
    },
    async stop(id) { ok(await call(t.app, 'POST', `/v2/servers/${id}/actions/stop`, { key: c.key }), 202); },
    async addIp(id) {
      const res = await call(t.app, 'POST', `/v2/servers/${id}/ips`, { key: c.key, body: { version: 4 } });
      ok(res, 201);
      return json(res).data.address;
    },
    async setRdns(id, address, name) { ok(await call(t.app, 'PUT', `/v2/servers/${id}/ips/${address}/rdns`, { key: c.key, body: { rdns: name } })); },
    async snapshot(id) { ok(await call(t.app, 'POST', `/v2/servers/${id}/snapshots`, { key: c.key, body: { name: 'parity' } }), 201); },
    async upgrade(id) { ok(await call(t.app, 'POST', `/v2/servers/${id}/actions/upgrade`, { key: c.key, body: { package_id: 2 } })); },
    async remove(id) { ok(await call(t.app, 'DELETE', `/v2/servers/${id}`, { key: c.key })); },
  };
}

/** The account's ledger without what names the resource (ids, host names): type, amount and balance after, in order. */
async function ledger(c: Customer) {
  const rows = await t.database.db.selectFrom('transactions').select(['type', 'amount_cents', 'balance_after_cents'])
    .where('account_id', '=', c.accountId).orderBy('id').execute();
  return rows.map((r) => `${r.type} ${r.amount_cents} → ${r.balance_after_cents}`);
}

/** What the simulated platform holds for the server's machine, without its names and addresses. */
async function platform(serverId: string) {
  const { provider_ref: ref } = await t.database.db.selectFrom('servers').select('provider_ref').where('id', '=', serverId).executeTakeFirstOrThrow();
  const vm = await t.database.db.selectFrom('sim_vms').select(['power', 'cpu_cores', 'ram_mb', 'storage_gb', 'os_slug', 'destroyed_at'])
    .where('id', '=', ref!).executeTakeFirstOrThrow();
  const leases = await t.database.db.selectFrom('ip_addresses').select('address').where('vm_id', '=', ref!).execute();
  const rdns = await t.database.db.selectFrom('sim_reverse_dns').select('hostname').where('vm_id', '=', ref!).execute();
  const snapshots = await t.database.db.selectFrom('sim_snapshots').select('size_gb').where('vm_id', '=', ref!).execute();
  return {
    power: vm.power, size: [vm.cpu_cores, vm.ram_mb, vm.storage_gb], os: vm.os_slug, destroyed: vm.destroyed_at !== null,
    addresses: leases.length, rdns: rdns.map((r) => r.hostname.replace(/^v[12]-/, '')).sort(), snapshots: snapshots.length,
  };
}

describe('parity', () => {
  test('the same scenario through v1 and v2 ends with identical balance, ledger and platform state', async () => {
    const a = await createCustomer(t, { deposit: '100.00' });
    const b = await createCustomer(t, { deposit: '100.00' });
    const flows: [Customer, Flow, string][] = [[a, v1Flow(a), 'v1'], [b, v2Flow(b), 'v2']];
    const both = <T>(fn: (c: Customer, f: Flow, tag: string, i: number) => Promise<T>) => Promise.all(flows.map(([c, f, tag], i) => fn(c, f, tag, i)));

    const ids = await both((_c, f) => f.create());
    await both((c, _f, _tag, i) => settle(c, ids[i]!));
    await both((_c, f, _tag, i) => f.stop(ids[i]!));
    await both((c, _f, _tag, i) => settle(c, ids[i]!));
    const extra = await both((_c, f, _tag, i) => f.addIp(ids[i]!));
    await both((_c, f, tag, i) => f.setRdns(ids[i]!, extra[i]!, `${tag}-mail.example.com`));
    await both((_c, f, _tag, i) => f.snapshot(ids[i]!));
    await both((c, _f, _tag, i) => settle(c, ids[i]!));
    await both((_c, f, _tag, i) => f.upgrade(ids[i]!));

    const [p1, p2] = await Promise.all(ids.map(platform));
    assert.deepEqual(p1, p2);
    // The upgrade's resize boots the machine, in either version.
    assert.deepEqual(p1, { power: p1!.power, size: [2, 4096, 80], os: p1!.os, destroyed: false, addresses: 3, rdns: ['mail.example.com'], snapshots: 1 });
    // Each version reads the other's server the same way.
    const [d1, d2] = await Promise.all(flows.map(([c], i) => v1(t.app, 'GET', `/v1/servers/${ids[i]}`, { key: c.key }).then((r) => json(r).data)));
    // Names, addresses and the simulated traffic counters differ by nature; the rest is the same.
    const shape = (d: Json) => ({ status: d.status, rdns: d.extra_ips.map((x: Json) => x.rdns?.replace(/^v[12]-/, '')), limit: d.traffic_usage.upload_limit });
    assert.deepEqual(shape(d1), shape(d2));
    assert.deepEqual(shape(d1), { status: d1.status, rdns: ['mail.example.com'], limit: 2000 });

    await both((_c, f, _tag, i) => f.remove(ids[i]!));
    await both((c, _f, _tag, i) => settle(c, ids[i]!));

    assert.equal(await balanceCents(t, a), await balanceCents(t, b));
    assert.deepEqual(await ledger(a), await ledger(b));
    const [q1, q2] = await Promise.all(ids.map(platform));
    assert.deepEqual(q1, q2);
    assert.deepEqual({ destroyed: q1!.destroyed, addresses: q1!.addresses, rdns: q1!.rdns }, { destroyed: true, addresses: 0, rdns: [] });
    process.stdout.write(`# parity: both ended at ${(await balanceCents(t, a)) / 100} USD; ledger: ${(await ledger(a)).join(", ")}\n`);
  });
});

describe('across versions', () => {
  test('made in v1, read, changed and deleted through v2', async () => {
    const c = await createCustomer(t, { deposit: '50.00' });
    const res = await v1(t.app, 'POST', '/v1/servers', { key: c.key, body: { package_id: 1, version_id: 1, location_id: 1, server_name: 'made-in-v1.example.com', password: PASSWORD } });
    const id = json(res).data.server_id as string;
    await settle(c, id);
    const s: Json = json(await call(t.app, 'GET', `/v2/servers/${id}`, { key: c.key })).data;
    assert.equal(s.name, 'made-in-v1.example.com');
    assert.equal(s.status, 'active');
    ok(await call(t.app, 'PUT', `/v2/servers/${id}/ips/${s.network.ipv4.address}/rdns`, { key: c.key, body: { rdns: 'v2.example.com' } }));
    ok(await call(t.app, 'PATCH', `/v2/servers/${id}`, { key: c.key, body: { name: 'renamed-in-v2.example.com' } }));
    const seen = json(await v1(t.app, 'GET', `/v1/servers/${id}`, { key: c.key })).data;
    assert.equal(seen.name, 'renamed-in-v2.example.com');
    assert.equal(seen.primary_ip.rdns, 'v2.example.com');
    ok(await call(t.app, 'DELETE', `/v2/servers/${id}`, { key: c.key }));
    expectV1Error(await v1(t.app, 'GET', `/v1/servers/${id}`, { key: c.key }), 404, 'NOT_FOUND');
  });

  test('made in v2, read, changed and deleted through v1', async () => {
    const c = await createCustomer(t, { deposit: '50.00' });
    const res = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: { name: 'made-in-v2.example.com', location_id: 1, plan_id: 1, os_version_id: 1, password: PASSWORD } });
    const id = json(res).data.id as string;
    await settle(c, id);
    const listed = json(await v1(t.app, 'GET', '/v1/servers', { key: c.key })).data;
    assert.deepEqual(listed.map((x: Json) => [x.server_id, x.name, x.status]), [[id, 'made-in-v2.example.com', 'active']]);
    ok(await v1(t.app, 'POST', `/v1/servers/${id}/stop`, { key: c.key }));
    await settle(c, id);
    assert.equal(json(await call(t.app, 'GET', `/v2/servers/${id}`, { key: c.key })).data.power_state, 'stopped');
    ok(await v1(t.app, 'DELETE', `/v1/servers/${id}`, { key: c.key }));
    assert.equal((await call(t.app, 'GET', `/v2/servers/${id}`, { key: c.key })).statusCode, 404);
  });
});
