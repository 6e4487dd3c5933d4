// The worker's fetch (fetchAndClaimOperations, src/db/queries/operation-fetch.ts): one statement
// that takes jobs as pg-boss 10's fetch takes them, claims their operations and reads what their
// runners need. The job rows must end as pg-boss's own fetch leaves them (its maintenance, retries
// and archive read them), and the claim must be claimOperations'.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { claimReads } from '../../src/core/operations/execute.ts';
import { JOB_SCHEMA } from '../../src/db/names.ts';
import { fetchAndClaimOperations } from '../../src/db/queries/operation-fetch.ts';
import { finishOperation, insertOperation } from '../../src/db/queries/operations.ts';
import { OPERATIONS_QUEUE, createJobQueue, executorOf } from '../../src/jobs/queue.ts';
import { createCustomer, startApp } from '../helpers/app.ts';
import { createServer } from '../helpers/servers.ts';

const t = await startApp({ worker: 'off' });
const db = t.database.db;
const c = await createCustomer(t, { deposit: '100.00' });
const queue = createJobQueue(db, { retryLimit: 2, retryDelayS: 1, timeoutS: 60 });
const boss = new PgBoss({ db: executorOf(db), schema: JOB_SCHEMA, supervise: false, schedule: false, migrate: false });
const reads = claimReads();

let n = 0;
async function queuedOp(): Promise<string> {
  n += 1;
  const op = await insertOperation(db, { id: `op_fetch_${n}`, account_id: c.accountId, type: 'server.power', resource_type: 'server', resource_id: `srv_fetch_${n}`, params: {}, detail: 'Queued' });
  await queue.enqueueOperation(db, op.id);
  return op.id;
}

