// The fault switches of all four simulated providers — one mechanism: the admin API
// (/providers/{provider}/fault and the compute alias /provider/fault), the CLI, the shared
// obeyFault every simulated driver calls, and the migration of the old single 'fault' row.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Migrator } from 'kysely';
import { runAdmin } from '../../src/cli/admin.ts';
import { connect } from '../../src/db/connection.ts';
import { dropDatabase, ensureDatabase } from '../../src/db/create-database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import * as m0001 from '../../src/db/migrations/0001_initial.ts';
import * as m0002 from '../../src/db/migrations/0002_servers.ts';
import { createSimulatedCompute } from '../../src/providers/compute/simulated/index.ts';
import { COMPUTE_CALLS } from '../../src/providers/compute/types.ts';
import { ProviderError } from '../../src/providers/errors.ts';
import { HOSTING_CALLS } from '../../src/providers/hosting/types.ts';
import { PROVIDER_CALLS, PROVIDERS, type ProviderName } from '../../src/providers/names.ts';
import { PAYMENT_CALLS } from '../../src/providers/payments/types.ts';
import { REGISTRAR_CALLS } from '../../src/providers/registrar/types.ts';
import { obeyFault } from '../../src/providers/simulated/fault.ts';
import { adminCall, call, json, startApp } from '../helpers/app.ts';

const t = await startApp();
const db = t.database.db;
const OFF = { mode: 'none', remaining: null, calls: [] };

type Res = Awaited<ReturnType<typeof call>>;
const url = (p: string) => `/admin/v1/providers/${p}/fault`;

function assertInvalid(res: Res, fields: string[]) {
  assert.equal(res.statusCode, 422, res.body);
  const { error } = json(res);
  assert.equal(error.code, 'VALIDATION_FAILED');
  assert.deepEqual((error.errors as { field: string }[]).map((e) => e.field).sort(), [...fields].sort(), res.body);
}

function assertNotFound(res: Res) {
  assert.equal(res.statusCode, 404, res.body);
  assert.equal(json(res).error.code, 'RESOURCE_NOT_FOUND');
  assert.match(json(res).error.message, /compute, registrar, hosting/);
}

const rejectsWith = (p: Promise<unknown>, code: string, retryable: boolean, message?: RegExp) =>
  assert.rejects(p, (e) => {
    assert.ok(e instanceof ProviderError, String(e));
    assert.equal(e.code, code);
    assert.equal(e.retryable, retryable);
    if (message) assert.match(e.message, message);
    return true;
  });

async function clearAll() {
  for (const p of PROVIDERS) assert.equal((await adminCall(t, 'PUT', url(p), { mode: 'none' })).statusCode, 200);
}

test('the call registry: every provider has its list, as the later drivers will name their methods', () => {
  assert.deepEqual(PROVIDERS, ['compute', 'registrar', 'hosting', 'payments']);
  assert.equal(PROVIDER_CALLS.compute, COMPUTE_CALLS);
  assert.deepEqual(REGISTRAR_CALLS, [
    'check', 'register', 'transfer', 'renew', 'info', 'setNameservers', 'setTransferLock', 'setWhoisPrivacy',
    'getAuthCode', 'refreshAuthCode', 'transferStatus',
  ]);
  assert.deepEqual(HOSTING_CALLS, [
    'createAccount', 'findAccount', 'suspend', 'unsuspend', 'terminate', 'diskUsage', 'ssoUrl', 'listServers',
    'siteInfo', 'resetSftpPassword', 'createDatabase', 'resetDatabasePassword', 'dropDatabase',
  ]);
  assert.deepEqual(PAYMENT_CALLS, ['createCheckout', 'retrieve', 'refund']);
});

