// The worker's batched completions (batchCompletions in src/core/operations/execute.ts): completions
// handed in while a commit is on its way commit together; one whose changes are refused fails alone,
// the others complete; an operation finished meanwhile gets nothing applied.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { batchCompletions } from '../../src/core/operations/execute.ts';
import type { RunResult } from '../../src/core/operations/runner.ts';
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
