// A process whose COMPUTE_DRIVER cannot serve a machine's node refuses to act on it (platform.ts):
// the simulated driver a node with an endpoint (an LXD server), the LXD driver one without. The
// worker gives such a job back without spending a retry, so a misconfigured worker of a rolling
// deploy neither fakes the work nor fails (and refunds) it; the API answers 503. No LXD is needed
// here: "LXD" nodes have an endpoint nobody dials (the refusal comes first). The same with real
// LXD and an LXD worker taking over: test/providers/lxd-wrong-platform.test.ts.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { sql } from 'kysely';
import { JOB_SCHEMA } from '../../src/db/names.ts';
import { createLxdCompute } from '../../src/providers/compute/lxd/index.ts';
import { WrongPlatformError } from '../../src/providers/errors.ts';
import { createSimulatedCompute } from '../../src/providers/compute/simulated/index.ts';
import type { CreateRequest } from '../../src/providers/compute/types.ts';
import { adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { activeServer, serverBody } from '../helpers/servers.ts';

// One retry per job: a refusal that spent one would send the job to its dead letter (failed, refunded) at the second.
const t = await startApp({ worker: 'embedded', jobRetryLimit: 1 });
const db = t.database.db;
const quiet = async () => {};
const NOWHERE = 'unix:/nonexistent/lxd.socket';

let n = 0;
/** A location of its own with address pools and one node, an "LXD server" (with an endpoint) or a simulated one. */
async function location(endpoint: string | null): Promise<{ locationId: number; nodeId: number; node: string }> {
  n += 1;
  const code = `wp-${randomBytes(3).toString('hex')}`;
  const loc = await adminCall(t, 'POST', '/admin/v1/locations', { name: `Wrong platform ${code}`, code, country: 'DE', provider: 'primary' });
  assert.equal(loc.statusCode, 201, loc.body);
  const locationId = json(loc).data.id as number;
  for (const pool of [{ version: 4, cidr: `198.51.${100 + n}.0/24`, gateway: `198.51.${100 + n}.1` }, { version: 6, cidr: `2001:db8:${0xe00 + n}::/64`, gateway: `2001:db8:${0xe00 + n}::1` }]) {
    const p = await adminCall(t, 'POST', `/admin/v1/locations/${locationId}/ip-pools`, pool);
    assert.equal(p.statusCode, 201, p.body);
  }
  // Straight into the table: this app's driver (simulated) cannot add a node with an endpoint.
  const row = await db.insertInto('nodes').values({
    name: `${code}-a`, location_id: locationId, cpu_vendor: 'intel', cpu_cores: 64, ram_mb: 262_144, storage_gb: 4000, endpoint,
  }).returning(['id', 'name']).executeTakeFirstOrThrow();
  return { locationId, nodeId: row.id, node: row.name };
}

let tokens = 0;
function request(locationId: number, node: string, over: Partial<CreateRequest> = {}): CreateRequest {
  tokens += 1;
  return {
    token: `op_wp_${randomBytes(4).toString('hex')}_${tokens}`, hostname: `wp${tokens}.example.com`, locationId, node, osSlug: 'ubuntu-24.04',
    password: 'S3cure-pass!', fromSnapshotRef: null, cpuCores: 1, ramMb: 1024, storageGb: 25, extraIpv4: 0, extraIpv6: 0, ipv6: true, ...over,
  };
}

const refused = (driver: 'simulated' | 'lxd', node: string | null) => (e: unknown) => {
  assert.ok(e instanceof WrongPlatformError, String(e));
  assert.equal(e.retryable, true);
  assert.equal(e.code, 'UPSTREAM_ERROR');
  assert.equal(e.driver, driver);
  assert.equal(e.node, node);
  assert.match(e.message, new RegExp(`COMPUTE_DRIVER=${driver} and cannot act on it`));
  return true;
};

const machinesOf = (token: string) => db.selectFrom('sim_vms').select(['id', 'power', 'destroyed_at']).where('request_token', '=', token).execute();

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The worker's refusal lines for an operation. */
const refusalsOf = (operationId: string) => t.logs.filter((l) => l.includes(`"operation_id":"${operationId}"`) && l.includes('cannot act on it'));

test('the simulated driver refuses a node with an endpoint, retryably, and changes nothing', async () => {
  const lxdNode = await location(NOWHERE);
  const sim = createSimulatedCompute({ db, delayMs: 0 });
  const req = request(lxdNode.locationId, lxdNode.node);
  await assert.rejects(sim.create(req, quiet), refused('simulated', lxdNode.node));
  assert.deepEqual(await machinesOf(req.token), [], 'no machine recorded');
  const leased = await db.selectFrom('ip_addresses').innerJoin('ip_pools', 'ip_pools.id', 'ip_addresses.pool_id')
    .select('address').where('ip_pools.location_id', '=', lxdNode.locationId).where('vm_id', 'is not', null).execute();
  assert.deepEqual(leased, [], 'no address taken');

  // A machine the LXD driver's bookkeeping keeps on that node: nothing the simulated platform may touch or answer for.
  const records = createSimulatedCompute({ db, delayMs: 0, anyNode: true });
  const { ref } = await records.create(request(lxdNode.locationId, lxdNode.node), quiet);
  await assert.rejects(sim.power(ref, 'stop', 'op_wp_stop', quiet), refused('simulated', lxdNode.node));
  await assert.rejects(sim.resize(ref, { cpuCores: 2, ramMb: 2048, storageGb: 30 }, 'op_wp_resize', quiet), refused('simulated', lxdNode.node));
  await assert.rejects(sim.snapshot(ref, 'op_wp_snap', quiet), refused('simulated', lxdNode.node));
  await assert.rejects(sim.status(ref, 5_000), refused('simulated', lxdNode.node));
  await assert.rejects(sim.metrics(ref), refused('simulated', lxdNode.node));
  await assert.rejects(sim.openConsole(ref, 60), refused('simulated', lxdNode.node));
  await assert.rejects(sim.destroy(ref, 'op_wp_destroy'), refused('simulated', lxdNode.node));
  assert.deepEqual((await db.selectFrom('sim_vms').select(['power', 'cpu_cores', 'destroyed_at']).where('id', '=', ref).executeTakeFirstOrThrow()),
    { power: 'running', cpu_cores: 1, destroyed_at: null }, 'the record is untouched');

  // Nor may a simulated machine move onto an LXD server.
  const simNode = await location(null);
  const own = await sim.create(request(simNode.locationId, simNode.node), quiet);
  await sim.power(own.ref, 'stop', 'op_wp_own_stop', quiet);
  await assert.rejects(sim.migrate(own.ref, { node: lxdNode.node, locationId: lxdNode.locationId, live: false }, 'op_wp_move', quiet), refused('simulated', lxdNode.node));
});

test('the LXD driver refuses a node without an endpoint, and a machine without a node, before recording anything', async () => {
  const simNode = await location(null);
  const lxd = createLxdCompute({
    db, project: 'hct-unused', instanceType: 'container', storagePool: 'default',
    certificate: async () => { throw new Error('no LXD server is dialled for a refused call'); },
  });
  try {
    const req = request(simNode.locationId, simNode.node);
    await assert.rejects(lxd.create(req, quiet), refused('lxd', simNode.node));
    assert.deepEqual(await machinesOf(req.token), [], 'no machine recorded');
    const sim = createSimulatedCompute({ db, delayMs: 0 });
    const { ref } = await sim.create(request(simNode.locationId, simNode.node), quiet);
    await assert.rejects(lxd.power(ref, 'stop', 'op_wp_lxd_stop', quiet), refused('lxd', simNode.node));
    await assert.rejects(lxd.metrics(ref), refused('lxd', simNode.node));
    await assert.rejects(lxd.openConsole(ref, 60), refused('lxd', simNode.node));
    await assert.rejects(lxd.destroy(ref, 'op_wp_lxd_destroy'), refused('lxd', simNode.node));
    const noNode = await sim.create(request(simNode.locationId, simNode.node, { node: null }), quiet);
    await assert.rejects(lxd.status(noNode.ref, 5_000), refused('lxd', null));
    assert.equal((await db.selectFrom('sim_vms').select('power').where('id', '=', ref).executeTakeFirstOrThrow()).power, 'running');
  } finally {
    lxd.close();
  }
});

test('a simulated worker gives a create on an LXD node back, unspent, however often; a worker that serves the node then completes it once', async () => {
  const lxdNode = await location(NOWHERE);
  const c = await createCustomer(t, { deposit: '50.00' });
  // A rolling deploy: the API already runs COMPUTE_DRIVER=lxd (its placement picks the LXD server),
  // the worker still the simulated driver.
  const image = await adminCall(t, 'PATCH', '/admin/v1/operating-systems/1', { image: 'ubuntu/24.04' });
  assert.equal(image.statusCode, 200, image.body);
  const lxdApi = await t.sibling({ computeDriver: 'lxd', worker: 'off' });
  const res = await call(lxdApi, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: lxdNode.locationId }) });
  assert.equal(res.statusCode, 201, res.body);
  const created = json(res).data;
  const opId = created.operation.id as string;
  // Three refusals: with one retry per job, a refusal that spent it would have failed the operation by the second.
  await until('three refusals', () => refusalsOf(opId).length >= 3);

  const op = json(await call(t.app, 'GET', `/v2/operations/${opId}`, { key: c.key })).data;
  assert.equal(op.status, 'queued');
  assert.equal(op.detail, 'Waiting for a worker that can reach its platform');
  const row = await db.selectFrom('operations').select(['attempts', 'last_error', 'lease_until']).where('id', '=', opId).executeTakeFirstOrThrow();
  assert.equal(row.attempts, 0, 'no attempt counted');
  assert.match(row.last_error ?? '', new RegExp(`Node ${lxdNode.node} is an LXD server`));
  const job = await sql<{ state: string; retry_count: number }>`SELECT state, retry_count FROM ${sql.table(`${JOB_SCHEMA}.job`)}
    WHERE name = 'operations' AND data->>'operation_id' = ${opId}`.execute(db);
  assert.equal(job.rows.length, 1, 'one job, given back each time (no second queued by the lost-operation sweep)');
  assert.ok(['retry', 'active'].includes(job.rows[0]!.state), job.rows[0]!.state);
  assert.equal(job.rows[0]!.retry_count, 0, 'no retry spent');
  const server = await db.selectFrom('servers').select(['status', 'provider_ref']).where('id', '=', created.id).executeTakeFirstOrThrow();
  assert.deepEqual(server, { status: 'pending', provider_ref: null });
  const machines = await machinesOf(opId);
  assert.equal(machines.length, 1, 'the create\'s reserved record only');
  assert.equal(machines[0]!.power, 'provisioning', 'never "booted" by the simulated platform');
  const withdrawals = () => db.selectFrom('transactions').select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', c.accountId).where('type', '=', 'withdraw').executeTakeFirstOrThrow().then((r) => Number(r.n));
  assert.equal(await withdrawals(), 1);
  const line = JSON.parse(refusalsOf(opId)[0]!) as Record<string, unknown>;
  assert.equal(line.level, 50, 'an error line');
  assert.equal(line.node, lxdNode.node);
  assert.equal(line.compute_driver, 'simulated');
  assert.match(String(line.msg), /run every worker and API process of this installation with COMPUTE_DRIVER=lxd/);

  // The node was a simulated one after all (its endpoint a mistake): a worker that serves it, this one now, completes the create.
  await db.updateTable('nodes').set({ endpoint: null }).where('id', '=', lxdNode.nodeId).execute();
  const done = await waitForOperation(t, c.key, opId);
  assert.equal(done.status, 'completed', done.detail);
  const after = await db.selectFrom('servers').select(['status', 'provider_ref']).where('id', '=', created.id).executeTakeFirstOrThrow();
  assert.deepEqual(after, { status: 'active', provider_ref: machines[0]!.id });
  assert.equal((await db.selectFrom('operations').select('attempts').where('id', '=', opId).executeTakeFirstOrThrow()).attempts, 1);
  assert.equal(await withdrawals(), 1, 'charged once');
  assert.equal((await machinesOf(opId)).length, 1);
});