test('each provider has its own switch: off by default, set, read back, stored in its own row', async () => {
  const examples: Record<ProviderName, { mode: string; remaining: number | null; calls: string[] }> = {
    compute: { mode: 'upstream_error', remaining: 3, calls: ['create', 'power'] },
    registrar: { mode: 'timeout', remaining: null, calls: ['register', 'transfer', 'renew'] },
    hosting: { mode: 'capacity_unavailable', remaining: 1, calls: ['createAccount'] },
    payments: { mode: 'upstream_error', remaining: 2, calls: ['createCheckout'] },
  };
  try {
    for (const p of PROVIDERS) {
      const off = await adminCall(t, 'GET', url(p));
      assert.equal(off.statusCode, 200, off.body);
      assert.deepEqual(json(off).data, OFF, p);
      assert.equal(json(off).meta.version, '2.0.0');
    }
    for (const p of PROVIDERS) {
      const set = await adminCall(t, 'PUT', url(p), examples[p]);
      assert.equal(set.statusCode, 200, set.body);
      assert.deepEqual(json(set).data, examples[p], p);
    }
    for (const p of PROVIDERS) assert.deepEqual(json(await adminCall(t, 'GET', url(p))).data, examples[p], `${p} kept its own`);
    const rows = await db.selectFrom('sim_settings').select(['name', 'value']).where('name', 'like', 'fault%').orderBy('name').execute();
    assert.deepEqual(rows, [
      { name: 'fault:compute', value: examples.compute },
      { name: 'fault:hosting', value: examples.hosting },
      { name: 'fault:payments', value: examples.payments },
      { name: 'fault:registrar', value: examples.registrar },
    ]);

    // Clearing one leaves the others as they were.
    assert.deepEqual(json(await adminCall(t, 'PUT', url('registrar'), { mode: 'none', remaining: 4, calls: ['check'] })).data, OFF);
    assert.deepEqual(json(await adminCall(t, 'GET', url('registrar'))).data, OFF);
    assert.deepEqual(json(await adminCall(t, 'GET', url('hosting'))).data, examples.hosting);
    assert.deepEqual(json(await adminCall(t, 'GET', url('compute'))).data, examples.compute);
  } finally {
    await clearAll();
  }
});

test('/provider/fault is the compute switch under its older address', async () => {
  try {
    const viaAlias = await adminCall(t, 'PUT', '/admin/v1/provider/fault', { mode: 'upstream_error', calls: ['metrics'] });
    assert.equal(viaAlias.statusCode, 200, viaAlias.body);
    assert.deepEqual(json(await adminCall(t, 'GET', url('compute'))).data, { mode: 'upstream_error', remaining: null, calls: ['metrics'] });
    const viaNew = await adminCall(t, 'PUT', url('compute'), { mode: 'timeout', remaining: 2 });
    assert.deepEqual(json(await adminCall(t, 'GET', '/admin/v1/provider/fault')).data, json(viaNew).data);
    for (const p of ['registrar', 'hosting', 'payments']) assert.deepEqual(json(await adminCall(t, 'GET', url(p))).data, OFF, `${p} untouched`);
    // The alias validates compute's calls.
    assertInvalid(await adminCall(t, 'PUT', '/admin/v1/provider/fault', { mode: 'timeout', calls: ['register'] }), ['calls[0]']);
  } finally {
    await clearAll();
  }
});

test('calls are checked against that provider\'s own list; other bad input is 422; nothing stored', async () => {
  const wrong = await adminCall(t, 'PUT', url('registrar'), { mode: 'timeout', calls: ['register', 'create', 'renew', 'createAccount'] });
  assertInvalid(wrong, ['calls[1]', 'calls[3]']);
  assert.match(json(wrong).error.errors[0].message, /"create" is not a registrar call; calls are check, register, transfer/);
  assertInvalid(await adminCall(t, 'PUT', url('hosting'), { mode: 'timeout', calls: ['check'] }), ['calls[0]']);
  assertInvalid(await adminCall(t, 'PUT', url('compute'), { mode: 'timeout', calls: ['createAccount'] }), ['calls[0]']);
  for (const p of PROVIDERS) {
    assertInvalid(await adminCall(t, 'PUT', url(p), { mode: 'explode' }), ['mode']);
    assertInvalid(await adminCall(t, 'PUT', url(p), {}), ['mode']);
    assertInvalid(await adminCall(t, 'PUT', url(p), { mode: 'timeout', remaining: 0 }), ['remaining']);
    assertInvalid(await adminCall(t, 'PUT', url(p), { mode: 'timeout', remaining: 1_000_001 }), ['remaining']);
    assertInvalid(await adminCall(t, 'PUT', url(p), { mode: 'timeout', remaining: '3' }), ['remaining']);
    assertInvalid(await adminCall(t, 'PUT', url(p), { mode: 'timeout', calls: 'renew' }), ['calls']);
    assertInvalid(await adminCall(t, 'PUT', url(p), { mode: 'timeout', calls: [''] }), ['calls[0]']);
    assertInvalid(await adminCall(t, 'PUT', url(p), { mode: 'timeout', calls: ['x'.repeat(65)] }), ['calls[0]']);
    // NUL is refused at the door by the app's JSON reader (which names an array item by its index).
    const nul = await adminCall(t, 'PUT', url(p), { mode: 'timeout', calls: ['ssoUrl\u0000'] });
    assert.equal(nul.statusCode, 422, nul.body);
    assert.match(json(nul).error.errors[0].message, /NUL/);
    assertInvalid(await adminCall(t, 'PUT', url(p), { mode: 'timeout', sometimes: true }), ['sometimes']);
    assert.deepEqual(json(await adminCall(t, 'GET', url(p))).data, OFF, `${p}: nothing was stored`);
  }
  const text = await call(t.app, 'PUT', url('hosting'), { headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'text/plain' }, body: 'mode=timeout' });
  assert.equal(text.statusCode, 415, text.body);
});

