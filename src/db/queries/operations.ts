import { type Insertable, type RawBuilder, sql } from 'kysely';
import type { Db } from '../connection.ts';
import { JOB_SCHEMA } from '../names.ts';
import type { Operation, OperationsTable, OperationStatus } from '../schema.ts';

/** Unfinished, as the unique index operations_one_active_per_resource has it (literals, so its partial index serves). */
const UNFINISHED = sql<boolean>`o.status IN ('queued', 'running')`;

/** What a start writes: the params as an object (insertOperation stores them as JSON). */
export type NewOperationRow = Required<Pick<Insertable<OperationsTable>, 'id' | 'account_id' | 'type' | 'resource_type' | 'resource_id' | 'detail'>> & Pick<Operation, 'params'>;

/**
 * Records an operation, queued — or, with `leaseS`, already running under a lease its creator
 * renews (work a request does itself; the worker takes over if the lease lapses).
 */
export function insertOperation(db: Db, row: NewOperationRow, leaseS?: number): Promise<Operation> {
  const held = leaseS === undefined ? {} : { status: 'running' as const, lease_until: sql<Date>`now() + make_interval(secs => ${leaseS})` };
  return db.insertInto('operations').values({ ...row, params: JSON.stringify(row.params), ...held }).returningAll().executeTakeFirstOrThrow();
}

/**
 * insertOperation, unless another operation on the same resource is unfinished (the unique index
 * operations_one_active_per_resource): then nothing is written and undefined comes back. The
 * statement does not fail, so the caller's transaction stays usable and can ask, on its own
 * connection, which operation is in the way.
 *
 * An unfinished operation the statement's snapshot sees is skipped by the NOT EXISTS alone, without
 * touching the index: the index would wait for a transaction that is finishing that operation
 * (the worker's completion, which then updates the resource's row) while the caller holds that
 * row's lock — a deadlock. ON CONFLICT settles a concurrent insert, which the index waits for.
 * The index's predicate is written as literals: PostgreSQL infers a partial unique index for ON
 * CONFLICT only from a predicate it can prove implies the index's, which parameters are not.
 */
export async function insertOperationUnlessBusy(db: Db, row: NewOperationRow, leaseS?: number): Promise<Operation | undefined> {
  const status = leaseS === undefined ? sql`'queued'` : sql`'running'`;
  const lease = leaseS === undefined ? sql`NULL::timestamptz` : sql`now() + make_interval(secs => ${leaseS})`;
  const { rows } = await sql<Operation>`
    INSERT INTO operations (id, account_id, type, resource_type, resource_id, params, detail, status, lease_until)
    SELECT ${row.id}, ${row.account_id}, ${row.type}, ${row.resource_type}, ${row.resource_id}, ${JSON.stringify(row.params)}::jsonb, ${row.detail}, ${status}, ${lease}
     WHERE NOT EXISTS (SELECT 1 FROM operations o WHERE o.resource_type = ${row.resource_type} AND o.resource_id = ${row.resource_id} AND ${UNFINISHED})
    ON CONFLICT (resource_type, resource_id) WHERE status IN ('queued', 'running') DO NOTHING
    RETURNING *`.execute(db);
  return rows[0];
}

