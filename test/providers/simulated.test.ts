// The simulated compute provider against a real database: it must behave like a platform the
// worker can trust — a retried create makes nothing twice, addresses never leak, faults fail the
// calls they name and no others, console tickets work once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { createCatalogRow } from '../../src/core/catalog/service.ts';
import { addIpPool } from '../../src/core/ip-pools/admin.ts';
import { type FaultInput, getFaultSwitch as getSwitch, setFaultSwitch as setSwitch } from '../../src/providers/simulated/fault-switch.ts';
import type { Db } from '../../src/db/connection.ts';
import * as m0018 from '../../src/db/migrations/0018_worker_hot_path.ts';
import { createSimulatedCompute } from '../../src/providers/compute/simulated/index.ts';
import { type CreateRequest, ProviderError } from '../../src/providers/compute/types.ts';
import { startApp } from '../helpers/app.ts';
import { countStatements, statementsOf } from '../helpers/statements.ts';

countStatements();
const t = await startApp();
const db = t.database.db;
const sim = createSimulatedCompute({ db, delayMs: 0 });
const quiet = async () => {};
// The compute provider's switch (the shared mechanism's compute row).
const setFaultSwitch = (d: Db, input: FaultInput) => setSwitch(d, 'compute', input);
const getFaultSwitch = (d: Db) => getSwitch(d, 'compute');

let n = 0;
/** A primary location of its own with an IPv4 pool (/30 → one address by default) and optionally an IPv6 pool. */
async function location(opts: { v4Prefix?: number | null; v6?: boolean } = {}): Promise<number> {
  n += 1;
  const loc = await createCatalogRow(db, 'locations', { name: `Sim ${n}`, code: `sim-${n}`, country: 'DE', provider: 'primary' });
  const prefix = opts.v4Prefix === undefined ? 30 : opts.v4Prefix;
  if (prefix !== null) await addIpPool(db, loc.id, { version: 4, cidr: `172.16.${n}.0/${prefix}`, gateway: `172.16.${n}.1` });
  if (opts.v6) await addIpPool(db, loc.id, { version: 6, cidr: `fd00:${n}::/64`, gateway: `fd00:${n}::1` });
  return loc.id;
}

let tokens = 0;
function request(locationId: number, over: Partial<CreateRequest> = {}): CreateRequest {
  tokens += 1;
  return {
    token: `op_test_${tokens}`, hostname: `web${tokens}.example.com`, locationId, osSlug: 'debian-12', password: 'S3cure-pass!',
    fromSnapshotRef: null, cpuCores: 2, ramMb: 2048, storageGb: 40, extraIpv4: 0, extraIpv6: 0, ipv6: false, ...over,
  };
}

async function leases(locationId: number): Promise<{ address: string; vm_id: string | null }[]> {
  return db.selectFrom('ip_addresses').innerJoin('ip_pools', 'ip_pools.id', 'ip_addresses.pool_id')
    .select(['ip_addresses.address', 'ip_addresses.vm_id']).where('ip_pools.location_id', '=', locationId)
    .orderBy('ip_addresses.address').execute();
}

async function rejects(p: Promise<unknown>, code: 'UPSTREAM_ERROR' | 'CAPACITY_UNAVAILABLE', retryable: boolean, message?: RegExp) {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof ProviderError, String(e));
    assert.equal(e.code, code);
    assert.equal(e.retryable, retryable);
    if (message) assert.match(e.message, message);
    return true;
  });
}

