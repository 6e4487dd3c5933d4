// Named (prepared) statements: PostgreSQL plans an unnamed statement again on every execution,
// and for the API's wider queries (a server detail with its joins and subqueries, a create's
// statements) planning cost more than running them — about 1 ms of the database's CPU per detail
// read. A statement sent with a name is parsed and planned once per connection and then only
// bound and executed (after five runs PostgreSQL may keep a generic plan).
//
// Hazards, and what is done about them:
// - A migration applied while this process runs (a rolling upgrade) can change what `SELECT *`
//   returns: PostgreSQL then refuses the old statement ("cached plan must not change result
//   type", 0A000). That statement is never named again on that connection; outside a transaction
//   the query is sent again unnamed at once, inside one the transaction fails as transient
//   contention (503 with Retry-After; failures.ts) and the client's retry succeeds.
// - Each prepared statement holds memory in its server process: at most MAX_PER_CONNECTION per
//   connection; statements past that run unnamed.
// - Transaction-mode poolers before PgBouncer 1.21 cannot carry named statements:
//   DATABASE_PREPARED_STATEMENTS=false turns them off.
import { createHash } from 'node:crypto';
import pg from 'pg';

/** Distinct statements one connection prepares at most; later ones run unnamed. */
export const MAX_PER_CONNECTION = 250;
/** Distinct statement texts whose names are remembered (hashing is skipped for these). */
const MAX_NAMES = 5_000;

const names = new Map<string, string>();

function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    if (names.size >= MAX_NAMES) names.clear();
    name = `hc_${createHash('sha1').update(text).digest('base64url')}`;
    names.set(text, name);
  }
  return name;
}

/** The refusal of a prepared statement whose result type a schema change altered. */
export function isStalePlan(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === '0A000'
    && /cached plan must not change result type/.test(String((e as { message?: unknown }).message));
}

type Query = (...args: unknown[]) => unknown;

/**
 * A named statement sent as a Query made from its text: given a config object ({ name, text,
 * values }), pg copies it through its property descriptors, ~1.4 µs per statement on the hot path.
 * pg answers a Query it is handed through the Query's callback, not with a promise.
 */
function send(query: Query, name: string, text: string, values: unknown[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const q = new pg.Query(text, values, (err: Error | undefined, res: unknown) => (err ? reject(err) : resolve(res)));
    // Not in pg's types, but what makes pg parse the statement once per connection.
    (q as unknown as { name: string }).name = name;
    query(q);
  });
}

/**
 * Sends the client's parameterized statements (text + values, as Kysely does) named. Statements
 * without parameters (BEGIN, COMMIT, LISTEN, DDL) are sent as they are.
 */
export function nameStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as Query;
  const prepared = new Set<string>();
  const stale = new Set<string>();
  let inTransaction = false;
  (client as unknown as { query: Query }).query = (...args: unknown[]) => {
    const [text, values] = args;
    const parameterized = typeof text === 'string' && Array.isArray(values) && values.length > 0 && args.length === 2;
    if (!parameterized) {
      // Kysely opens and ends its transactions with plain statements on the same client.
      if (typeof text === 'string') {
        if (/^\s*(begin|start transaction)\b/i.test(text)) inTransaction = true;
        else if (/^\s*(commit|rollback|end)\s*;?\s*$/i.test(text)) inTransaction = false;
      }
      return query(...args);
    }
    const name = nameOf(text as string);
    if (stale.has(name) || (!prepared.has(name) && prepared.size >= MAX_PER_CONNECTION)) return query(text, values);
    prepared.add(name);
    const sentInTransaction = inTransaction;
    return send(query, name, text as string, values as unknown[]).catch((e: unknown) => {
      if (!isStalePlan(e)) throw e;
      stale.add(name);
      if (sentInTransaction) throw e;
      return query(text, values);
    });
  };
}