export function findOperation(db: Db, id: string): Promise<Operation | undefined> {
  return db.selectFrom('operations').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findAccountOperation(db: Db, accountId: string, id: string): Promise<Operation | undefined> {
  return db.selectFrom('operations').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
}

/** Takes an unfinished operation for a run (again, after a lost worker); undefined when finished. */
export function claimOperation(db: Db, id: string, leaseS: number): Promise<Operation | undefined> {
  return db.updateTable('operations')
    .set({ status: 'running', attempts: sql`attempts + 1`, lease_until: sql`now() + make_interval(secs => ${leaseS})`, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .returningAll()
    .executeTakeFirst();
}

/** claimOperation for many at once (a worker's fetched batch): the operations taken, in any order. */
export function claimOperations(db: Db, ids: string[], leaseS: number): Promise<Operation[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.updateTable('operations')
    .set({ status: 'running', attempts: sql`attempts + 1`, lease_until: sql`now() + make_interval(secs => ${leaseS})`, updated_at: new Date() })
    .where('id', '=', sql<string>`ANY(${ids}::text[])`)
    .where('status', 'in', ['queued', 'running'])
    .returningAll()
    .execute();
}

/**
 * A change made by the statement that completes operations (completeOperations), in the same
 * implicit transaction: top-level CTEs whose names start with `name`, which read `completed` (the
 * ids that statement completed) so as to change only what belongs to those.
 */
export type CompletionChange = (name: string) => RawBuilder<unknown>;

/**
 * finishOperation(…, 'completed', …) for many in one statement: the ids it completed (those still
 * unfinished; each row locked until the transaction ends), and `changes` made for those.
 */
export async function completeOperations(db: Db, done: { id: string; detail: string }[], changes: CompletionChange[] = []): Promise<Set<string>> {
  if (done.length === 0) return new Set();
  const now = new Date();
  const more = changes.length === 0 ? sql`` : sql`, ${sql.join(changes.map((c, i) => c(`change${i}`)), sql`, `)}`;
  // The rows are locked first, in id order, so two batches that share an operation (a duplicate
  // run) cannot deadlock on it; the update's join order would not guarantee any.
  const r = await sql<{ id: string }>`
    WITH v AS (SELECT * FROM unnest(${done.map((d) => d.id)}::text[], ${done.map((d) => d.detail)}::text[]) AS v(id, detail)),
         locked AS (SELECT o.id FROM operations o WHERE o.id IN (SELECT id FROM v) AND o.status IN ('queued', 'running') ORDER BY o.id FOR UPDATE),
         completed AS (
           UPDATE operations o
           SET status = 'completed', detail = v.detail, progress_pct = 100, finished_at = ${now}, updated_at = ${now}, lease_until = NULL,
               params = o.params - 'password'
           FROM locked JOIN v ON v.id = locked.id
           WHERE o.id = locked.id
           RETURNING o.id)${more}
    SELECT id FROM completed`.execute(db);
  return new Set(r.rows.map((row) => row.id));
}

/** Writes a running operation's progress; true when the operator has asked it to stop (admin cancel). */
export async function setOperationProgress(db: Db, id: string, pct: number, detail: string): Promise<boolean> {
  const row = await db.updateTable('operations')
    .set({ progress_pct: pct, detail, updated_at: new Date() })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .returning('cancel_requested_at')
    .executeTakeFirst();
  return row?.cancel_requested_at != null;
}

/**
 * A failed attempt that will be retried: its error and detail noted, and its lease dropped. The
 * job now waits for its retry delay (which may outlast OPERATION_LEASE_S): the operation is not
 * lost meanwhile, and the lost-operation sweep (takeExpiredLeases) must not queue it again.
 */
export async function noteOperationError(db: Db, id: string, error: string, detail: string): Promise<void> {
  await db.updateTable('operations').set({ last_error: error, detail, lease_until: null, updated_at: new Date() })
    .where('id', '=', id).where('status', '=', 'running').execute();
}

/** Finishes an unfinished operation; false when it had already finished (a late duplicate run). */
export async function finishOperation(db: Db, id: string, status: Extract<OperationStatus, 'completed' | 'failed'>, detail: string, lastError?: string): Promise<boolean> {
  const now = new Date();
  const res = await db.updateTable('operations')
    // The password a create or reset carried is not kept once the work is done.
    .set({
      status, detail, progress_pct: status === 'completed' ? 100 : sql`progress_pct`, finished_at: now, updated_at: now, lease_until: null, params: sql`params - 'password'`,
      ...(lastError === undefined ? {} : { last_error: lastError }),
    })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

/** Locks the operation row for the rest of the transaction (finishing runs are serialised). */
export function lockOperation(db: Db, id: string): Promise<Operation | undefined> {
  return db.selectFrom('operations').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** The unfinished operation on a resource, if any (state checks before synchronous work). */
export function findUnfinishedOperation(db: Db, resourceType: string, resourceId: string): Promise<Operation | undefined> {
  return db.selectFrom('operations').selectAll()
    .where('resource_type', '=', resourceType).where('resource_id', '=', resourceId)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
}

/** The running worker's sign of life. */
export async function renewLease(db: Db, id: string, leaseS: number): Promise<void> {
  // A dropped lease (a failed attempt waiting for its retry, or one the sweep took) is not renewed
  // by a renewal that was already on its way; nor is a lease that covers a wait shortened by one
  // (deferOperationJob).
  await db.updateTable('operations').set({ lease_until: sql`greatest(lease_until, now() + make_interval(secs => ${leaseS}))` })
    .where('id', '=', id).where('status', '=', 'running').where('lease_until', 'is not', null).execute();
}

/** Running operations whose worker stopped renewing, released (lease cleared) for a new run. */
export async function takeExpiredLeases(db: Db): Promise<string[]> {
  const rows = await db.updateTable('operations').set({ lease_until: null, detail: 'Its run was interrupted (a worker or request stopped); queued again' })
    .where('status', '=', 'running').where('lease_until', '<', sql<Date>`now()`)
    .returning('id').execute();
  return rows.map((r) => r.id);
}

/** The operations queue of migration 0002 (OPERATIONS_QUEUE in src/jobs/queue.ts). */
const OPERATIONS_JOBS = 'operations';

/**
 * Jobs a worker fetched but never started: the job is `active` in the queue since longer than
 * `olderThanS`, yet its operation is still `queued` (a worker claims the operation the moment it
 * has the job). The fetch's answer was lost — the connection died after the server committed it —
 * so no one will ever run it before the queue's own timeout (JOB_TIMEOUT_S). Cancels those jobs
 * (skipping any another sweeper holds) and returns their operations, to be queued again in the
 * same transaction.
 */
export async function cancelUnclaimedJobs(db: Db, olderThanS: number): Promise<string[]> {
  const job = sql.table(`${JOB_SCHEMA}.job`);
  const res = await sql<{ operation_id: string }>`
    WITH lost AS (
      SELECT j.id FROM ${job} j
      JOIN operations o ON o.id = j.data->>'operation_id'
      WHERE j.name = ${OPERATIONS_JOBS} AND j.state = 'active'
        AND j.started_on < now() - make_interval(secs => ${olderThanS})
        AND o.status = 'queued'
      FOR UPDATE OF j SKIP LOCKED
    )
    UPDATE ${job} j SET state = 'cancelled', completed_on = now()
    FROM lost WHERE j.name = ${OPERATIONS_JOBS} AND j.id = lost.id
    RETURNING j.data->>'operation_id' AS operation_id`.execute(db);
  return res.rows.map((r) => r.operation_id);
}