const jobOf = async (opId: string) => (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(`${JOB_SCHEMA}.job`)} WHERE data->>'operation_id' = ${opId}`.execute(db)).rows[0]!;

/** Drains whatever earlier tests left queued, so each test sees only its own jobs. */
async function drain(): Promise<void> {
  while ((await fetchAndClaimOperations(db, OPERATIONS_QUEUE, 100, 30, reads)).length > 0);
}

test('a fetched job is the row pg-boss fetch leaves; its operation is claimed in the same statement', async () => {
  await drain();
  const theirs = await queuedOp();
  await boss.fetch(OPERATIONS_QUEUE, { batchSize: 1 });
  const ours = await queuedOp();
  const [got, ...more] = await fetchAndClaimOperations(db, OPERATIONS_QUEUE, 5, 30, reads);
  assert.equal(more.length, 0);
  assert.equal(got!.operationId, ours);
  const a = await jobOf(theirs);
  const b = await jobOf(ours);
  assert.equal(got!.id, b.id);
  assert.deepEqual([got!.retryCount, got!.retryLimit], [b.retry_count, b.retry_limit]);
  assert.equal(b.state, 'active');
  assert.ok(b.started_on instanceof Date);
  const comparable = (r: Record<string, unknown>) => {
    const { id: _i, data: _d, created_on: _c, started_on: _s, start_after: _a, keep_until: _k, ...rest } = r;
    return rest;
  };
  assert.deepEqual(comparable(b), comparable(a));
  const op = got!.operation!;
  assert.deepEqual([op.id, op.status, op.attempts], [ours, 'running', 1]);
  assert.ok(op.lease_until instanceof Date && op.lease_until.getTime() > Date.now() + 20_000);
  assert.ok(op.created_at instanceof Date);
  assert.equal(got!.loaded, undefined, 'server.power reads nothing as it is claimed');
});

test('a job whose operation finished is fetched with no operation; none is fetched twice; batch size is kept', async () => {
  await drain();
  const ids = [await queuedOp(), await queuedOp(), await queuedOp()];
  await finishOperation(db, ids[1]!, 'failed', 'Failed elsewhere');
  const first = await fetchAndClaimOperations(db, OPERATIONS_QUEUE, 2, 30, reads);
  const second = await fetchAndClaimOperations(db, OPERATIONS_QUEUE, 2, 30, reads);
  assert.deepEqual([first.length, second.length], [2, 1]);
  const all = [...first, ...second];
  assert.deepEqual(all.map((j) => j.operationId).sort(), [...ids].sort());
  assert.equal(all.find((j) => j.operationId === ids[1])!.operation, null);
  assert.equal((await db.selectFrom('operations').select('status').where('id', '=', ids[1]!).executeTakeFirstOrThrow()).status, 'failed');
});

test('a job pg-boss retried comes back with its retry count, as pg-boss fetch counts it', async () => {
  await drain();
  const id = await queuedOp();
  const [got] = await fetchAndClaimOperations(db, OPERATIONS_QUEUE, 1, 30, reads);
  await boss.fail(OPERATIONS_QUEUE, got!.id, { message: 'try again' });
  await sql`UPDATE ${sql.table(`${JOB_SCHEMA}.job`)} SET start_after = now() - interval '1 second' WHERE id = ${got!.id}`.execute(db);
  const [again] = await fetchAndClaimOperations(db, OPERATIONS_QUEUE, 1, 30, reads);
  assert.deepEqual([again!.id, again!.operationId, again!.retryCount], [got!.id, id, 1]);
  assert.equal(again!.operation!.attempts, 2);
});

test('a server create is fetched with its server, as findServerForProvisioning reads it', async () => {
  await drain();
  const server = await createServer(t, c);
  const operation = server.operation;
  const [got] = await fetchAndClaimOperations(db, OPERATIONS_QUEUE, 1, 30, reads);
  assert.equal(got!.operationId, operation.id);
  const loaded = got!.loaded as Record<string, unknown>;
  const row = await db.selectFrom('servers').leftJoin('operating_systems', 'operating_systems.id', 'servers.os_version_id')
    .leftJoin('nodes', 'nodes.id', 'servers.node_id').selectAll('servers').select(['operating_systems.slug as os_slug', 'nodes.name as node_name'])
    .where('servers.id', '=', server.id as string).executeTakeFirstOrThrow();
  for (const [k, v] of Object.entries(loaded)) assert.deepEqual(v, row[k as keyof typeof row], k);
  assert.equal(loaded.status, 'pending');
  assert.ok(loaded.os_slug && loaded.node_name);
  // A deleted server reads as deleted (a Date), a missing one as null.
  await sql`UPDATE servers SET deleted_at = now() WHERE id = ${server.id as string}`.execute(db);
  await sql`UPDATE operations SET status = 'queued' WHERE id = ${operation.id as string}`.execute(db);
  await queue.enqueueOperation(db, operation.id as string);
  const [again] = await fetchAndClaimOperations(db, OPERATIONS_QUEUE, 1, 30, reads);
  assert.ok((again!.loaded as { deleted_at: unknown }).deleted_at instanceof Date);
  await sql`UPDATE operations SET status = 'queued', resource_id = 'srv_gone' WHERE id = ${operation.id as string}`.execute(db);
  await queue.enqueueOperation(db, operation.id as string);
  const [gone] = await fetchAndClaimOperations(db, OPERATIONS_QUEUE, 1, 30, reads);
  assert.equal(gone!.loaded, null);
});

test('a fetch from where the last began passes over older jobs and priorities; one from the head takes them', async () => {
  await drain();
  const old = await queuedOp();
  await sql`UPDATE ${sql.table(`${JOB_SCHEMA}.job`)} SET created_on = now() - interval '1 minute' WHERE data->>'operation_id' = ${old}`.execute(db);
  const urgent = await queuedOp();
  await sql`UPDATE ${sql.table(`${JOB_SCHEMA}.job`)} SET priority = 5 WHERE data->>'operation_id' = ${urgent}`.execute(db);
  const fresh = await queuedOp();
  const from = (await jobOf(fresh)).created_on as Date;
  const bounded = await fetchAndClaimOperations(db, OPERATIONS_QUEUE, 10, 30, reads, from);
  assert.deepEqual(bounded.map((j) => j.operationId), [fresh]);
  assert.equal(bounded[0]!.createdOn.getTime(), from.getTime());
  const head = await fetchAndClaimOperations(db, OPERATIONS_QUEUE, 10, 30, reads);
  assert.deepEqual(head.map((j) => j.operationId).sort(), [old, urgent].sort());
});

test('a fetch from where the last began reads the index from there, not every job taken since the last VACUUM', async () => {
  await drain();
  // 6,000 jobs queued and taken: their entries stay in the queue's index until a VACUUM.
  await sql`INSERT INTO ${sql.table(`${JOB_SCHEMA}.job`)} (name, data)
    SELECT ${OPERATIONS_QUEUE}, jsonb_build_object('operation_id', 'op_taken_' || i) FROM generate_series(1, 6000) i`.execute(db);
  while ((await fetchAndClaimOperations(db, OPERATIONS_QUEUE, 1000, 30, reads)).length > 0);
  const ids = [await queuedOp(), await queuedOp()];
  const from = (await jobOf(ids[0]!)).created_on as Date;
  // The statement's text and values, as sent (a connection that only records them and rolls back).
  const client = new pg.Client(t.databaseUrl);
  await client.connect();
  try {
    const buffers = async (start?: Date) => {
      let sent: { text: string; values: unknown[] } | undefined;
      const recorder = { query: async (text: string, values: unknown[]) => { sent = { text, values }; return { rows: [] }; }, release() {} };
      const recording = new Kysely<never>({ dialect: new PostgresDialect({ pool: { connect: async () => recorder, end: async () => {} } as never }) });
      await fetchAndClaimOperations(recording as never, OPERATIONS_QUEUE, 10, 30, reads, start);
      await client.query('BEGIN');
      try {
        await client.query('SET LOCAL plan_cache_mode = force_generic_plan');
        await client.query(`PREPARE fetch_plan AS ${sent!.text}`);
        const args = sent!.values.map((v) => (v instanceof Date ? `'${v.toISOString()}'` : typeof v === 'number' ? String(v) : `'${String(v)}'`));
        const plan = await client.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) EXECUTE fetch_plan(${args.join(', ')})`);
        const found: number[] = [];
        const walk = (n: { 'Node Type': string; 'Index Name'?: string; 'Shared Hit Blocks': number; 'Shared Read Blocks': number; 'Actual Rows': number; Plans?: never[] }) => {
          if (n['Index Name']?.endsWith('created_on_id_idx')) found.push(n['Shared Hit Blocks'] + n['Shared Read Blocks']);
          (n.Plans ?? []).forEach(walk);
        };
        walk(plan.rows[0]['QUERY PLAN'][0].Plan);
        return found[0]!;
      } finally {
        await client.query('ROLLBACK');
        await client.query('DEALLOCATE ALL');
      }
    };
    const fromHead = await buffers();
    const fromLast = await buffers(from);
    process.stdout.write(`# queue index pages read by a fetch: ${fromHead} from the head, ${fromLast} from where the last began\n`);
    assert.ok(fromLast <= 5, `from where the last began: ${fromLast} index pages read`);
    assert.ok(fromHead > 5 * fromLast, `from the head: ${fromHead} index pages read (the 6,000 taken jobs' entries)`);
  } finally {
    await client.end();
  }
});

