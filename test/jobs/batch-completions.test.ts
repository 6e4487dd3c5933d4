// The worker's batched completions (batchCompletions in src/core/operations/execute.ts): completions
// handed in while a commit is on its way commit together; one whose changes are refused fails alone,
// the others complete; an operation finished meanwhile gets nothing applied.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { batchCompletions } from '../../src/core/operations/execute.ts';
import { type BatchApplier, type RunResult, batched } from '../../src/core/operations/runner.ts';
import { claimOperations, finishOperation, insertOperation } from '../../src/db/queries/operations.ts';
import type { Operation } from '../../src/db/schema.ts';
import { createCustomer, startApp } from '../helpers/app.ts';

const t = await startApp();
const db = t.database.db;
const c = await createCustomer(t);

let n = 0;
async function runningOps(count: number): Promise<Operation[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    n += 1;
    const op = await insertOperation(db, { id: `op_batch_${n}`, account_id: c.accountId, type: 'server.power', resource_type: 'server', resource_id: `srv_batch_${n}`, params: { password: 'x' }, detail: 'Queued' });
    ids.push(op.id);
  }
  const claimed = await claimOperations(db, ids, 30);
  assert.equal(claimed.length, count);
  return ids.map((id) => claimed.find((o) => o.id === id)!);
}

/** A result whose apply records that it ran (a note in the operation's own row, in the completion's transaction). */
const marks = new Set<string>();
function result(op: Operation, fail = false): RunResult {
  return {
    detail: `done ${op.id}`,
    apply: async (trx) => {
      if (fail) await sql`SELECT 1 / 0`.execute(trx);
      marks.add(op.id);
    },
  };
}

const statusOf = async (id: string) => (await db.selectFrom('operations').select(['status', 'detail', 'params', 'progress_pct']).where('id', '=', id).executeTakeFirstOrThrow());

test('completions handed in together commit together: each completed, its detail kept, its password dropped', async () => {
  const complete = batchCompletions(db);
  const ops = await runningOps(5);
  await Promise.all(ops.map((op) => complete(op, result(op))));
  for (const op of ops) {
    const row = await statusOf(op.id);
    assert.deepEqual([row.status, row.detail, row.progress_pct], ['completed', `done ${op.id}`, 100]);
    assert.equal((row.params as Record<string, unknown>).password, undefined);
    assert.ok(marks.has(op.id));
  }
});

test('one completion whose changes are refused fails alone; the rest of its batch completes', async () => {
  const complete = batchCompletions(db);
  const ops = await runningOps(4);
  const outcomes = await Promise.allSettled(ops.map((op, i) => complete(op, result(op, i === 2))));
  assert.deepEqual(outcomes.map((o) => o.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
  assert.match(String((outcomes[2] as PromiseRejectedResult).reason), /division by zero/);
  assert.equal((await statusOf(ops[2]!.id)).status, 'running', 'the refused one is left for its retry');
  for (const i of [0, 1, 3]) assert.equal((await statusOf(ops[i]!.id)).status, 'completed');
  await complete.flush();
});

test('an operation finished meanwhile (a twin run, a recorded failure) gets nothing applied', async () => {
  const complete = batchCompletions(db);
  const ops = await runningOps(3);
  await finishOperation(db, ops[1]!.id, 'failed', 'Failed elsewhere');
  await Promise.all(ops.map((op) => complete(op, result(op))));
  assert.equal((await statusOf(ops[1]!.id)).status, 'failed');
  assert.equal(marks.has(ops[1]!.id), false);
  assert.ok(marks.has(ops[0]!.id) && marks.has(ops[2]!.id));
});

/** Batched changes: each applyAll call's items, by the op id each item names; an item "bad" is refused. */
const calls: string[][] = [];
const applier: BatchApplier<{ id: string; bad: boolean }> = {
  async applyAll(trx, items) {
    if (items.some((i) => i.bad)) await sql`SELECT 1 / 0`.execute(trx);
    calls.push(items.map((i) => i.id).sort());
  },
};
const batchedResult = (op: Operation, bad = false): RunResult => ({ detail: `done ${op.id}`, batched: batched(applier, { id: op.id, bad }) });

test('batched changes of completions committed together are applied in one call, only for those that completed', async () => {
  const complete = batchCompletions(db);
  const ops = await runningOps(5);
  await finishOperation(db, ops[3]!.id, 'failed', 'Failed elsewhere');
  calls.length = 0;
  await Promise.all(ops.map((op) => complete(op, batchedResult(op))));
  // The first completion commits alone (nothing was in flight); the four that arrived meanwhile, together.
  assert.deepEqual(calls, [[ops[0]!.id], [ops[1]!.id, ops[2]!.id, ops[4]!.id].sort()]);
  for (const i of [0, 1, 2, 4]) assert.equal((await statusOf(ops[i]!.id)).status, 'completed');
});

test('a batch whose batched change is refused falls back to one by one: only the refused one fails', async () => {
  const complete = batchCompletions(db);
  const ops = await runningOps(4);
  calls.length = 0;
  const outcomes = await Promise.allSettled(ops.map((op, i) => complete(op, batchedResult(op, i === 2))));
  assert.deepEqual(outcomes.map((o) => o.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
  assert.equal((await statusOf(ops[2]!.id)).status, 'running');
  assert.deepEqual(calls.flat().sort(), [ops[0]!.id, ops[1]!.id, ops[3]!.id].sort(), 'each of the others applied once');
});

/** A change made by the completing statement itself: a marker row per completed operation. */
const markers: BatchApplier<string> = {
  async applyAll() {
    throw new Error('applied in a transaction of its own, not by the completing statement');
  },
  onCompletion: (items) => (name) => sql`${sql.raw(name)} AS (
    INSERT INTO sim_settings (name, value)
    SELECT 'mark:' || i.id, '{}'::jsonb FROM unnest(${items.map((i) => i.item)}::text[]) i(id) JOIN completed ON completed.id = i.id)`,
};
const markedIds = async (ops: Operation[]) => (await db.selectFrom('sim_settings').select('name').where('name', 'in', ops.map((o) => `mark:${o.id}`)).execute())
  .map((r) => r.name.slice('mark:'.length)).sort();

test('changes that can be part of the completing statement are made by it, only for the operations it completed', async () => {
  const complete = batchCompletions(db);
  const ops = await runningOps(4);
  await finishOperation(db, ops[2]!.id, 'failed', 'Failed elsewhere');
  await Promise.all(ops.map((op) => complete(op, { detail: `done ${op.id}`, batched: batched(markers, op.id) })));
  assert.deepEqual(await markedIds(ops), [ops[0]!.id, ops[1]!.id, ops[3]!.id].sort());
  assert.equal((await statusOf(ops[2]!.id)).status, 'failed');
  for (const i of [0, 1, 3]) assert.equal((await statusOf(ops[i]!.id)).status, 'completed');
});
