// The simulated provider's admin controls: the fault switch and the IP pools of each location,
// over the admin API and `hostcloud admin`; and the demo pools every database starts with.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { runAdmin } from '../../src/cli/admin.ts';
import { ApiError } from '../../src/core/errors.ts';
import { addIpPool } from '../../src/core/ip-pools/admin.ts';
import { connect } from '../../src/db/connection.ts';
import { dropDatabase, ensureDatabase } from '../../src/db/create-database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { DEMO_IP_POOLS_MARKER, seedDemoCatalog } from '../../src/db/seed.ts';
import { createSimulatedCompute } from '../../src/providers/compute/simulated/index.ts';
import { ProviderError } from '../../src/providers/compute/types.ts';
import { adminCall, call, json, startApp } from '../helpers/app.ts';

const t = await startApp();
const db = t.database.db;

type Res = Awaited<ReturnType<typeof call>>;

function assertInvalid(res: Res, fields: string[]) {
  assert.equal(res.statusCode, 422, res.body);
  const { error } = json(res);
  assert.equal(error.code, 'VALIDATION_FAILED');
  assert.deepEqual((error.errors as { field: string }[]).map((e) => e.field).sort(), [...fields].sort(), res.body);
}

function assertError(res: Res, status: number, code: string) {
  assert.equal(res.statusCode, status, res.body);
  assert.equal(json(res).error.code, code);
  assert.match(json(res).error.doc_url, new RegExp(`#${code}$`));
}

const primary = await db.selectFrom('locations').selectAll().where('provider', '=', 'primary').orderBy('id').execute();
const fra = primary[0]!;

let locations = 0;
async function newLocation(): Promise<number> {
  locations += 1;
  const res = await adminCall(t, 'POST', '/admin/v1/locations', { name: `Pool Test ${locations}`, code: `pool-${locations}`, country: 'FR', provider: 'primary' });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data.id;
}

test('every admin provider route needs the admin token', async () => {
  const routes: [string, string, unknown?][] = [
    ['GET', '/admin/v1/provider/fault'], ['PUT', '/admin/v1/provider/fault', { mode: 'none' }],
    ['GET', `/admin/v1/locations/${fra.id}/ip-pools`], ['POST', `/admin/v1/locations/${fra.id}/ip-pools`, { version: 4, cidr: '192.168.0.0/24', gateway: '192.168.0.1' }],
    ['DELETE', '/admin/v1/ip-pools/1'],
  ];
  for (const [method, url, body] of routes) {
    assertError(await call(t.app, method as 'GET', url, { body }), 401, 'AUTH_REQUIRED');
    assertError(await call(t.app, method as 'GET', url, { body, headers: { authorization: 'Bearer not-the-admin-token-at-all' } }), 401, 'AUTH_INVALID');
  }
  // A customer key is not an admin token either.
  const customer = await call(t.app, 'GET', '/admin/v1/provider/fault', { key: 'hc_live_0123456789abcdef0123456789abcdef' });
  assert.equal(customer.statusCode, 401, customer.body);
  assert.equal((await adminCall(t, 'GET', `/admin/v1/locations/${fra.id}/ip-pools`)).statusCode, 200, 'nothing was changed');
});

test('fault switch: off by default, set, read back, cleared', async () => {
  const off = await adminCall(t, 'GET', '/admin/v1/provider/fault');
  assert.equal(off.statusCode, 200, off.body);
  assert.deepEqual(json(off).data, { mode: 'none', remaining: null, calls: [] });
  assert.equal(json(off).meta.version, '2.0.0');

  const set = await adminCall(t, 'PUT', '/admin/v1/provider/fault', { mode: 'upstream_error', remaining: 3, calls: ['create', 'power', 'create'] });
  assert.equal(set.statusCode, 200, set.body);
  assert.deepEqual(json(set).data, { mode: 'upstream_error', remaining: 3, calls: ['create', 'power'] });
  assert.deepEqual(json(await adminCall(t, 'GET', '/admin/v1/provider/fault')).data, json(set).data);

  // The provider obeys it and counts down.
  const sim = createSimulatedCompute({ db, delayMs: 0 });
  await assert.rejects(sim.power('vm-none', 'start', 'tok', async () => {}), (e) => e instanceof ProviderError && e.code === 'UPSTREAM_ERROR');
  assert.equal(json(await adminCall(t, 'GET', '/admin/v1/provider/fault')).data.remaining, 2);

  const until = await adminCall(t, 'PUT', '/admin/v1/provider/fault', { mode: 'timeout', remaining: null });
  assert.deepEqual(json(until).data, { mode: 'timeout', remaining: null, calls: [] });
  const cleared = await adminCall(t, 'PUT', '/admin/v1/provider/fault', { mode: 'none', remaining: 5, calls: ['status'] });
  assert.deepEqual(json(cleared).data, { mode: 'none', remaining: null, calls: [] });
});

