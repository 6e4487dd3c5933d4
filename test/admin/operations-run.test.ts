// The operator's operations at work: a running operation asked to stop fails at its next step
// (refunded, its machine destroyed), and a failed operation of a retryable type runs again as a new
// one. Lists, reads, cancels of queued and stuck operations and the CLI: operations.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { setFault } from '../helpers/server-actions.ts';
import { serverBody } from '../helpers/servers.ts';

// No worker of its own: each test starts the worker it is about (a sibling on the file's database).
const t = await startApp({ worker: 'off' });
const db = t.database.db;

const balanceOf = async (key: string) => json(await call(t.app, 'GET', '/v2/billing/balance', { key })).data.balance.amount as string;

async function queuedCreate(deposit = '50.00') {
  const c = await createCustomer(t, { deposit });
  const res = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody() });
  assert.equal(res.statusCode, 201, res.body);
  return { c, serverId: json(res).data.id as string, opId: json(res).data.operation.id as string };
}

function assertError(res: Awaited<ReturnType<typeof call>>, status: number, code: string) {
  assert.equal(res.statusCode, status, res.body);
  assert.equal(json(res).error.code, code, res.body);
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('cancel a running operation: asked to stop, it fails at its next step, refunded and its machine destroyed', async (ctx) => {
  // A slow platform: each step of a create takes 800 ms.
  await t.sibling({ worker: 'embedded', simDelayMs: 800 });
  ctx.after(() => t.stopWorkers());
  const r = await queuedCreate();
  await until('the create running', async () => {
    const row = await db.selectFrom('operations').select(['status', 'lease_until']).where('id', '=', r.opId).executeTakeFirstOrThrow();
    return row.status === 'running' && row.lease_until !== null;
  });
  const res = await adminCall(t, 'POST', `/admin/v1/operations/${r.opId}/cancel`);
  assert.equal(res.statusCode, 202, res.body);
  assert.equal(json(res).data.status, 'running');
  assert.ok(json(res).data.cancel_requested_at);
  const done = await waitForOperation(t, r.c.key, r.opId);
  assert.equal(done.status, 'failed');
  assert.equal(done.detail, 'Cancelled by the operator; anything charged for it was refunded');
  assert.equal(await balanceOf(r.c.key), '50.00');
  // The clean-up follows the failure's commit (one slow platform step).
  await until('its machine destroyed', async () => (await db.selectFrom('sim_vms').select('destroyed_at').where('request_token', '=', r.opId).execute())
    .every((m) => m.destroyed_at !== null));
});

test('retry: a failed operation of a retryable type runs again as a new one; others are 409', async (ctx) => {
  // Its operations are posted through this sibling, whose JOB_RETRY_LIMIT their jobs carry: no retry.
  const w = await t.sibling({ worker: 'embedded', jobRetryLimit: 0 });
  ctx.after(() => t.stopWorkers());
  const c = await createCustomer(t, { deposit: '50.00' });
  const created = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody() });
  const serverId = json(created).data.id as string;
  assert.equal((await waitForOperation(t, c.key, json(created).data.operation.id)).status, 'completed');
  await setFault(t, { mode: 'upstream_error', calls: ['power'], remaining: null });
  let stopId: string;
  try {
    const stop = await call(w, 'POST', `/v2/servers/${serverId}/actions/stop`, { key: c.key });
    assert.equal(stop.statusCode, 202, stop.body);
    stopId = json(stop).data.operation.id;
    assert.equal((await waitForOperation(t, c.key, stopId)).status, 'failed');
  } finally {
    await setFault(t, { mode: 'none' });
  }
  const failed = json(await adminCall(t, 'GET', `/admin/v1/operations/${stopId}`)).data;
  assert.equal(failed.retryable, true);
  assert.match(failed.last_error, /Simulated upstream error/);

  const res = await adminCall(t, 'POST', `/admin/v1/operations/${stopId}/retry`);
  assert.equal(res.statusCode, 202, res.body);
  const again = json(res).data;
  assert.notEqual(again.id, stopId);
  assert.equal(again.type, 'server.stop');
  assert.deepEqual(again.resource, { type: 'server', id: serverId });
  assert.equal(again.account_id, c.accountId);
  assert.equal(again.detail, `Queued again by the operator (retry of ${stopId})`);
  assert.equal((await waitForOperation(t, c.key, again.id)).status, 'completed');
  assert.equal(json(await call(t.app, 'GET', `/v2/servers/${serverId}`, { key: c.key })).data.power_state, 'stopped');

  assertError(await adminCall(t, 'POST', `/admin/v1/operations/${again.id}/retry`), 409, 'STATE_CONFLICT');
  // A create charged and was refunded when it failed: not the operator's to run again. (Failed by
  // the platform rather than cancelled: a cancel can lose the race with a quick create.)
  await setFault(t, { mode: 'upstream_error', calls: ['create'], remaining: null });
  let createId: string;
  try {
    const create = await call(w, 'POST', '/v2/servers', { key: c.key, body: serverBody() });
    assert.equal(create.statusCode, 201, create.body);
    createId = json(create).data.operation.id;
    assert.equal((await waitForOperation(t, c.key, createId)).status, 'failed');
  } finally {
    await setFault(t, { mode: 'none' });
  }
  const refused = await adminCall(t, 'POST', `/admin/v1/operations/${createId}/retry`);
  assertError(refused, 409, 'STATE_CONFLICT');
  assert.match(json(refused).error.message, /server\.create cannot be retried/);
  assertError(await adminCall(t, 'POST', '/admin/v1/operations/op_nope/retry'), 404, 'RESOURCE_NOT_FOUND');
});