test('create: progress in steps, the primary network from the pools, running, default firewall', async () => {
  const loc = await location({ v4Prefix: 24, v6: true });
  const steps: [number, string][] = [];
  const m = await sim.create(request(loc, { ipv6: true, extraIpv4: 1, extraIpv6: 1 }), async (pct, detail) => { steps.push([pct, detail]); });
  assert.deepEqual(steps.map(([p]) => p), [10, 40, 80, 95]);
  assert.match(steps[0]![1], /address/i);
  // Offset 1 is the gateway; the first lease is .2.
  assert.deepEqual(m.network, {
    ipv4: { address: `172.16.${n}.2`, gateway: `172.16.${n}.1`, netmask: '255.255.255.0', subnet: `172.16.${n}.0/24` },
    ipv6: { address: `fd00:${n}::2`, gateway: `fd00:${n}::1`, subnet: `fd00:${n}::/64` },
  });
  assert.deepEqual(m.extraIps, [{ address: `172.16.${n}.3`, version: 4 }, { address: `fd00:${n}::3`, version: 6 }]);
  const st = await sim.status(m.ref, 1000);
  assert.deepEqual(st, { power: 'running', cpuCores: 2, ramMb: 2048, storageGb: 40, osSlug: 'debian-12' });

  const rules = await sim.firewallRules(m.ref);
  assert.deepEqual(rules.map((r) => r.position), rules.map((_, i) => i + 1), 'ordered by position');
  const accept22 = rules.find((r) => r.port === '22' && r.source === '0.0.0.0/0');
  assert.deepEqual(accept22, { position: 1, direction: 'inbound', protocol: 'tcp', port: '22', source: '0.0.0.0/0', action: 'accept' });
  assert.ok(rules.some((r) => r.source === '::/0' && r.protocol === 'icmp'), 'IPv6 rules for a machine with IPv6');
  // Every accept comes before the drops, and the list ends by dropping the rest.
  const firstDrop = rules.findIndex((r) => r.action === 'drop');
  assert.ok(firstDrop > 0 && rules.slice(firstDrop).every((r) => r.action === 'drop' && r.protocol === 'any'), JSON.stringify(rules));
});

test('create without IPv6: no IPv6 address, no IPv6 firewall rules', async () => {
  const loc = await location({ v6: true });
  const m = await sim.create(request(loc, { ipv6: false }), quiet);
  assert.equal(m.network.ipv6, null);
  assert.equal((await leases(loc)).filter((l) => l.address.includes(':')).length, 0);
  assert.ok((await sim.firewallRules(m.ref)).every((r) => r.source === '0.0.0.0/0'));
});

test('create is idempotent by token: the same machine, nothing allocated twice, even for concurrent twins', async () => {
  const loc = await location({ v4Prefix: 28, v6: true });
  const req = request(loc, { ipv6: true, extraIpv4: 2 });
  const first = await sim.create(req, quiet);
  const before = await leases(loc);
  const again = await sim.create({ ...req }, quiet);
  assert.deepEqual(again, first);
  assert.deepEqual(await leases(loc), before);

  // Two workers retrying one operation at the same moment.
  const twin = request(loc);
  const [a, b] = await Promise.all([sim.create(twin, quiet), sim.create(twin, quiet)]);
  assert.equal(a.ref, b.ref);
  assert.deepEqual(a.network, b.network);
  const vms = await db.selectFrom('sim_vms').select('id').where('request_token', '=', twin.token).execute();
  assert.equal(vms.length, 1);
  assert.equal((await leases(loc)).filter((l) => l.vm_id === a.ref).length, 1);
});

test('a create that stopped after allocating resumes on retry and boots the same machine', async () => {
  const loc = await location();
  const req = request(loc);
  // The first attempt dies right after its addresses were committed (the progress callback throws).
  await assert.rejects(sim.create(req, async (pct) => { if (pct === 40) throw new Error('worker killed'); }), /worker killed/);
  const vm = await db.selectFrom('sim_vms').selectAll().where('request_token', '=', req.token).executeTakeFirstOrThrow();
  assert.equal(vm.power, 'provisioning');
  const steps: number[] = [];
  const m = await sim.create(req, async (pct) => { steps.push(pct); });
  assert.equal(m.ref, vm.id);
  assert.deepEqual(steps, [10, 40, 80, 95]);
  assert.equal((await sim.status(m.ref, 1000)).power, 'running');
  assert.equal((await leases(loc)).length, 1);
});