test('fault switch: bad input is 422 naming the field', async () => {
  const url = '/admin/v1/provider/fault';
  assertInvalid(await adminCall(t, 'PUT', url, { mode: 'explode' }), ['mode']);
  assertInvalid(await adminCall(t, 'PUT', url, {}), ['mode']);
  assertInvalid(await adminCall(t, 'PUT', url, { mode: 'timeout', remaining: 0 }), ['remaining']);
  assertInvalid(await adminCall(t, 'PUT', url, { mode: 'timeout', remaining: '3' }), ['remaining']);
  assertInvalid(await adminCall(t, 'PUT', url, { mode: 'timeout', calls: ['format'] }), ['calls[0]']);
  assertInvalid(await adminCall(t, 'PUT', url, { mode: 'timeout', calls: 'create' }), ['calls']);
  assertInvalid(await adminCall(t, 'PUT', url, { mode: 'timeout', sometimes: true }), ['sometimes']);
  assert.deepEqual(json(await adminCall(t, 'GET', url)).data, { mode: 'none', remaining: null, calls: [] }, 'nothing was stored');
});

test('the demo pools: an IPv4 /24 and an IPv6 /64 for every primary location, with counts', async () => {
  assert.ok(primary.length >= 3);
  const seen = new Set<string>();
  for (const loc of primary) {
    const res = await adminCall(t, 'GET', `/admin/v1/locations/${loc.id}/ip-pools`);
    assert.equal(res.statusCode, 200, res.body);
    const body = json(res);
    assert.deepEqual(body.meta.pagination, { page: 1, per_page: 25, total: 2, total_pages: 1 });
    const [v4, v6] = body.data;
    assert.equal(v4.version, 4);
    assert.match(v4.cidr, /^10\.\d+\.0\.0\/24$/);
    assert.equal(v4.gateway, v4.cidr.replace('0/24', '1'));
    assert.deepEqual([v4.size, v4.used, v4.free], ['253', 0, '253']);
    assert.equal(v6.version, 6);
    assert.match(v6.cidr, /^2001:db8:[0-9a-f]+::\/64$/);
    assert.deepEqual([v6.size, v6.free], ['18446744073709551614', '18446744073709551614']);
    assert.match(v4.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    for (const p of body.data) {
      assert.equal(p.location_id, loc.id);
      assert.ok(!seen.has(p.cidr), 'pools do not repeat');
      seen.add(p.cidr);
    }
  }
  const partner = await db.selectFrom('locations').select('id').where('provider', '<>', 'primary').executeTakeFirstOrThrow();
  assert.deepEqual(json(await adminCall(t, 'GET', `/admin/v1/locations/${partner.id}/ip-pools`)).data, []);
});

test('list pools: 404 for a missing location, 422 for a bad id or page', async () => {
  assertError(await adminCall(t, 'GET', '/admin/v1/locations/999999/ip-pools'), 404, 'RESOURCE_NOT_FOUND');
  assertInvalid(await adminCall(t, 'GET', '/admin/v1/locations/abc/ip-pools'), ['id']);
  assertInvalid(await adminCall(t, 'GET', `/admin/v1/locations/${fra.id}/ip-pools?per_page=0`), ['per_page']);
  const p2 = json(await adminCall(t, 'GET', `/admin/v1/locations/${fra.id}/ip-pools?per_page=1&page=2`));
  assert.equal(p2.data.length, 1);
  assert.equal(p2.data[0].version, 6);
});

test('add a pool: 201 with its counts, canonical text', async () => {
  const loc = await newLocation();
  const res = await adminCall(t, 'POST', `/admin/v1/locations/${loc}/ip-pools`, { version: 6, cidr: '2001:DB8:00FF::/120', gateway: '2001:db8:ff::fe' });
  assert.equal(res.statusCode, 201, res.body);
  const pool = json(res).data;
  assert.deepEqual({ ...pool, id: 0, created_at: '' }, {
    id: 0, location_id: loc, version: 6, cidr: '2001:db8:ff::/120', gateway: '2001:db8:ff::fe', size: '254', used: 0, assigned: 0, free: '254', created_at: '',
  });
  const v4 = json(await adminCall(t, 'POST', `/admin/v1/locations/${loc}/ip-pools`, { version: 4, cidr: '192.168.40.0/30', gateway: '192.168.40.2' }));
  assert.deepEqual([v4.data.size, v4.data.free], ['1', '1']);
  const listed = json(await adminCall(t, 'GET', `/admin/v1/locations/${loc}/ip-pools`)).data.map((p: { id: number }) => p.id);
  assert.deepEqual(listed, [v4.data.id, pool.id], 'IPv4 first');
});

test('add a pool: validation names the field, nothing is stored', async () => {
  const loc = await newLocation();
  const url = `/admin/v1/locations/${loc}/ip-pools`;
  const ok4 = { version: 4, cidr: '192.168.50.0/24', gateway: '192.168.50.1' };
  assertInvalid(await adminCall(t, 'POST', url, {}), ['version', 'cidr', 'gateway']);
  assertInvalid(await adminCall(t, 'POST', url, { ...ok4, version: 5 }), ['version']);
  assertInvalid(await adminCall(t, 'POST', url, { ...ok4, version: '4' }), ['version']);
  assertInvalid(await adminCall(t, 'POST', url, { ...ok4, extra: 1 }), ['extra']);
  assertInvalid(await adminCall(t, 'POST', url, { ...ok4, cidr: 'not-a-network' }), ['cidr']);
  assertInvalid(await adminCall(t, 'POST', url, { ...ok4, cidr: '192.168.50.0' }), ['cidr']);
  assertInvalid(await adminCall(t, 'POST', url, { ...ok4, cidr: '192.168/16' }), ['cidr']);
  assertInvalid(await adminCall(t, 'POST', url, { ...ok4, cidr: '2001:db8:50::/64' }), ['cidr']);
  assertInvalid(await adminCall(t, 'POST', url, { ...ok4, cidr: '192.168.0.0/15' }), ['cidr']);
  assertInvalid(await adminCall(t, 'POST', url, { ...ok4, cidr: '192.168.50.0/31' }), ['cidr']);
  assertInvalid(await adminCall(t, 'POST', url, { version: 6, cidr: '2001:db8::/47', gateway: '2001:db8::1' }), ['cidr']);
  assertInvalid(await adminCall(t, 'POST', url, { version: 6, cidr: '2001:db8:50::/121', gateway: '2001:db8:50::1' }), ['cidr']);
  const hostBits = await adminCall(t, 'POST', url, { ...ok4, cidr: '192.168.50.7/24' });
  assertInvalid(hostBits, ['cidr']);
  assert.match(json(hostBits).error.errors[0].message, /192\.168\.50\.0\/24/);
  assertInvalid(await adminCall(t, 'POST', url, { ...ok4, gateway: '192.168.51.1' }), ['gateway']);
  assertInvalid(await adminCall(t, 'POST', url, { ...ok4, gateway: '192.168.50.0' }), ['gateway']);
  assertInvalid(await adminCall(t, 'POST', url, { ...ok4, gateway: '192.168.50.255' }), ['gateway']);
  assertInvalid(await adminCall(t, 'POST', url, { ...ok4, gateway: '2001:db8::1' }), ['gateway']);
  assertInvalid(await adminCall(t, 'POST', url, { ...ok4, gateway: 'router' }), ['gateway']);
  assertInvalid(await adminCall(t, 'POST', url, { ...ok4, gateway: '192.168.50.1/32' }), ['gateway']);
  assertError(await adminCall(t, 'POST', '/admin/v1/locations/999999/ip-pools', ok4), 404, 'RESOURCE_NOT_FOUND');
  assert.deepEqual(json(await adminCall(t, 'GET', url)).data, []);
});

test('add a pool: overlapping any pool, in any location, is refused naming cidr', async () => {
  const loc = await newLocation();
  const url = `/admin/v1/locations/${loc}/ip-pools`;
  const demo = json(await adminCall(t, 'GET', `/admin/v1/locations/${fra.id}/ip-pools`)).data[0];
  for (const cidr of [demo.cidr, demo.cidr.replace('/24', '/16'), demo.cidr.replace('0/24', '128/25')]) {
    const base = cidr.split('/')[0].split('.');
    const res = await adminCall(t, 'POST', url, { version: 4, cidr, gateway: `${base[0]}.${base[1]}.${base[2]}.${Number(base[3]) + 1}` });
    assertInvalid(res, ['cidr']);
    assert.match(json(res).error.errors[0].message, /overlaps/);
  }
  // Concurrent adds of overlapping pools: the database lets one through.
  const results = await Promise.all(['172.20.0.0/24', '172.20.0.0/23', '172.20.0.128/25'].map((cidr) =>
    adminCall(t, 'POST', url, { version: 4, cidr, gateway: cidr.replace(/0\/\d+$/, '1').replace(/128\/25$/, '129') })));
  assert.deepEqual(results.map((r) => r.statusCode).sort(), [201, 422, 422], results.map((r) => r.body).join('\n'));
});

test('add a pool: many overlapping adds at once — one is added, every other is refused as overlapping, never "busy"', async () => {
  // Racing on the exclusion constraint alone, two inserts could each find the other's row and wait
  // on it, and PostgreSQL failed one as a deadlock: 503 "The service is busy" where the answer is
  // 422. A busy machine made that race likely; here a lock on the table holds 30 adds (the rule
  // called directly, on a pool of 30 connections) until every one waits, then lets them all go.
  const loc = await newLocation();
  const wide = connect(t.databaseUrl, { max: 30 });
  try {
    for (let round = 0; round < 3; round++) {
      const net = `10.${120 + round}`;
      let release!: () => void;
      const released = new Promise<void>((resolve) => { release = resolve; });
      let held!: () => void;
      const isHeld = new Promise<void>((resolve) => { held = resolve; });
      const holder = db.transaction().execute(async (trx) => {
        await sql`LOCK TABLE ip_pools IN SHARE MODE`.execute(trx);
        held();
        await released;
      });
      await isHeld;
      const adds = Promise.allSettled(Array.from({ length: 30 }, (_, i) =>
        addIpPool(wide.db, loc, { version: 4, cidr: `${net}.0.0/${16 + (i % 15)}`, gateway: `${net}.0.1` })));
      const deadline = Date.now() + 60_000;
      const waiting = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`.execute(db)).rows[0]!.n;
      while (await waiting() < 30) {
        assert.ok(Date.now() < deadline, `round ${round}: the 30 adds never all waited`);
        await new Promise((r) => setTimeout(r, 20));
      }
      release();
      await holder;
      const refusals = (await adds).flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
      const odd = refusals.filter((e) => !(e instanceof ApiError && e.code === 'VALIDATION_FAILED' && /overlaps/.test(e.errors[0]?.message ?? '')));
      assert.deepEqual(odd.map(String), [], `round ${round}: only overlaps refused`);
      assert.equal(refusals.length, 29, `round ${round}: one added`);
    }
  } finally {
    await wide.close();
  }
  const url = `/admin/v1/locations/${loc}/ip-pools`;
  const results = await Promise.all(Array.from({ length: 10 }, (_, i) =>
    adminCall(t, 'POST', url, { version: 4, cidr: `10.130.0.0/${16 + i}`, gateway: '10.130.0.1' })));
  assert.deepEqual(results.map((r) => r.statusCode).sort(), [201, ...Array(9).fill(422)], results.map((r) => r.body).join('\n'));
  for (const r of results.filter((x) => x.statusCode === 422)) assert.match(json(r).error.errors[0].message, /overlaps/);
});

test('delete a pool: 200 when nothing is leased, 409 while something is, 404 after', async () => {
  const loc = await newLocation();
  const made = json(await adminCall(t, 'POST', `/admin/v1/locations/${loc}/ip-pools`, { version: 4, cidr: '192.168.60.0/29', gateway: '192.168.60.1' })).data;

  // A machine holds an address: the pool stays, and its counts say so.
  const sim = createSimulatedCompute({ db, delayMs: 0 });
  const m = await sim.create({
    token: 'pool-delete-1', hostname: 'a.example.com', locationId: loc, osSlug: null, password: 'x', fromSnapshotRef: null,
    cpuCores: 1, ramMb: 1024, storageGb: 10, extraIpv4: 1, extraIpv6: 0, ipv6: false,
  }, async () => {});
  const listed = json(await adminCall(t, 'GET', `/admin/v1/locations/${loc}/ip-pools`)).data[0];
  assert.deepEqual([listed.size, listed.used, listed.free], ['5', 2, '3']);
  const busy = await adminCall(t, 'DELETE', `/admin/v1/ip-pools/${made.id}`);
  assertError(busy, 409, 'STATE_CONFLICT');
  assert.match(json(busy).error.message, /2 leased addresses/);

  // Destroyed, its addresses are released (not forgotten): now the pool can go, released leases with it.
  await sim.destroy(m.ref, 'pool-delete-2');
  const del = await adminCall(t, 'DELETE', `/admin/v1/ip-pools/${made.id}`);
  assert.equal(del.statusCode, 200, del.body);
  assert.equal(json(del).data.id, made.id);
  assert.equal(json(del).data.cidr, '192.168.60.0/29');
  assert.deepEqual(json(await adminCall(t, 'GET', `/admin/v1/locations/${loc}/ip-pools`)).data, []);
  assert.equal((await db.selectFrom('ip_addresses').select('address').where('pool_id', '=', made.id).execute()).length, 0);
  assertError(await adminCall(t, 'DELETE', `/admin/v1/ip-pools/${made.id}`), 404, 'RESOURCE_NOT_FOUND');
  assertInvalid(await adminCall(t, 'DELETE', '/admin/v1/ip-pools/x'), ['id']);
  // The range is free again.
  assert.equal((await adminCall(t, 'POST', `/admin/v1/locations/${loc}/ip-pools`, { version: 4, cidr: '192.168.60.0/28', gateway: '192.168.60.1' })).statusCode, 201);
});

test('hostcloud admin provider fault / ip-pools', async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  const cli = async (...args: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runAdmin(['--url', `http://127.0.0.1:${port}`, '--token', t.adminToken, '--json', ...args], {
      stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; },
    });
    // With --json an error is one JSON object on stderr; its message is what a person would read.
    return { code, out: stdout ? JSON.parse(stdout) : null, stderr: stderr ? (JSON.parse(stderr) as { error: { message: string } }).error.message : '' };
  };
  const set = await cli('provider', 'fault', 'capacity_unavailable', '--remaining', '2', '--calls', 'create, attachIp');
  assert.equal(set.code, 0, set.stderr);
  assert.deepEqual(set.out.data, { mode: 'capacity_unavailable', remaining: 2, calls: ['create', 'attachIp'] });
  assert.deepEqual((await cli('provider', 'fault')).out.data, set.out.data);
  assert.deepEqual((await cli('provider', 'fault', 'none')).out.data, { mode: 'none', remaining: null, calls: [] });
  const bad = await cli('provider', 'fault', 'boom');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /422 VALIDATION_FAILED\):\n {2}MODE must be one of: none, /);
  assert.equal((await cli('provider', 'fault', 'timeout', '--remaining', 'lots')).code, 2);

  const loc = String(await newLocation());
  const added = await cli('ip-pools', 'add', loc, '--version', '4', '--cidr', '192.168.70.0/24', '--gateway', '192.168.70.254');
  assert.equal(added.code, 0, added.stderr);
  assert.equal(added.out.data.free, '253');
  assert.deepEqual((await cli('ip-pools', 'list', loc)).out.data.map((p: { cidr: string }) => p.cidr), ['192.168.70.0/24']);
  assert.equal((await cli('ip-pools', 'add', loc, '--version', '4', '--cidr', '192.168.70.0/24')).code, 2);
  const deleted = await cli('ip-pools', 'delete', String(added.out.data.id));
  assert.equal(deleted.code, 0, deleted.stderr);
  assert.deepEqual((await cli('ip-pools', 'list', loc)).out.data, []);
  const help = await runAdmin(['help'], { stdout: (s) => { assert.match(s, /provider fault MODE[\s\S]*ip-pools add LOCATION_ID/); }, stderr: () => {} });
  assert.equal(help, 0);
});

