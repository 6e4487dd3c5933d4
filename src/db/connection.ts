import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { AuthWritesPlugin } from './auth-writes.ts';
import { markConnectFailure } from './failures.ts';
import { nameStatements } from './prepared.ts';
import { CompanionGuardPlugin } from './transaction.ts';
import type { DB } from './schema.ts';

// BIGINT (cents, ids) as numbers: exact up to 2^53, far beyond any balance we hold.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));

export type Db = Kysely<DB>;

/** The longest any statement waits for a lock (session setting of every pooled connection). */
export const LOCK_TIMEOUT_MS = 10_000;

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

export interface PoolOptions {
  /** Most connections this process opens. Default 10. */
  max?: number;
  /** How long to wait for a connection (a new one, or a free one of the pool) before failing. Default 5000 ms. */
  connectTimeoutMs?: number;
  /** The server cancels a statement after this long (statement_timeout). Default 30000 ms. */
  statementTimeoutMs?: number;
  /** Send parameterized statements named, so each is planned once per connection (prepared.ts). Default true. */
  preparedStatements?: boolean;
  /**
   * Named statements run on a generic plan from their first execution (plan_cache_mode =
   * force_generic_plan), never planned again. Default false: PostgreSQL's own choice, which kept
   * re-planning the worker's statements and its PL/pgSQL functions' on every run (a third of the
   * database's CPU per server create). Meant for pools whose statements find rows by id — the
   * worker's — not for the API's lists, whose best plan depends on the account and filter.
   */
  genericPlans?: boolean;
}

/**
 * A server too frozen to enforce its own statement_timeout (stopped, swapping, a dead network
 * path that still looks open) would hold a query forever: the client gives up this long after
 * the statement timeout, and the connection is dropped (see guardPool).
 */
export const READ_TIMEOUT_MARGIN_MS = 2_000;

const pools = new WeakMap<Db, pg.Pool>();

/** The pool behind a handle made by connect() (for a connection of its own, e.g. LISTEN). */
export function poolOf(db: Db): pg.Pool | undefined {
  return pools.get(db);
}

export function connect(url: string, opts: PoolOptions = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    // A database that hangs must not hang requests: fail fast, answer 503, let the client retry.
    connectionTimeoutMillis: opts.connectTimeoutMs ?? 5_000,
    statement_timeout: opts.statementTimeoutMs ?? 30_000,
    query_timeout: (opts.statementTimeoutMs ?? 30_000) + READ_TIMEOUT_MARGIN_MS,
    // A wait for a row or key lock longer than this is contention the client should retry (503);
    // it also bounds how long a duplicate Idempotency-Key request waits for the first (then 409).
    lock_timeout: LOCK_TIMEOUT_MS,
    idle_in_transaction_session_timeout: 60_000,
    ...(opts.genericPlans ? { options: '-c plan_cache_mode=force_generic_plan' } : {}),
  });
  // Named first, so that guardPool's read timeout wraps the naming and sees its promise.
  if (opts.preparedStatements ?? true) pool.on('connect', (client) => nameStatements(client));
  guardPool(pool);
  // Every failure to get a connection is tagged, so it answers 503 whatever the server said
  // (55000 "not accepting connections", 3D000, 28P01 …; see failures.ts).
  const connecting = {
    connect: () => pool.connect().catch((e: unknown) => { throw markConnectFailure(e); }),
    end: () => pool.end(),
  };
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool: connecting }), plugins: [new AuthWritesPlugin(), new CompanionGuardPlugin()] });
  pools.set(db, pool);
  let closed = false;
  return {
    db,
    pool,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}

/**
 * A pg.Client whose server goes away (pg_terminate_backend, a restart, a failover,
 * idle_in_transaction_session_timeout) emits 'error'; with no listener that ends the process.
 * pg-pool listens only while a client is idle in the pool, not while it is checked out, so every
 * client gets its own listener the moment it is made. The broken client is then dropped by the
 * pool when released (it is no longer queryable), and the query that was running on it rejects
 * on its own, reaching the caller as 503.
 */
export function guardPool(pool: pg.Pool): void {
  pool.on('error', ignore);
  pool.on('connect', (client) => {
    client.on('error', ignore);
    dropOnReadTimeout(client);
  });
}

function ignore(): void {}

/** read_only_sql_transaction: a write on a standby. */
const READ_ONLY = '25006';

/**
 * After a client-side query timeout, pg leaves the query active on the connection: every later
 * query on it would wait behind the stuck one. The connection is cut instead, so the pool drops it
 * (no longer queryable) and the next request gets a fresh one. So is a connection whose write was
 * refused as read-only (25006): it reached a standby (a demoted primary, a proxy routing to it a
 * moment too long) and would refuse every write it is given; a new one reaches the primary.
 */
function dropOnReadTimeout(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const result = query(...args);
    if (result instanceof Promise) {
      result.catch((e: unknown) => {
        // end() marks the client as ending at once (the pool drops it on release) and, with a
        // query still active, destroys the socket rather than waiting for the server.
        if ((e instanceof Error && e.message === 'Query read timeout') || pgCode(e) === READ_ONLY) (client as unknown as pg.Client).end().catch(ignore);
      });
    }
    return result;
  };
}

/** PostgreSQL error code of a failed query, if it was one. */
export function pgCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string' ? e.code : undefined;
}

export function pgConstraint(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'constraint' in e && typeof e.constraint === 'string' ? e.constraint : undefined;
}