test('exhaustion: CAPACITY_UNAVAILABLE, not retryable, and nothing left half-allocated', async () => {
  const loc = await location({ v4Prefix: 30, v6: false });
  const pool = await db.selectFrom('ip_pools').selectAll().where('location_id', '=', loc).executeTakeFirstOrThrow();
  // A /30 has two hosts; one is the gateway.
  const only = await sim.create(request(loc), quiet);
  assert.equal(only.network.ipv4?.address, `172.16.${n}.2`);
  const afterFirst = await leases(loc);
  const { next_offset } = await db.selectFrom('ip_pools').select('next_offset').where('id', '=', pool.id).executeTakeFirstOrThrow();

  const full = request(loc);
  await rejects(sim.create(full, quiet), 'CAPACITY_UNAVAILABLE', false, /IPv4/);
  // IPv4 would fit in a fresh location, but its IPv6 pool is missing: the IPv4 lease is rolled back.
  const noV6 = await location({ v4Prefix: 29, v6: false });
  await rejects(sim.create(request(noV6, { ipv6: true }), quiet), 'CAPACITY_UNAVAILABLE', false, /IPv6/);
  // Extras beyond the pool fail the whole create.
  const small = await location({ v4Prefix: 30 });
  await rejects(sim.create(request(small, { extraIpv4: 1 }), quiet), 'CAPACITY_UNAVAILABLE', false);
  // No pool at all.
  const bare = await location({ v4Prefix: null });
  await rejects(sim.create(request(bare), quiet), 'CAPACITY_UNAVAILABLE', false);

  assert.deepEqual(await leases(loc), afterFirst);
  for (const l of [noV6, small, bare]) assert.deepEqual(await leases(l), [], `location ${l} holds no lease`);
  const vms = await db.selectFrom('sim_vms').select('id').where('location_id', 'in', [noV6, small, bare]).execute();
  assert.equal(vms.length, 0);
  assert.equal(await db.selectFrom('sim_vms').select('id').where('request_token', '=', full.token).executeTakeFirst(), undefined);
  const after = await db.selectFrom('ip_pools').select('next_offset').where('id', '=', pool.id).executeTakeFirstOrThrow();
  assert.equal(after.next_offset, next_offset);
});

test('attachIp / releaseIp: idempotent per token, a released address is reused first', async () => {
  const loc = await location({ v4Prefix: 29, v6: true });
  const m = await sim.create(request(loc), quiet);
  const a = await sim.attachIp(m.ref, 4, 'attach-1');
  assert.equal(a.address, `172.16.${n}.3`);
  assert.deepEqual(await sim.attachIp(m.ref, 4, 'attach-1'), a, 'the same token gets the same address');
  const b = await sim.attachIp(m.ref, 4, 'attach-2');
  assert.equal(b.address, `172.16.${n}.4`);
  const v6 = await sim.attachIp(m.ref, 6, 'attach-3');
  assert.equal(v6.address, `fd00:${n}::2`);
  assert.equal((await leases(loc)).filter((l) => l.vm_id === m.ref).length, 4);

  await sim.releaseIp(m.ref, a.address);
  await sim.releaseIp(m.ref, a.address); // a retried release
  assert.equal((await leases(loc)).find((l) => l.address === a.address)?.vm_id, null);
  // The released .3 comes back before the never-used .5.
  const c = await sim.attachIp(m.ref, 4, 'attach-4');
  assert.equal(c.address, a.address);
  const again = await sim.create(request(loc), quiet);
  assert.equal(again.network.ipv4?.address, `172.16.${n}.5`);

  await rejects(sim.releaseIp(m.ref, m.network.ipv4!.address), 'UPSTREAM_ERROR', false, /primary/);
});