test('on the worker\'s generic plans a fetch finds its jobs and operations by key: no sequential scan of the operations ever made or of the queue', async () => {
  await drain();
  // A backlog of thousands (as the bench's worker runs start with), with the statistics of that
  // moment: a fetch's join, planned without the batch size, hashed a sequential scan of the
  // operations and of the queue's partition, and kept that plan as they grew.
  const BACKLOG = 3000;
  await sql`INSERT INTO operations (id, account_id, type, status, resource_type, resource_id, params, detail)
    SELECT 'op_backlog_' || i, ${c.accountId}, 'server.power', 'queued', 'server', 'srv_backlog_' || i, '{}', 'Queued'
    FROM generate_series(1, ${BACKLOG}::int) i`.execute(db);
  await boss.insert(Array.from({ length: BACKLOG }, (_, i) => ({ name: OPERATIONS_QUEUE, data: { operation_id: `op_backlog_${i + 1}` } })));
  await sql`ANALYZE operations, ${sql.table(`${JOB_SCHEMA}.job`)}`.execute(db);
  const worker = new pg.Client({ connectionString: t.databaseUrl, options: '-c plan_cache_mode=force_generic_plan' });
  await worker.connect();
  const wdb = new Kysely<never>({ dialect: new PostgresDialect({ pool: { connect: async () => Object.assign(worker, { release() {} }), end: async () => {} } as never }) });
  try {
    await worker.query('BEGIN');
    let fetched = 0;
    for (let i = 0; i < 6; i++) fetched += (await fetchAndClaimOperations(wdb as never, OPERATIONS_QUEUE, 2, 30, reads)).length;
    const scans = (await worker.query(`SELECT relname, seq_scan FROM pg_stat_xact_user_tables WHERE relname = 'operations' OR relname LIKE 'j%'`)).rows as { relname: string; seq_scan: string }[];
    await worker.query('COMMIT');
    assert.equal(fetched, 12, 'six fetches of two');
    // The counters cover what the fetch touches: the operations and the queue's partitions.
    assert.ok(scans.some((row) => row.relname === 'operations') && scans.filter((row) => row.relname.startsWith('j')).length >= 2, JSON.stringify(scans));
    assert.deepEqual(scans.filter((row) => Number(row.seq_scan) > 0), [], JSON.stringify(scans));
  } finally {
    await worker.end();
    await sql`DELETE FROM ${sql.table(`${JOB_SCHEMA}.job`)} WHERE data->>'operation_id' LIKE 'op_backlog_%'`.execute(db);
    await db.deleteFrom('operations').where('id', 'like', 'op_backlog_%').execute();
  }
});
