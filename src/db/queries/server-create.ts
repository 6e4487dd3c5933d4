// A server create in two round trips, outside any transaction (core/servers/create-request.ts):
// one read of everything the create's rules need, then one statement writing everything that
// commits together. Either statement is atomic on its own; the write's checks raise HC002
// (hc_abort, migration 0019) so that a failed one leaves no row behind.
import { sql } from 'kysely';
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres';
import type { OperationJob } from '../../core/context.ts';
import type { Db } from '../connection.ts';
import type { Location, Node, OperatingSystem, Plan } from '../schema.ts';

const NODE_FIELDS = ['id', 'status', 'cpu_vendor', 'cpu_cores', 'ram_mb', 'storage_gb', 'used_cpu', 'used_ram_mb', 'used_storage_gb'] as const;
export type PlaceableNode = Pick<Node, (typeof NODE_FIELDS)[number]>;
import { insertOperationJob } from './jobs.ts';
import type { NewOperationRow } from './operations.ts';
import { tierDiscountOf } from './reseller.ts';
import type { NewServerRow } from './servers.ts';

export interface ServerCreateBasis {
  plan: Plan | null;
  location: Location | null;
  os: OperatingSystem | null;
  /** The account's reseller tier discount (percentage text), null when none. */
  tier_discount: string | null;
  /** Whether a live idempotency record holds the key (it replays, or conflicts). */
  key_taken: boolean;
  /** The location's active nodes, unlocked (the write locks the one picked). */
  nodes: PlaceableNode[];
  unit_prices: { unit: string; price_cents: number }[];
  ssh_keys: { id: number; public_key: string }[];
}

export interface BasisIds {
  accountId: string;
  planId: number | null;
  locationId: number;
  osVersionId: number | null;
  key: string | null;
  units: string[];
  sshKeyIds: number[];
}

/** Everything a create's rules read, in one statement. */
export function readServerCreateBasis(db: Db, ids: BasisIds): Promise<ServerCreateBasis> {
  // Every column read here is JSON-safe (no dates), so the rows come back as typed.
  return db.selectNoFrom((eb) => [
    jsonObjectFrom(eb.selectFrom('plans').selectAll().where('id', '=', ids.planId ?? -1)).as('plan'),
    jsonObjectFrom(eb.selectFrom('locations').selectAll().where('id', '=', ids.locationId)).as('location'),
    jsonObjectFrom(eb.selectFrom('operating_systems').selectAll().where('id', '=', ids.osVersionId ?? -1)).as('os'),
    tierDiscountOf(sql.val(ids.accountId)).as('tier_discount'),
    (ids.key === null ? sql<boolean>`false` : eb.exists(eb.selectFrom('idempotency_keys').select('key').where('account_id', '=', ids.accountId)
      .where('key', '=', ids.key).where('expires_at', '>', sql<Date>`now()`)).$castTo<boolean>()).as('key_taken'),
    jsonArrayFrom(eb.selectFrom('nodes').select(NODE_FIELDS).where('location_id', '=', ids.locationId).where('status', '=', 'active').orderBy('id')).as('nodes'),
    jsonArrayFrom(eb.selectFrom('unit_prices').select(['unit', 'price_cents']).where('unit', 'in', ids.units.length ? ids.units : [''])).as('unit_prices'),
    jsonArrayFrom(eb.selectFrom('ssh_keys').select(['id', 'public_key']).where('account_id', '=', ids.accountId)
      .where('id', 'in', ids.sshKeyIds.length ? ids.sshKeyIds : [-1])).as('ssh_keys'),
  ]).executeTakeFirstOrThrow();
}

export interface ServerCreateWrite {
  /** With an Idempotency-Key: the finished record (its answer is known before the write). */
  record?: { key: string; requestHash: string; expiresAt: Date; status: number; response: unknown };
  server: NewServerRow & { node_id: number };
  charge: { accountId: string; cents: number; description: string };
  operation: NewOperationRow & { created_at: Date; updated_at: Date };
  job: OperationJob;
}

export interface ServerCreateWritten {
  transactionId: number;
  balanceAfterCents: number;
}

/**
 * Writes, in one statement and in this order (the lock order of the transaction path: key, node,
 * account): the idempotency record, the server (its trigger holds its size on the node), the
 * charge's ledger row (applied to the balance by its trigger; inserted only if the balance covers
 * it), the operation and its pg-boss job. Raises HC002 naming the first check that failed — the
 * key already taken, the node no longer active, the balance short — and then nothing is written.
 */
export async function writeServerCreate(db: Db, w: ServerCreateWrite): Promise<ServerCreateWritten> {
  const r = w.record;
  const claim = r === undefined ? sql`SELECT true AS claimed` : sql`${db.insertInto('idempotency_keys')
    .values({ account_id: w.charge.accountId, key: r.key, request_hash: r.requestHash, expires_at: r.expiresAt, status_code: r.status, response: JSON.stringify(r.response) })
    .onConflict((oc) => oc.columns(['account_id', 'key']).doUpdateSet({
      request_hash: r.requestHash, status_code: r.status, response: JSON.stringify(r.response), expires_at: r.expiresAt,
    }).where('idempotency_keys.expires_at', '<=', sql<Date>`now()`))
    .returning(sql<boolean>`true`.as('claimed'))}`;
  const { rows } = await sql<{ transaction_id: number; balance_after_cents: string }>`
    WITH claim AS (${claim}),
    node AS (SELECT id FROM nodes WHERE id = ${w.server.node_id} AND status = 'active' FOR NO KEY UPDATE),
    srv AS (${db.insertInto('servers').values(w.server).returning('id')}),
    ledger AS (
      INSERT INTO transactions (account_id, type, amount_cents, description)
      SELECT ${w.charge.accountId}, 'withdraw', ${w.charge.cents}::bigint, ${w.charge.description}
       WHERE (SELECT balance_cents FROM accounts WHERE id = ${w.charge.accountId} FOR NO KEY UPDATE) >= ${w.charge.cents}::bigint
      RETURNING id, balance_after_cents),
    op AS (${db.insertInto('operations').values({ ...w.operation, params: JSON.stringify(w.operation.params) }).returning('id')}),
    job AS (${insertOperationJob(w.job)})
    SELECT hc_abort(CASE
             WHEN NOT EXISTS (SELECT 1 FROM claim) THEN 'idempotency key taken'
             WHEN NOT EXISTS (SELECT 1 FROM node) THEN 'node not active'
             WHEN NOT EXISTS (SELECT 1 FROM srv) THEN 'server not written'
             WHEN NOT EXISTS (SELECT 1 FROM ledger) THEN 'balance short'
             WHEN NOT EXISTS (SELECT 1 FROM op) THEN 'operation not written'
             WHEN NOT EXISTS (SELECT 1 FROM job) THEN 'queue missing'
           END),
           (SELECT id FROM ledger) AS transaction_id,
           (SELECT balance_after_cents FROM ledger) AS balance_after_cents`.execute(db);
  const row = rows[0]!;
  return { transactionId: Number(row.transaction_id), balanceAfterCents: Number(row.balance_after_cents) };
}