test('destroy frees every address, is idempotent, and the machine is gone', async () => {
  const loc = await location({ v4Prefix: 29, v6: true });
  const m = await sim.create(request(loc, { ipv6: true, extraIpv4: 1 }), quiet);
  await sim.attachIp(m.ref, 6, 'destroy-attach');
  assert.equal((await leases(loc)).filter((l) => l.vm_id === m.ref).length, 4);
  await sim.destroy(m.ref, 'destroy-1');
  await sim.destroy(m.ref, 'destroy-1');
  await sim.destroy('vm-never-existed', 'destroy-2');
  assert.ok((await leases(loc)).every((l) => l.vm_id === null));
  await rejects(sim.status(m.ref, 1000), 'UPSTREAM_ERROR', false, /does not exist/);
  await rejects(sim.power(m.ref, 'start', 'destroy-3', quiet), 'UPSTREAM_ERROR', false);
  // The freed addresses are the next ones handed out.
  const next = await sim.create(request(loc, { ipv6: true, extraIpv4: 1 }), quiet);
  assert.equal(next.network.ipv4?.address, m.network.ipv4?.address);
  assert.equal(next.network.ipv6?.address, m.network.ipv6?.address);
});

test('power, password, reinstall, resize: applied once per token', async () => {
  const loc = await location();
  const m = await sim.create(request(loc), quiet);
  const steps: number[] = [];
  assert.equal(await sim.power(m.ref, 'stop', 'p-1', async (pct) => { steps.push(pct); }), 'stopped');
  assert.equal((await sim.status(m.ref, 1000)).power, 'stopped');
  assert.equal(await sim.power(m.ref, 'start', 'p-2', quiet), 'running');
  // The stop's retry answers as the first time and does not stop the machine again.
  assert.equal(await sim.power(m.ref, 'stop', 'p-1', quiet), 'stopped');
  assert.equal((await sim.status(m.ref, 1000)).power, 'running');
  assert.equal(await sim.power(m.ref, 'reboot', 'p-3', async (pct) => { steps.push(pct); }), 'running');
  assert.deepEqual(steps, [50, 30, 70]);

  await sim.resetPassword(m.ref, 'N3w-password!', 'pw-1', quiet);
  await sim.reinstall(m.ref, 'ubuntu-24.04', null, 'ri-1', quiet);
  await sim.resize(m.ref, { cpuCores: 4, ramMb: 8192, storageGb: 80 }, 'rs-1', quiet);
  assert.deepEqual(await sim.status(m.ref, 1000), { power: 'running', cpuCores: 4, ramMb: 8192, storageGb: 80, osSlug: 'ubuntu-24.04' });
  const recorded = await db.selectFrom('sim_requests').select('result').where('token', '=', 'reset-password:pw-1').executeTakeFirst();
  assert.ok(recorded, 'the password reset is recorded');
  assert.doesNotMatch(JSON.stringify(recorded), /N3w-password/, 'the password itself is never stored');
});

test('snapshot: a fraction of the disk, once per token; a create from it needs it to exist', async () => {
  const loc = await location({ v4Prefix: 29 });
  const m = await sim.create(request(loc, { storageGb: 100 }), quiet);
  const s = await sim.snapshot(m.ref, 'snap-1', quiet);
  assert.match(s.ref, /^snap-/);
  assert.ok(s.sizeGb > 0 && s.sizeGb < 100, String(s.sizeGb));
  assert.deepEqual(await sim.snapshot(m.ref, 'snap-1', quiet), s);
  assert.equal((await db.selectFrom('sim_snapshots').select('id').where('vm_id', '=', m.ref).execute()).length, 1);
  const from = await sim.create(request(loc, { fromSnapshotRef: s.ref }), quiet);
  assert.notEqual(from.ref, m.ref);
  await rejects(sim.create(request(loc, { fromSnapshotRef: 'snap-missing' }), quiet), 'UPSTREAM_ERROR', false, /Snapshot/);
});

