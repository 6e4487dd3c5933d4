// GET /v2/operations/{id}?wait=N: the answer comes as the operation finishes (LISTEN/NOTIFY, one
// listen connection per process), or after N seconds with its state then; waiting requests hold no
// database connection. The worker is off here: tests finish operations themselves, with the very
// statements the worker and requests finish them with.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { type Customer, type TestApp, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { until } from '../helpers/worker-process.ts';
import { createServer } from '../helpers/servers.ts';
import { completeOperations, finishOperation, insertOperation } from '../../src/db/queries/operations.ts';
import { operationWaitsOf } from '../../src/http/app.ts';
import type { OperationWaits } from '../../src/http/operation-waits.ts';
import { MAX_WAIT_S } from '../../src/core/operations/wait.ts';

let t: TestApp;
let c: Customer;
let waits: OperationWaits;

before(async () => {
  t = await startApp();
  c = await createCustomer(t, { deposit: '100.00' });
  waits = operationWaitsOf(t.app)!;
  await until('the listen connection', 60_000, async () => (waits.listening ? true : undefined));
});

/** A queued operation of `c`'s (no resource behind it: reading an operation needs only its row). */
async function queuedOp(accountId = c.accountId): Promise<string> {
  const n = randomBytes(6).toString('hex');
  const op = await insertOperation(t.database.db, { id: `op_wait_${n}`, account_id: accountId, type: 'server.reboot', resource_type: 'server', resource_id: `srv_wait_${n}`, params: {}, detail: 'Queued: reboot' });
  return op.id;
}

function get(id: string, wait?: string, key = c.key) {
  return call(t.app, 'GET', `/v2/operations/${id}`, { key, ...(wait === undefined ? {} : { query: { wait } }) });
}

/**
 * The answer did not wait out its wait (30 s or more here): on a busy machine an answer "at once"
 * has taken more than a second, so the bound is well under the wait, not a latency.
 */
function assertNoWait(started: number): void {
  const ms = Date.now() - started;
  assert.ok(ms < 10_000, `answered after ${ms} ms`);
}

/** Resolves once `n` requests wait (each has read its operation and found it unfinished). */
const waiting = (n: number) => until(`${n} waiting requests`, 60_000, async () => (waits.waiting >= n ? true : undefined));