test('an unknown provider is 404 RESOURCE_NOT_FOUND, whatever the body', async () => {
  for (const p of ['dns', 'Compute', 'compute%20', 'sim', 'registrar.', 'x'.repeat(90)]) {
    assertNotFound(await adminCall(t, 'GET', url(p)));
    assertNotFound(await adminCall(t, 'PUT', url(p), { mode: 'timeout' }));
    assertNotFound(await adminCall(t, 'PUT', url(p), { mode: 'explode', junk: 1 }));
  }
  // A NUL in the path is refused before routing, as everywhere.
  assertInvalid(await adminCall(t, 'GET', url('%00')), ['provider']);
  assert.deepEqual(await db.selectFrom('sim_settings').select('name').where('name', 'like', 'fault:%')
    .where('name', 'not in', PROVIDERS.map((p) => `fault:${p}`)).execute(), []);
  // The admin token comes first: without it nothing about providers is revealed.
  for (const p of ['dns', 'registrar']) {
    const res = await call(t.app, 'GET', url(p));
    assert.equal(res.statusCode, 401, res.body);
    assert.equal(json(res).error.code, 'AUTH_REQUIRED');
    const put = await call(t.app, 'PUT', url(p), { body: { mode: 'none' }, headers: { authorization: 'Bearer not-the-admin-token-at-all' } });
    assert.equal(json(put).error.code, 'AUTH_INVALID');
  }
});

test('obeyFault: every provider fails on its own switch only, with each mode, counting down exactly', async () => {
  const sim = createSimulatedCompute({ db, delayMs: 0 });
  try {
    await adminCall(t, 'PUT', url('registrar'), { mode: 'upstream_error', remaining: 2, calls: ['register'] });
    await adminCall(t, 'PUT', url('hosting'), { mode: 'capacity_unavailable' });
    // Calls the registrar switch does not name pass and do not spend it.
    await obeyFault(db, 'registrar', 'renew', 0);
    await rejectsWith(obeyFault(db, 'registrar', 'register', 0), 'UPSTREAM_ERROR', true, /Simulated upstream error \(register\)/);
    assert.equal(json(await adminCall(t, 'GET', url('registrar'))).data.remaining, 1);
    await rejectsWith(obeyFault(db, 'registrar', 'register', 0), 'UPSTREAM_ERROR', true);
    await obeyFault(db, 'registrar', 'register', 0);
    assert.deepEqual(json(await adminCall(t, 'GET', url('registrar'))).data, OFF, 'a spent switch reads as off');

    for (const c of HOSTING_CALLS) await rejectsWith(obeyFault(db, 'hosting', c, 0), 'CAPACITY_UNAVAILABLE', false, new RegExp(`\\(${c}\\)`));
    // The compute driver does not see the others' switches.
    const loc = await db.selectFrom('ip_pools').select('location_id').where('version', '=', 4).orderBy('id').executeTakeFirstOrThrow();
    const m = await sim.create({
      token: 'pf-1', hostname: 'pf', locationId: loc.location_id, osSlug: null, password: 'x', fromSnapshotRef: null,
      extraIpv4: 0, extraIpv6: 0, ipv6: false, cpuCores: 1, ramMb: 512, storageGb: 10,
    }, async () => {});
    assert.equal((await sim.status(m.ref, 1000)).power, 'running');

    // Parallel calls spend a count exactly, on any provider.
    await adminCall(t, 'PUT', url('hosting'), { mode: 'upstream_error', remaining: 4, calls: ['diskUsage', 'suspend'] });
    const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => obeyFault(db, 'hosting', i % 2 ? 'diskUsage' : 'suspend', 0)));
    assert.equal(results.filter((r) => r.status === 'rejected').length, 4);

    // timeout hangs hangMs, then fails retryably, naming the upstream.
    await adminCall(t, 'PUT', url('hosting'), { mode: 'timeout', remaining: 1 });
    const started = Date.now();
    await rejectsWith(obeyFault(db, 'hosting', 'ssoUrl', 120), 'UPSTREAM_ERROR', true, /Simulated hosting panel timed out after 120 ms \(ssoUrl\)/);
    assert.ok(Date.now() - started >= 115, `hung ${Date.now() - started} ms`);
    await adminCall(t, 'PUT', url('registrar'), { mode: 'timeout', remaining: 1 });
    await rejectsWith(obeyFault(db, 'registrar', 'check', 0), 'UPSTREAM_ERROR', true, /Simulated registrar timed out/);

    // And the compute driver still obeys its own switch, set through the new address.
    await adminCall(t, 'PUT', url('compute'), { mode: 'upstream_error', remaining: 1, calls: ['power'] });
    await rejectsWith(sim.power(m.ref, 'stop', 'pf-p', async () => {}), 'UPSTREAM_ERROR', true, /\(power\)/);
    assert.equal(await sim.power(m.ref, 'stop', 'pf-p2', async () => {}), 'stopped');
    await adminCall(t, 'PUT', url('compute'), { mode: 'timeout', calls: ['status'] });
    await rejectsWith(sim.status(m.ref, 100), 'UPSTREAM_ERROR', true, /Status timed out after 100 ms/);
  } finally {
    await clearAll();
  }
});