test('restoreSnapshot: the disk and OS of one of the machine\'s own snapshots, once per token; deleteSnapshot: gone for good, twice is fine', async () => {
  const loc = await location({ v4Prefix: 29 });
  const m = await sim.create(request(loc, { osSlug: 'debian-12' }), quiet);
  const s = await sim.snapshot(m.ref, 'snap-r1', quiet);
  await sim.reinstall(m.ref, 'rocky-9', null, 'reinstall-r1', quiet);
  await sim.power(m.ref, 'stop', 'stop-r1', quiet);
  const steps: string[] = [];
  await sim.restoreSnapshot(m.ref, s.ref, 'restore-r1', async (_pct, detail) => { steps.push(detail); });
  assert.deepEqual(steps, ['Shutting down', 'Restoring the disk', 'Booting']);
  let st = await sim.status(m.ref, 1000);
  assert.equal(st.osSlug, 'debian-12');
  assert.equal(st.power, 'running');
  // The same token again does nothing more (a retried run after a lost worker).
  await sim.reinstall(m.ref, 'rocky-9', null, 'reinstall-r2', quiet);
  await sim.restoreSnapshot(m.ref, s.ref, 'restore-r1', quiet);
  assert.equal((await sim.status(m.ref, 1000)).osSlug, 'rocky-9');

  const other = await sim.create(request(loc), quiet);
  await rejects(sim.restoreSnapshot(other.ref, s.ref, 'restore-r3', quiet), 'UPSTREAM_ERROR', false, /does not exist/);
  await rejects(sim.restoreSnapshot(m.ref, 'snap-missing', 'restore-r4', quiet), 'UPSTREAM_ERROR', false, /does not exist/);

  await sim.deleteSnapshot(s.ref);
  await sim.deleteSnapshot(s.ref);
  assert.equal(await db.selectFrom('sim_snapshots').select('id').where('id', '=', s.ref).executeTakeFirst(), undefined);
  await rejects(sim.restoreSnapshot(m.ref, s.ref, 'restore-r5', quiet), 'UPSTREAM_ERROR', false, /does not exist/);
  await rejects(sim.create(request(loc, { fromSnapshotRef: s.ref }), quiet), 'UPSTREAM_ERROR', false, /Snapshot/);
  st = await sim.status(m.ref, 1000);
  assert.equal(st.power, 'running');
  // Both obey the fault switch by name.
  await setFaultSwitch(db, { mode: 'upstream_error', remaining: 2, calls: ['restoreSnapshot', 'deleteSnapshot'] });
  const s2 = await sim.snapshot(m.ref, 'snap-r2', quiet);
  await rejects(sim.restoreSnapshot(m.ref, s2.ref, 'restore-r6', quiet), 'UPSTREAM_ERROR', true, /restoreSnapshot/);
  await rejects(sim.deleteSnapshot(s2.ref), 'UPSTREAM_ERROR', true, /deleteSnapshot/);
  await sim.deleteSnapshot(s2.ref);
  await setFaultSwitch(db, { mode: 'none' });
});