describe('wait', () => {
  test('without wait, or wait=0, the answer is at once', async () => {
    const id = await queuedOp();
    for (const w of [undefined, '0']) {
      const started = Date.now();
      const res = await get(id, w);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(json(res).data.status, 'queued');
      assertNoWait(started);
    }
  });

  test('a waiting request answers within 200 ms of the operation completing', async () => {
    const id = await queuedOp();
    const pending = get(id, '30');
    await waiting(1);
    await finishOperation(t.database.db, id, 'completed', 'Rebooted');
    const committed = Date.now();
    const res = await pending;
    const after = Date.now() - committed;
    assert.equal(res.statusCode, 200, res.body);
    const op = json(res).data;
    assert.equal(op.status, 'completed');
    assert.equal(op.detail, 'Rebooted');
    assert.equal(op.progress_pct, 100);
    assert.ok(after < 200, `answered ${after} ms after the commit`);
    process.stdout.write(`# one waiter answered ${after} ms after the commit\n`);
  });

  test('a failure wakes it too, and so does the worker\'s batched completion statement', async () => {
    const a = await queuedOp();
    const b = await queuedOp();
    const pa = get(a, '30');
    const pb = get(b, '30');
    await waiting(2);
    await finishOperation(t.database.db, a, 'failed', 'The provider failed: boom');
    await completeOperations(t.database.db, [{ id: b, detail: 'Done in a batch' }]);
    assert.equal(json(await pa).data.status, 'failed');
    assert.equal(json(await pb).data.status, 'completed');
  });

  test('nothing finished: the answer comes after `wait` seconds with the operation as it stands', async () => {
    const id = await queuedOp();
    const started = Date.now();
    const res = await get(id, '1');
    const took = Date.now() - started;
    assert.equal(res.statusCode, 200);
    assert.equal(json(res).data.status, 'queued');
    assert.ok(took >= 990 && took < 2500, `took ${took} ms`);
  });

  test('an operation finished already answers at once', async () => {
    const id = await queuedOp();
    await finishOperation(t.database.db, id, 'completed', 'Done');
    const started = Date.now();
    assert.equal(json(await get(id, '60')).data.status, 'completed');
    assertNoWait(started);
  });

  test('200 waiting requests hold no database connection; the one listen connection is all', async () => {
    const ids = await Promise.all(Array.from({ length: 200 }, () => queuedOp()));
    const pool = t.database.pool;
    // The longest wait, so no request's own wait ends before the operations complete on a busy machine.
    const answers = ids.map((id) => get(id, String(MAX_WAIT_S)));
    await waiting(200);
    // What the requests hold now: connections checked out of the pool, and busy backends of this database.
    const checkedOut = pool.totalCount - pool.idleCount;
    const busy = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'`.execute(t.database.db);
    const listeners = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'hostcloud operation waits'`.execute(t.database.db);
    assert.equal(checkedOut, 0, 'no pooled connection is held by a waiting request');
    assert.equal(busy.rows[0]!.n, 0, 'no statement runs for them');
    assert.equal(listeners.rows[0]!.n, 1, 'one listen connection serves every waiter');
    process.stdout.write(`# 200 waiters: ${checkedOut} pooled connections checked out, ${busy.rows[0]!.n} busy backends, ${listeners.rows[0]!.n} listen connection; pool ${pool.totalCount} open (idle)\n`);
    const started = Date.now();
    await completeOperations(t.database.db, ids.map((id) => ({ id, detail: 'Done' })));
    const done = await Promise.all(answers);
    assert.ok(done.every((r) => r.statusCode === 200 && json(r).data.status === 'completed'));
    process.stdout.write(`# 200 waiters answered ${Date.now() - started} ms after their operations completed in one statement\n`);
  });

  test('the listen connection cut while a request waits: it still hears of the completion', async () => {
    const id = await queuedOp();
    const pending = get(id, '30');
    await waiting(1);
    await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'hostcloud operation waits'`.execute(t.database.db);
    await until('the listener to notice', 5_000, async () => (waits.listening ? undefined : true));
    await finishOperation(t.database.db, id, 'completed', 'Done while deaf');
    const committed = Date.now();
    const res = await pending;
    assert.equal(json(res).data.status, 'completed');
    // Read again within the fallback interval, or when the listener is back (whichever first).
    assert.ok(Date.now() - committed < 2_000);
    await until('the listener to reconnect', 60_000, async () => (waits.listening ? true : undefined));
  });
});

describe('what is refused or not waited on', () => {
  test('wait outside 0–60 or not a whole number → 422 naming wait', async () => {
    const id = await queuedOp();
    for (const w of ['61', '-1', '1.5', 'soon', '']) {
      const res = await get(id, w);
      assert.equal(res.statusCode, 422, `${w}: ${res.body}`);
      assert.equal(json(res).error.code, 'VALIDATION_FAILED');
      assert.deepEqual(json(res).error.errors.map((e: { field: string }) => e.field), ['wait']);
    }
  });

  test('another account\'s operation → 404 at once, whatever the wait', async () => {
    const other = await createCustomer(t);
    const id = await queuedOp(other.accountId);
    const started = Date.now();
    const res = await get(id, '30');
    assert.equal(res.statusCode, 404);
    assert.equal(json(res).error.code, 'RESOURCE_NOT_FOUND');
    assertNoWait(started);
    assert.equal((await get('op_nope', '30')).statusCode, 404);
  });

  test('a key without the operation\'s family scope → 403 before any wait', async () => {
    const narrow = await createCustomer(t, { scopes: ['domains:read'] });
    const other = await createCustomer(t, { deposit: '10.00' });
    void other;
    const id = await queuedOp(narrow.accountId);
    const started = Date.now();
    const res = await get(id, '30', narrow.key);
    assert.equal(res.statusCode, 403);
    assert.equal(json(res).error.code, 'AUTH_SCOPE_INSUFFICIENT');
    assertNoWait(started);
  });

  test('a sandbox operation is complete: the test key\'s wait answers at once', async () => {
    const sandbox = await createCustomer(t, { isTest: true, deposit: '50.00' });
    const created = await createServer(t, sandbox);
    const started = Date.now();
    const res = await get(created.operation.id, '30', sandbox.key);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json(res).data.status, 'completed');
    assert.equal(json(res).meta.sandbox, true);
    assertNoWait(started);
  });

  test('a closing server answers its waiting requests at once, with the state then', async () => {
    const sibling = await t.sibling();
    const siblingWaits = operationWaitsOf(sibling)!;
    const id = await queuedOp();
    const pending = call(sibling, 'GET', `/v2/operations/${id}`, { key: c.key, query: { wait: '60' } });
    await until('the request to wait', 60_000, async () => (siblingWaits.waiting === 1 ? true : undefined));
    const started = Date.now();
    await sibling.close();
    const res = await pending;
    assert.equal(json(res).data.status, 'queued');
    assert.ok(Date.now() - started < 2_000);
  });
});

describe('with the worker', () => {
  test('a server create waited on answers completed as the worker provisions it', async () => {
    await t.sibling({ worker: 'embedded', simDelayMs: 50 });
    const created = await createServer(t, c);
    const res = await get(created.operation.id, '30');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json(res).data.status, 'completed');
  });
});