test('the API refuses live reads of a machine on a node its driver cannot serve (503 in the envelope), and its actions wait', async () => {
  const node = await location(null);
  const c = await createCustomer(t, { deposit: '50.00' });
  const server = await activeServer(t, c, { location_id: node.locationId });
  // The node "becomes" an LXD server: this process (simulated) can no longer answer for its machines.
  await db.updateTable('nodes').set({ endpoint: NOWHERE }).where('id', '=', node.nodeId).execute();
  for (const path of ['metrics', 'console', 'traffic']) {
    const res = await call(t.app, 'GET', `/v2/servers/${server.id}/${path}`, { key: c.key });
    assert.equal(res.statusCode, 503, `${path}: ${res.body}`);
    assert.equal(json(res).error.code, 'SERVICE_UNAVAILABLE');
    assert.equal(res.headers['retry-after'], '5');
    assert.doesNotMatch(res.body, /COMPUTE_DRIVER|endpoint/, 'nothing of the configuration reaches the customer');
  }
  const detail = await call(t.app, 'GET', `/v2/servers/${server.id}`, { key: c.key });
  assert.equal(detail.statusCode, 200, detail.body);
  assert.equal(json(detail).data.power_state, 'unknown', 'not the simulated platform\'s idea of its state');
  assert.ok(t.logs.some((l) => l.includes('"component":"compute"') && l.includes('"call":"metrics"') && l.includes(`"node":"${node.node}"`)
    && l.includes('"level":50')), 'the API logs the refusal');

  const stop = await call(t.app, 'POST', `/v2/servers/${server.id}/actions/stop`, { key: c.key });
  assert.equal(stop.statusCode, 202, stop.body);
  const opId = json(stop).data.operation.id as string;
  await until('a refusal of the stop', () => refusalsOf(opId).length >= 2);
  // It waits: given back after each refusal and claimed again, so it reads queued or, caught between
  // a claim and its refusal, running — never failed or done.
  assert.match(json(await call(t.app, 'GET', `/v2/operations/${opId}`, { key: c.key })).data.status, /^(queued|running)$/);
  await db.updateTable('nodes').set({ endpoint: null }).where('id', '=', node.nodeId).execute();
  assert.equal((await waitForOperation(t, c.key, opId)).status, 'completed');
  assert.equal(json(await call(t.app, 'GET', `/v2/servers/${server.id}`, { key: c.key })).data.power_state, 'stopped');
});