test('fault switch: each mode, the remaining count, the calls filter', async () => {
  const loc = await location({ v4Prefix: 28 });
  const m = await sim.create(request(loc), quiet);
  try {
    await setFaultSwitch(db, { mode: 'upstream_error', remaining: 2, calls: ['create'] });
    const req = request(loc);
    await rejects(sim.create(req, quiet), 'UPSTREAM_ERROR', true);
    // Other calls are not affected and do not spend the count.
    assert.equal((await sim.status(m.ref, 1000)).power, 'running');
    await sim.metrics(m.ref);
    await rejects(sim.create(req, quiet), 'UPSTREAM_ERROR', true);
    assert.deepEqual(await getFaultSwitch(db), { mode: 'none', remaining: null, calls: [] }, 'a spent switch is off');
    const made = await sim.create(req, quiet);
    assert.equal((await leases(loc)).filter((l) => l.vm_id === made.ref).length, 1, 'the failed attempts allocated nothing');

    await setFaultSwitch(db, { mode: 'capacity_unavailable' });
    await rejects(sim.metrics(m.ref), 'CAPACITY_UNAVAILABLE', false);
    await rejects(sim.power(m.ref, 'stop', 'fault-p', quiet), 'CAPACITY_UNAVAILABLE', false);
    await rejects(sim.redeemConsole('whatever'), 'CAPACITY_UNAVAILABLE', false);
    assert.deepEqual(await getFaultSwitch(db), { mode: 'capacity_unavailable', remaining: null, calls: [] }, 'null = until cleared');

    // Parallel calls spend the count exactly.
    await setFaultSwitch(db, { mode: 'upstream_error', remaining: 3, calls: ['metrics', 'traffic'] });
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => sim.metrics(m.ref)));
    assert.equal(results.filter((r) => r.status === 'rejected').length, 3);

    await setFaultSwitch(db, { mode: 'timeout', calls: ['power', 'status'] });
    await rejects(sim.power(m.ref, 'stop', 'fault-p2', quiet), 'UPSTREAM_ERROR', true, /timed out/);
    await rejects(sim.status(m.ref, 100), 'UPSTREAM_ERROR', true, /timed out/);
    await sim.firewallRules(m.ref);
  } finally {
    await setFaultSwitch(db, { mode: 'none' });
  }
  assert.equal((await sim.status(m.ref, 1000)).power, 'running');
});

test('status honours its deadline: a hanging platform rejects after timeoutMs', async () => {
  const loc = await location();
  const m = await sim.create(request(loc), quiet);
  await setFaultSwitch(db, { mode: 'timeout', remaining: 1, calls: ['status'] });
  const started = Date.now();
  await rejects(sim.status(m.ref, 150), 'UPSTREAM_ERROR', true, /timed out after 150 ms/);
  const took = Date.now() - started;
  // Not before its deadline; the message names the deadline (150 ms), not the fault's longer hang.
  // No upper bound in milliseconds: a busy machine may answer late.
  assert.ok(took >= 140, `took ${took} ms`);
  assert.equal((await sim.status(m.ref, 150)).power, 'running', 'the one timeout was spent');
});

test('status with the switch off is one read, no write; a switch on for status is spent exactly, in parallel too', async () => {
  const loc = await location();
  const m = await sim.create(request(loc), quiet);
  // A switch for other calls is read, not spent.
  await setFaultSwitch(db, { mode: 'upstream_error', calls: ['metrics'] });
  try {
    const sent = await statementsOf(() => sim.status(m.ref, 1000));
    assert.equal(sent.length, 1, sent.join('\n---\n'));
    assert.doesNotMatch(sent[0]!, /\bupdate\b/i, 'a detail read writes nothing while no fault applies to it');

    await setFaultSwitch(db, { mode: 'upstream_error', remaining: 3, calls: ['status'] });
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => sim.status(m.ref, 1000)));
    assert.equal(results.filter((r) => r.status === 'rejected').length, 3);
    assert.deepEqual(await getFaultSwitch(db), { mode: 'none', remaining: null, calls: [] }, 'spent');
  } finally {
    await setFaultSwitch(db, { mode: 'none' });
  }
  assert.equal((await sim.status(m.ref, 1000)).power, 'running');
});

test('steps take delayMs each', async () => {
  const slow = createSimulatedCompute({ db, delayMs: 40 });
  const loc = await location();
  const started = Date.now();
  await slow.create(request(loc), quiet);
  assert.ok(Date.now() - started >= 4 * 40 - 5, `took ${Date.now() - started} ms`);
});

