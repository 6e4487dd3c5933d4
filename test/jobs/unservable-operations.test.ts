// Operations that never ended. Placement picks only nodes this installation's compute driver can
// serve (an LXD installation never places on the demo seed's simulated nodes); an operation that no
// worker can run (every worker refuses its node) fails with its refund after JOB_TIMEOUT_S rather
// than wait for ever; and a failed attempt waiting for its retry delay (longer than the lease) is
// not "lost" to the lease sweep: no second job, attempts within JOB_RETRY_LIMIT, a truthful detail.
// No LXD is needed: "LXD" nodes have an endpoint nobody dials (a refusal or placement comes first).
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { sql } from 'kysely';
import { JOB_SCHEMA } from '../../src/db/names.ts';
import { adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { setFault } from '../helpers/server-actions.ts';
import { CLOUD_S, FRA, UBUNTU, serverBody } from '../helpers/servers.ts';

// No worker of its own: each test starts the workers it is about (siblings on the file's database).
const t = await startApp({ worker: 'off' });
const db = t.database.db;
const NOWHERE = 'unix:/nonexistent/lxd.socket';

let n = 0;
/** A location of its own with address pools and the given nodes (endpoint null: simulated; else an "LXD server"). */
async function location(nodes: { endpoint: string | null; ramMb: number }[]): Promise<{ locationId: number; nodeIds: number[] }> {
  n += 1;
  const code = `us-${randomBytes(3).toString('hex')}`;
  const loc = await adminCall(t, 'POST', '/admin/v1/locations', { name: `Unservable ${code}`, code, country: 'DE', provider: 'primary' });
  assert.equal(loc.statusCode, 201, loc.body);
  const locationId = json(loc).data.id as number;
  for (const pool of [{ version: 4, cidr: `198.51.${110 + n}.0/24`, gateway: `198.51.${110 + n}.1` }, { version: 6, cidr: `2001:db8:${0xf00 + n}::/64`, gateway: `2001:db8:${0xf00 + n}::1` }]) {
    const p = await adminCall(t, 'POST', `/admin/v1/locations/${locationId}/ip-pools`, pool);
    assert.equal(p.statusCode, 201, p.body);
  }
  const nodeIds: number[] = [];
  for (const [i, node] of nodes.entries()) {
    // Straight into the table: a simulated app cannot add a node with an endpoint.
    const row = await db.insertInto('nodes').values({
      name: `${code}-${i}`, location_id: locationId, cpu_vendor: 'intel', cpu_cores: 64, ram_mb: node.ramMb, storage_gb: 4000, endpoint: node.endpoint,
    }).returning('id').executeTakeFirstOrThrow();
    nodeIds.push(row.id);
  }
  return { locationId, nodeIds };
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const balanceOf = async (key: string) => json(await call(t.app, 'GET', '/v2/billing/balance', { key })).data.balance.amount as string;
const operationRow = (id: string) => db.selectFrom('operations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const jobsOf = async (operationId: string) => (await sql<{ name: string; state: string }>`SELECT name, state FROM ${sql.table(`${JOB_SCHEMA}.job`)}
  WHERE data->>'operation_id' = ${operationId} ORDER BY created_on`.execute(db)).rows;

test('an operation no worker can run (every worker refuses its node) fails after JOB_TIMEOUT_S, refunded and cleaned up', async (ctx) => {
  const where = await location([{ endpoint: null, ramMb: 65_536 }]);
  const c = await createCustomer(t, { deposit: '50.00' });
  const res = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: where.locationId }) });
  assert.equal(res.statusCode, 201, res.body);
  const { id: serverId, operation } = json(res).data;
  const charged = await balanceOf(c.key);
  assert.notEqual(charged, '50.00', 'the create was charged');
  // Before any worker ran it, its node "became" an LXD server: no worker of this (simulated) installation can build it.
  await db.updateTable('nodes').set({ endpoint: NOWHERE }).where('id', '=', where.nodeIds[0]!).execute();

  const started = Date.now();
  await t.sibling({ worker: 'embedded', jobTimeoutS: 4 });
  ctx.after(() => t.stopWorkers());
  await until('a first refusal', async () => (await operationRow(operation.id)).last_error !== null);
  const waiting = json(await call(t.app, 'GET', `/v2/operations/${operation.id}`, { key: c.key })).data;
  assert.equal(waiting.status, 'queued', 'given back while JOB_TIMEOUT_S has not passed');
  assert.equal(waiting.detail, 'Waiting for a worker that can reach its platform');

  const done = await waitForOperation(t, c.key, operation.id, 30_000);
  const waited = (Date.now() - started) / 1000;
  assert.equal(done.status, 'failed', done.detail);
  assert.match(done.detail, /No worker could reach its platform within 4 s; the operation failed and anything charged for it was refunded/);
  assert.ok(waited >= 4, `failed after ${waited} s, not before JOB_TIMEOUT_S`);
  assert.equal(await balanceOf(c.key), '50.00', 'refunded');
  assert.equal(json(await call(t.app, 'GET', `/v2/servers/${serverId}`, { key: c.key })).data.status, 'cancelled');
  const leased = await db.selectFrom('ip_addresses').innerJoin('ip_pools', 'ip_pools.id', 'ip_addresses.pool_id')
    .select('address').where('ip_pools.location_id', '=', where.locationId).where('vm_id', 'is not', null).execute();
  assert.deepEqual(leased, [], 'its addresses went back to the pool');
  // Its one job is settled after the failure commits, and never given back again.
  await until('its job completed', async () => JSON.stringify((await jobsOf(operation.id)).map((j) => j.state)) === '["completed"]');
  assert.ok(t.logs.some((l) => l.includes(`"operation_id":"${operation.id}"`) && l.includes('no worker could run an operation within JOB_TIMEOUT_S')));
});

test('a failed attempt waiting for a retry delay longer than the lease is not lost: one job, attempts within JOB_RETRY_LIMIT, a true detail', async () => {
  // Retries 5–10 s after a failure (backoff), a lease of 3 s swept every second: the wait outlasts the lease.
  const w = await t.sibling({ worker: 'embedded', operationLeaseS: 3, jobRetryDelayS: 5, jobRetryLimit: 1, jobMaintenanceS: 1 });
  const c = await createCustomer(t, { deposit: '50.00' });
  await setFault(t, { mode: 'upstream_error', calls: ['create'], remaining: null });
  try {
    const res = await call(w, 'POST', '/v2/servers', { key: c.key, body: serverBody() });
    assert.equal(res.statusCode, 201, res.body);
    const opId = json(res).data.operation.id as string;
    const details = new Set<string>();
    const deadline = Date.now() + 40_000;
    let op = await operationRow(opId);
    while (op.status === 'queued' || op.status === 'running') {
      assert.ok(Date.now() < deadline, `still ${op.status}: ${op.detail}`);
      details.add(op.detail);
      await new Promise((r) => setTimeout(r, 100));
      op = await operationRow(opId);
    }
    assert.equal(op.status, 'failed', op.detail);
    assert.equal(op.attempts, 2, 'the first run and its one retry (JOB_RETRY_LIMIT=1), no more');
    assert.equal(op.detail, 'The provider failed: Simulated upstream error (create)');
    assert.ok([...details].some((d) => /^Attempt 1 failed \(The provider failed: Simulated upstream error \(create\)\); retrying/.test(d)), [...details].join(' | '));
    assert.ok(![...details].some((d) => /interrupted/.test(d)), `nothing was interrupted: ${[...details].join(' | ')}`);
    const jobs = await jobsOf(opId);
    assert.equal(jobs.filter((j) => j.name === 'operations').length, 1, `one job, never queued again by the sweep: ${JSON.stringify(jobs)}`);
    assert.ok(!t.logs.some((l) => l.includes('lost operations queued again') && l.includes(opId)), 'the sweep never took it');
    assert.equal(await balanceOf(c.key), '50.00', 'refunded');
  } finally {
    await setFault(t, { mode: 'none' });
  }
});

test('placement never picks a node the installation\'s COMPUTE_DRIVER cannot serve', async () => {
  const c = await createCustomer(t, { deposit: '100.00' });
  // The LXD server has by far the most free RAM: the policy alone would pick it.
  const mixed = await location([{ endpoint: NOWHERE, ramMb: 1_048_576 }, { endpoint: null, ramMb: 16_384 }]);
  const res = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: mixed.locationId }) });
  assert.equal(res.statusCode, 201, res.body);
  const placed = await db.selectFrom('servers').select('node_id').where('id', '=', json(res).data.id).executeTakeFirstOrThrow();
  assert.equal(placed.node_id, mixed.nodeIds[1], 'the simulated node, the only one this installation serves');
  // The same through the transaction's way (an idempotent create, a clone) and a VDC VM's placement.
  const keyed = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: mixed.locationId }), headers: { 'idempotency-key': randomUUID() } });
  assert.equal(keyed.statusCode, 201, keyed.body);
  assert.equal((await db.selectFrom('servers').select('node_id').where('id', '=', json(keyed).data.id).executeTakeFirstOrThrow()).node_id, mixed.nodeIds[1]);

  // A location with only LXD servers has no room for this installation: 422 before any charge.
  const lxdOnly = await location([{ endpoint: NOWHERE, ramMb: 1_048_576 }]);
  const before = await balanceOf(c.key);
  const refused = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: lxdOnly.locationId }) });
  assert.equal(refused.statusCode, 422, refused.body);
  assert.equal(json(refused).error.code, 'CAPACITY_UNAVAILABLE');
  assert.equal(await balanceOf(c.key), before, 'nothing charged');

  // The operator cannot name another platform's node as a migration's target either.
  assert.equal((await waitForOperation(t, c.key, json(res).data.operation.id)).status, 'completed');
  const moved = await adminCall(t, 'POST', `/admin/v1/servers/${json(res).data.id}/migrate`, { node_id: mixed.nodeIds[0], mode: 'cold' });
  assert.equal(moved.statusCode, 409, moved.body);
  assert.match(json(moved).error.message, /an LXD server, which this installation's compute driver does not serve/);

  // Under COMPUTE_DRIVER=lxd the demo seed's simulated nodes are never picked: a create in the
  // seeded location is 422 (no LXD server there), not a charge for an operation that waits for ever.
  const image = await adminCall(t, 'PATCH', `/admin/v1/operating-systems/${UBUNTU}`, { image: 'ubuntu/24.04' });
  assert.equal(image.statusCode, 200, image.body);
  const lxdApp = await t.sibling({ computeDriver: 'lxd' });
  const seeded = await call(lxdApp, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: FRA, plan_id: CLOUD_S }) });
  assert.equal(seeded.statusCode, 422, seeded.body);
  assert.equal(json(seeded).error.code, 'CAPACITY_UNAVAILABLE');
  const sandbox = await createCustomer(t, { isTest: true });
  const sandboxed = await call(lxdApp, 'POST', '/v2/servers', { key: sandbox.key, body: serverBody({ location_id: FRA }) });
  assert.equal(sandboxed.statusCode, 422, `the sandbox places as live does: ${sandboxed.body}`);
  // An LXD server in that location is where it goes.
  const lxdNode = await db.insertInto('nodes').values({
    name: `fra-lxd-${randomBytes(2).toString('hex')}`, location_id: FRA, cpu_vendor: 'intel', cpu_cores: 8, ram_mb: 8192, storage_gb: 200, endpoint: NOWHERE,
  }).returning('id').executeTakeFirstOrThrow();
  const onLxd = await call(lxdApp, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: FRA }) });
  assert.equal(onLxd.statusCode, 201, onLxd.body);
  assert.equal((await db.selectFrom('servers').select('node_id').where('id', '=', json(onLxd).data.id).executeTakeFirstOrThrow()).node_id, lxdNode.id);
  await db.updateTable('nodes').set({ status: 'disabled' }).where('id', '=', lxdNode.id).execute();
});
