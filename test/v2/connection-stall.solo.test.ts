// One customer must not stall the API for everyone. A refused action (another operation is still
// running on the resource) used to ask the pool for a second connection while its failed
// transaction still held the first: a burst of them larger than the pool (DATABASE_POOL_MAX,
// 10 here) deadlocked the pool until the connect timeout (5 s), and every request of every
// account on the process waited, or answered 503. Nor may a burst hold the pool while it queues
// for one resource's row lock. Each burst here is 50 parallel conflicting requests on one resource
// while another account reads its balance, one request after another: the bystander stays fast
// and never sees a 503. The figures each burst prints are the before/after measure.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { newId } from '../../src/core/ids.ts';
import { finishOperation, insertOperation } from '../../src/db/queries/operations.ts';
import { type Customer, type TestApp, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { type Json, activeServer } from '../helpers/servers.ts';
import { v1 } from '../helpers/v1.ts';
import { BIG_POOL, activeVm, setPool } from '../helpers/vdc.ts';

const BURST = 50;
/**
 * The bystander's p99 must stay under this. A healthy read takes a few ms, and a few tens at the
 * p99 on a loaded machine (up to 90 ms seen at a load average of 17); the defects this file guards
 * against made it wait for the connect timeout (5 s) or the whole burst. At 200 ms a busy machine's
 * pause failed it now and then.
 */
const P99_LIMIT_MS = 1_000;

let t: TestApp;
let owner: Customer;
let bystander: Customer;
let server: Json;
let vm: Json;

before(async () => {
  // The production wait for a connection (DATABASE_CONNECT_TIMEOUT_MS): what a stalled pool made
  // every bystander wait for, then 503.
  t = await startApp({ worker: 'embedded', databaseConnectTimeoutMs: 5_000 });
  owner = await createCustomer(t, { deposit: '500.00' });
  bystander = await createCustomer(t, { deposit: '10.00' });
  server = await activeServer(t, owner);
  await setPool(t, owner.accountId, BIG_POOL);
  vm = await activeVm(t, owner);
});

/**
 * Runs `fn` while an unfinished operation, written directly, holds the resource, so that every
 * request of the burst conflicts; `fn` gets that operation's id.
 */
async function whileBusy(resourceType: 'server' | 'vdc_vm', resourceId: string, fn: (opId: string) => Promise<void>): Promise<void> {
  const op = await insertOperation(t.database.db, {
    id: newId('op'), account_id: owner.accountId, type: `${resourceType}.test_hold`, resource_type: resourceType, resource_id: resourceId, params: {}, detail: 'Held by a test',
  });
  try {
    await fn(op.id);
  } finally {
    await finishOperation(t.database.db, op.id, 'completed', 'Released by a test');
  }
}

interface Measured {
  burst: LightMyRequestResponse[];
  latenciesMs: number[];
  unavailable: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Fires the burst while the bystander reads its balance back to back until the burst is answered. */
async function measure(label: string, send: () => Promise<LightMyRequestResponse>): Promise<Measured> {
  let done = false;
  const latenciesMs: number[] = [];
  let unavailable = 0;
  const reader = (async () => {
    while (!done) {
      const started = performance.now();
      const res = await call(t.app, 'GET', '/v2/billing/balance', { key: bystander.key });
      latenciesMs.push(performance.now() - started);
      if (res.statusCode === 503) unavailable += 1;
      else assert.equal(res.statusCode, 200, res.body);
    }
  })();
  const burst = await Promise.all(Array.from({ length: BURST }, send));
  done = true;
  await reader;
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  const ms = (x: number) => x.toFixed(1);
  const codes = new Map<number, number>();
  for (const r of burst) codes.set(r.statusCode, (codes.get(r.statusCode) ?? 0) + 1);
  // The closing note of the issue quotes these figures.
  process.stdout.write(`# bystander during ${BURST} × ${label}: ${sorted.length} reads, median ${ms(percentile(sorted, 50))} ms, `
    + `p99 ${ms(percentile(sorted, 99))} ms, max ${ms(sorted.at(-1)!)} ms, ${unavailable} × 503; burst answers ${JSON.stringify(Object.fromEntries(codes))}\n`);
  return { burst, latenciesMs: sorted, unavailable };
}

/**
 * Measures the burst, then checks: the bystander never got 503, its p99 stayed under P99_LIMIT_MS,
 * and every request of the burst was a conflict naming the operation in the way.
 */
async function assertNoStall(label: string, send: () => Promise<LightMyRequestResponse>, conflict: (r: LightMyRequestResponse) => void): Promise<void> {
  const m = await measure(label, send);
  assert.equal(m.unavailable, 0, 'the bystander never got 503');
  assert.ok(m.latenciesMs.length > 0, 'the bystander read at least once');
  const p99 = percentile(m.latenciesMs, 99);
  assert.ok(p99 < P99_LIMIT_MS, `bystander p99 ${p99.toFixed(1)} ms < ${P99_LIMIT_MS} ms`);
  for (const r of m.burst) conflict(r);
}

function v2Conflict(opId: string | undefined) {
  return (r: LightMyRequestResponse) => {
    assert.equal(r.statusCode, 409, r.body);
    const e = json(r).error;
    assert.equal(e.code, 'STATE_CONFLICT', r.body);
    // The refusal still names the operation in the way, so the client can poll it.
    if (opId) assert.match(e.message, new RegExp(opId), r.body);
  };
}

function v1Conflict(r: LightMyRequestResponse) {
  assert.equal(r.statusCode, 422, r.body);
  assert.equal(json(r).error.code, 'STATE_CONFLICT', r.body);
}

describe('servers', () => {
  test(`${BURST} parallel POST /v2/servers/{id}/actions/stop on a busy server`, () => whileBusy('server', server.id, async (opId) => {
    await assertNoStall('v2 server stop', () => call(t.app, 'POST', `/v2/servers/${server.id}/actions/stop`, { key: owner.key }), v2Conflict(opId));
  }));

  test(`${BURST} parallel POST /v2/servers/{id}/actions/start on a busy stopped server`, async () => {
    await t.database.db.updateTable('servers').set({ power_state: 'stopped' }).where('id', '=', server.id).execute();
    try {
      await whileBusy('server', server.id, async (opId) => {
        await assertNoStall('v2 server start', () => call(t.app, 'POST', `/v2/servers/${server.id}/actions/start`, { key: owner.key }), v2Conflict(opId));
      });
    } finally {
      await t.database.db.updateTable('servers').set({ power_state: 'running' }).where('id', '=', server.id).execute();
    }
  });

  test(`${BURST} parallel POST /v2/servers/{id}/snapshots on a busy server (nothing charged)`, () => whileBusy('server', server.id, async (opId) => {
    const balance = () => t.database.db.selectFrom('accounts').select('balance_cents').where('id', '=', owner.accountId).executeTakeFirstOrThrow();
    const before = await balance();
    await assertNoStall('v2 server snapshot create', () => call(t.app, 'POST', `/v2/servers/${server.id}/snapshots`, { key: owner.key, body: { name: 'burst' } }), v2Conflict(opId));
    assert.deepEqual(await balance(), before, 'refused snapshots charged nothing');
  }));

  // The issue's own case: nothing runs yet, so the quick read refuses none of them; one starts the
  // stop, the others wait for its row lock (or its insert) and are refused inside their transactions.
  test(`${BURST} parallel POST /v2/servers/{id}/actions/stop on an idle server: one 202, the rest 409`, async () => {
    let accepted: LightMyRequestResponse | undefined;
    await assertNoStall('v2 server stop (idle server)', () => call(t.app, 'POST', `/v2/servers/${server.id}/actions/stop`, { key: owner.key }), (r) => {
      if (r.statusCode === 202 && !accepted) {
        accepted = r;
        return;
      }
      assert.equal(r.statusCode, 409, r.body);
      assert.equal(json(r).error.code, 'STATE_CONFLICT', r.body);
    });
    assert.ok(accepted, 'one stop was accepted');
    assert.equal((await waitForOperation(t, owner.key, json(accepted).data.operation.id)).status, 'completed');
    // Powered on again for the tests after this one.
    const started = await call(t.app, 'POST', `/v2/servers/${server.id}/actions/start`, { key: owner.key });
    assert.equal(started.statusCode, 202, started.body);
    assert.equal((await waitForOperation(t, owner.key, json(started).data.operation.id)).status, 'completed');
  });

  test(`${BURST} parallel POST /v1/servers/{id}/stop on a busy server`, () => whileBusy('server', server.id, async () => {
    await assertNoStall('v1 server stop', () => v1(t.app, 'POST', `/v1/servers/${server.id}/stop`, { key: owner.key }), v1Conflict);
  }));
});

describe('VDC VMs', () => {
  test(`${BURST} parallel POST /v2/vdc/vms/{id}/actions/stop on a busy VM`, () => whileBusy('vdc_vm', vm.id, async (opId) => {
    await assertNoStall('v2 VM stop', () => call(t.app, 'POST', `/v2/vdc/vms/${vm.id}/actions/stop`, { key: owner.key }), v2Conflict(opId));
  }));

  test(`${BURST} parallel POST /v1/vms/{id}/stop on a busy VM`, () => whileBusy('vdc_vm', vm.id, async () => {
    await assertNoStall('v1 VM stop', () => v1(t.app, 'POST', `/v1/vms/${vm.id}/stop`, { key: owner.key }), v1Conflict);
  }));

  test(`${BURST} parallel POST /v2/vdc/vms/{id}/snapshots and DELETE …/snapshots/{sid} on a busy VM`, async () => {
    const taken = await call(t.app, 'POST', `/v2/vdc/vms/${vm.id}/snapshots`, { key: owner.key, body: { name: 'kept' } });
    assert.equal(taken.statusCode, 201, taken.body);
    assert.equal((await waitForOperation(t, owner.key, json(taken).data.operation.id)).status, 'completed');
    const snapshotId = json(taken).data.id as number;
    await whileBusy('vdc_vm', vm.id, async (opId) => {
      await assertNoStall('v2 VM snapshot create', () => call(t.app, 'POST', `/v2/vdc/vms/${vm.id}/snapshots`, { key: owner.key, body: { name: 'burst' } }), v2Conflict(opId));
      await assertNoStall('v2 VM snapshot delete', () => call(t.app, 'DELETE', `/v2/vdc/vms/${vm.id}/snapshots/${snapshotId}`, { key: owner.key }), v2Conflict(opId));
    });
  });
});