test('console tickets: single use, within their lifetime, while the machine exists', async () => {
  const loc = await location({ v4Prefix: 29 });
  const m = await sim.create(request(loc), quiet);
  const c = await sim.openConsole(m.ref, 60);
  assert.match(c.ticket, /^[A-Za-z0-9_-]{32}$/);
  assert.ok(Math.abs(c.expiresAt.getTime() - Date.now() - 60_000) < 5_000, c.expiresAt.toISOString());
  assert.equal(await sim.redeemConsole(c.ticket), true);
  assert.equal(await sim.redeemConsole(c.ticket), false);
  assert.equal(await sim.redeemConsole('no-such-ticket'), false);

  // Two redeemers at once: exactly one wins.
  const race = await sim.openConsole(m.ref, 60);
  assert.deepEqual((await Promise.all([sim.redeemConsole(race.ticket), sim.redeemConsole(race.ticket)])).sort(), [false, true]);

  const expired = await sim.openConsole(m.ref, 60);
  await db.updateTable('console_sessions').set({ expires_at: new Date(Date.now() - 1000) }).where('token', '=', expired.ticket).execute();
  assert.equal(await sim.redeemConsole(expired.ticket), false);

  const orphan = await sim.openConsole(m.ref, 60);
  await sim.destroy(m.ref, 'console-destroy');
  assert.equal(await sim.redeemConsole(orphan.ticket), false);
});

test('metrics and traffic: plausible and repeatable', async () => {
  const loc = await location();
  const m = await sim.create(request(loc), quiet);
  const at = new Date('2030-05-20T12:34:56Z');
  const fixed = createSimulatedCompute({ db, delayMs: 0, now: () => at });
  const a = await fixed.metrics(m.ref);
  assert.deepEqual(await fixed.metrics(m.ref), a, 'the same minute, the same sample');
  assert.equal(a.sampled_at.toISOString(), '2030-05-20T12:34:00.000Z');
  for (const k of ['cpu_pct', 'memory_pct', 'disk_pct'] as const) assert.ok(a[k] > 0 && a[k] < 100, `${k} ${a[k]}`);

  const tr = await fixed.traffic(m.ref, '2030-05');
  assert.equal(tr.month, '2030-05');
  assert.equal(tr.quota_bytes, 1_000_000_000_000);
  assert.ok(tr.in_bytes > 0 && tr.out_bytes > 0 && tr.in_bytes < tr.quota_bytes, JSON.stringify(tr));
  assert.deepEqual(await fixed.traffic(m.ref, '2030-05'), tr);
  // Before the machine existed: nothing.
  const before = await fixed.traffic(m.ref, '2001-01');
  assert.equal(before.in_bytes + before.out_bytes, 0);
  await rejects(fixed.traffic(m.ref, '2030-13'), 'UPSTREAM_ERROR', false);

  await sim.power(m.ref, 'stop', 'metrics-stop', quiet);
  assert.equal((await fixed.metrics(m.ref)).cpu_pct, 0, 'a stopped machine uses no CPU');
});

test('firewall rules survive 0018 down and up: a machine made before it, or by an older process, keeps its rows', async () => {
  const loc = await location({ v4Prefix: 29, v6: true });
  const m = await sim.create(request(loc, { ipv6: true }), quiet);
  const rules = await sim.firewallRules(m.ref);
  assert.equal(rules.length, 10);
  const migration = db as unknown as Kysely<unknown>;
  await m0018.down(migration);
  const rows = await sql<{ n: number }>`SELECT count(*)::int AS n FROM sim_firewall_rules WHERE vm_id = ${m.ref}`.execute(db);
  assert.equal(rows.rows[0]!.n, 10, 'down moves the column into rows');
  await m0018.up(migration);
  assert.deepEqual(await sim.firewallRules(m.ref), rules, 'read from the rows while the column is empty');
  // An older process creates through 0016's function, which still writes rows.
  const old = await sql<{ id: string }>`
    SELECT id FROM sim_provision_vm('vm-older-process', 'op_older_process', ${loc}::int, 'older.example.com', 1, 1024, 20, 'debian-12', '{}'::text[],
      NULL, ${JSON.stringify(rules)}::jsonb, 1, 0, false)`.execute(db);
  assert.deepEqual(await sim.firewallRules(old.rows[0]!.id), rules);
});
