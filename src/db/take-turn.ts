// Writers that must see each other's rows (an overlap checked before an insert) take turns under a
// transaction-scoped advisory lock. Their turn must not be refused for how long it was waited for:
// the connections' lock_timeout (LOCK_TIMEOUT_MS) is there to turn contention on a *row* into a
// 503 the client retries, but a queue of turns on a busy machine is no contention — thirty adds at
// once each wait for the ones before, and under a load of 30 the last waited more than 10 s and was
// answered "busy" where the answer is "overlaps" (test/admin/provider.test.ts). So the turn waits
// without a lock timeout, for as long as the statement may run (statement_timeout, 30 s), and
// lock_timeout applies again to the transaction's other statements.
import { sql } from 'kysely';
import { type Db, LOCK_TIMEOUT_MS } from './connection.ts';

/** Waits for this transaction's turn at `key` (held until it ends); `trx` must be a transaction. */
export async function takeTurn(trx: Db, key: string): Promise<void> {
  await sql`SET LOCAL lock_timeout = 0`.execute(trx);
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
  await sql.raw(`SET LOCAL lock_timeout = ${LOCK_TIMEOUT_MS}`).execute(trx);
}