test('hostcloud admin provider fault --provider …', async () => {
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
  try {
    const reg = await cli('provider', 'fault', 'upstream_error', '--provider', 'registrar', '--remaining', '2', '--calls', 'register, renew');
    assert.equal(reg.code, 0, reg.stderr);
    assert.deepEqual(reg.out.data, { mode: 'upstream_error', remaining: 2, calls: ['register', 'renew'] });
    const host = await cli('provider', 'fault', '--provider=hosting', 'timeout');
    assert.equal(host.code, 0, host.stderr);
    assert.deepEqual(host.out.data, { mode: 'timeout', remaining: null, calls: [] });
    // Without --provider: compute, untouched by the two above.
    assert.deepEqual((await cli('provider', 'fault')).out.data, OFF);
    const comp = await cli('provider', 'fault', 'capacity_unavailable', '--calls', 'create');
    assert.deepEqual(comp.out.data, { mode: 'capacity_unavailable', remaining: null, calls: ['create'] });
    assert.deepEqual(json(await adminCall(t, 'GET', '/admin/v1/provider/fault')).data, comp.out.data);

    assert.deepEqual((await cli('provider', 'fault', '--provider', 'registrar')).out.data, reg.out.data);
    assert.deepEqual((await cli('provider', 'fault', '--provider', 'hosting')).out.data, host.out.data);
    assert.deepEqual(json(await adminCall(t, 'GET', url('hosting'))).data, host.out.data, 'the CLI wrote through the API');

    const unknown = await cli('provider', 'fault', '--provider', 'dns');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /404 RESOURCE_NOT_FOUND: Provider "dns" not found/);
    const wrongCall = await cli('provider', 'fault', 'timeout', '--provider', 'hosting', '--calls', 'register');
    assert.equal(wrongCall.code, 2);
    assert.match(wrongCall.stderr, /422 VALIDATION_FAILED[\s\S]*--calls "register" is not a hosting call/);
    const noMode = await cli('provider', 'fault', '--provider', 'hosting', '--remaining', '3');
    assert.equal(noMode.code, 2);
    assert.match(noMode.stderr, /usage: hostcloud admin provider fault \[MODE\] \[--provider/);
    assert.equal((await cli('provider', 'fault', '--provider', 'hosting', 'none')).out.data.mode, 'none');
    assert.deepEqual(json(await adminCall(t, 'GET', url('hosting'))).data, OFF);
  } finally {
    await clearAll();
  }
});

test('migration: the old single switch becomes the compute switch', async () => {
  const adminUrl = process.env.HC_TEST_ADMIN_URL!;
  const name = `${process.env.HC_TEST_PREFIX}_faults_${process.pid}`;
  await ensureDatabase(adminUrl, name);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const fresh = connect(u.toString());
  try {
    // A database as the servers release left it: migrated to 0002, its switch set.
    const before = new Migrator({ db: fresh.db, provider: { getMigrations: async () => ({ '0001_initial': m0001, '0002_servers': m0002 }) } });
    assert.equal((await before.migrateToLatest()).error, undefined);
    const old = { mode: 'upstream_error', remaining: 2, calls: ['create'] };
    await fresh.db.insertInto('sim_settings').values({ name: 'fault', value: JSON.stringify(old) }).execute();
    assert.ok((await migrateToLatest(fresh.db)).includes('0005_notifications'));
    assert.deepEqual(await fresh.db.selectFrom('sim_settings').select(['name', 'value']).where('name', 'like', 'fault%').execute(), [{ name: 'fault:compute', value: old }]);
    await assert.rejects(obeyFault(fresh.db, 'compute', 'create', 0), ProviderError, 'the compute driver obeys the migrated switch');
  } finally {
    await fresh.close();
    await dropDatabase(adminUrl, name);
  }
});