test('seeding: the demo pools also reach a database seeded before they existed, once', async () => {
  const adminUrl = process.env.HC_TEST_ADMIN_URL!;
  const name = `${process.env.HC_TEST_PREFIX}_pools_${process.pid}`;
  await ensureDatabase(adminUrl, name);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const fresh = connect(u.toString());
  try {
    await migrateToLatest(fresh.db);
    assert.equal(await seedDemoCatalog(fresh.db), true);
    const pools = await fresh.db.selectFrom('ip_pools').select(['location_id', 'version', 'cidr']).orderBy('id').execute();
    // As if seeded by the version before the pools: the catalog marker stands, the pools marker does not.
    await fresh.db.deleteFrom('ip_pools').execute();
    await fresh.db.deleteFrom('system_markers').where('name', '=', DEMO_IP_POOLS_MARKER).execute();
    const again = await Promise.all([seedDemoCatalog(fresh.db), seedDemoCatalog(fresh.db)]);
    assert.deepEqual(again.sort(), [false, true], 'exactly one process seeds the pools');
    assert.deepEqual(await fresh.db.selectFrom('ip_pools').select(['location_id', 'version', 'cidr']).orderBy('id').execute(), pools);
    assert.equal((await fresh.db.selectFrom('locations').select('id').execute()).length, 4, 'the catalog was not seeded twice');
    assert.equal(await seedDemoCatalog(fresh.db), false);
  } finally {
    await fresh.close();
    await dropDatabase(adminUrl, name);
  }
});
