// A billable create in one statement, outside any transaction: the idempotency record with its
// answer, the resource, the charge, the operation and its job (core/servers/create-request.ts,
// core/domains/register-request.ts). The statement is atomic on its own; its checks raise HC002
// (hc_abort, migration 0019), so a failed one leaves no row behind and needs no BEGIN or COMMIT.
import { type Insertable, sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { DomainsTable } from '../schema.ts';
import { type RecordOutcome, outcomeCode } from './idempotency.ts';
import { type OperationJobRow, insertOperationJob } from './jobs.ts';
import type { NewOperationRow } from './operations.ts';
import type { NewServerRow } from './servers.ts';
import { type MachineReservation, reserveMachineStatement } from './machine-reservation.ts';

export interface BillableCreateWrite {
  /** With an Idempotency-Key: the finished record (its answer is known before the write). */
  record?: { key: string; requestHash: string; expiresAt: Date; outcome: RecordOutcome; response: unknown };
  /** The resource, pending; a server names the node it is placed on (locked first, must be active). */
  resource: { table: 'servers'; row: NewServerRow & { node_id: number } } | { table: 'domains'; row: Insertable<DomainsTable> };
  charge: { accountId: string; cents: number; description: string };
  operation: NewOperationRow & { created_at: Date; updated_at: Date };
  job: OperationJobRow;
  /** A server's machine record and addresses (hc_reserve_machine); a short pool raises HC001. */
  machine?: MachineReservation;
}

export interface BillableCreateWritten {
  transactionId: number;
  balanceAfterCents: number;
}

/**
 * Writes, in one statement and in this order (the lock order of the transaction path: key, node,
 * account): the idempotency record, the resource (a server's trigger holds its size on its node),
 * the charge's ledger row (applied to the balance by its trigger; inserted only if the balance
 * covers it), the operation and its pg-boss job. Raises HC002 naming the first check that failed
 * — the key already taken, the node no longer active, the balance short — and then nothing is
 * written; a unique index (a host name, a domain name) or a node's capacity raise their own.
 */
export async function writeBillableCreate(db: Db, w: BillableCreateWrite): Promise<BillableCreateWritten> {
  const r = w.record;
  const claim = r === undefined ? sql`SELECT true AS claimed` : sql`${db.insertInto('idempotency_keys')
    .values({ account_id: w.charge.accountId, key: r.key, request_hash: r.requestHash, expires_at: r.expiresAt, status_code: outcomeCode(r.outcome), response: JSON.stringify(r.response) })
    .onConflict((oc) => oc.columns(['account_id', 'key']).doUpdateSet({
      request_hash: r.requestHash, status_code: outcomeCode(r.outcome), response: JSON.stringify(r.response), expires_at: r.expiresAt,
    }).where('idempotency_keys.expires_at', '<=', sql<Date>`now()`))
    .returning(sql<boolean>`true`.as('claimed'))}`;
  const node = w.resource.table === 'servers'
    ? sql`SELECT id FROM nodes WHERE id = ${w.resource.row.node_id} AND status = 'active' FOR NO KEY UPDATE`
    : sql`SELECT true AS unplaced`;
  const resource = w.resource.table === 'servers'
    ? db.insertInto('servers').values(w.resource.row).returning('id')
    : db.insertInto('domains').values(w.resource.row).returning('id');
  const { rows } = await sql<{ transaction_id: number; balance_after_cents: string }>`
    WITH claim AS (${claim}),
    node AS (${node}),
    res AS (${resource}),
    ledger AS (
      INSERT INTO transactions (account_id, type, amount_cents, description)
      SELECT ${w.charge.accountId}, 'withdraw', ${w.charge.cents}::bigint, ${w.charge.description}
       WHERE (SELECT balance_cents FROM accounts WHERE id = ${w.charge.accountId} FOR NO KEY UPDATE) >= ${w.charge.cents}::bigint
      RETURNING id, balance_after_cents),
    machine AS (${w.machine ? reserveMachineStatement(w.machine) : sql`SELECT 'none' AS id`}),
    op AS (${db.insertInto('operations').values({ ...w.operation, params: JSON.stringify(w.operation.params) }).returning('id')}),
    job AS (${insertOperationJob(w.job)})
    SELECT hc_abort(CASE
             WHEN NOT EXISTS (SELECT 1 FROM claim) THEN 'idempotency key taken'
             WHEN NOT EXISTS (SELECT 1 FROM node) THEN 'node not active'
             WHEN NOT EXISTS (SELECT 1 FROM machine) THEN 'addresses not reserved'
             WHEN NOT EXISTS (SELECT 1 FROM res) THEN 'resource not written'
             WHEN NOT EXISTS (SELECT 1 FROM ledger) THEN 'balance short'
             WHEN NOT EXISTS (SELECT 1 FROM op) THEN 'operation not written'
             WHEN NOT EXISTS (SELECT 1 FROM job) THEN 'queue missing'
           END),
           (SELECT id FROM ledger) AS transaction_id,
           (SELECT balance_after_cents FROM ledger) AS balance_after_cents`.execute(db);
  const row = rows[0]!;
  return { transactionId: Number(row.transaction_id), balanceAfterCents: Number(row.balance_after_cents) };
}
