// A server create in two round trips, outside any transaction (core/servers/create-request.ts):
// this read of everything the create's rules need, then writeBillableCreate (billable-create.ts).
import { type ExpressionBuilder, sql } from 'kysely';
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres';
import type { Db } from '../connection.ts';
import type { DB, Location, Node, OperatingSystem, Plan } from '../schema.ts';

const NODE_FIELDS = ['id', 'name', 'status', 'cpu_vendor', 'cpu_cores', 'ram_mb', 'storage_gb', 'used_cpu', 'used_ram_mb', 'used_storage_gb', 'endpoint'] as const;
export type PlaceableNode = Pick<Node, (typeof NODE_FIELDS)[number]>;
import { tierDiscountOf } from './reseller.ts';

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

/** Whether a live idempotency record holds the key, as column `key_taken` (false without a key). */
export function keyTaken(eb: ExpressionBuilder<DB, never>, accountId: string, key: string | null) {
  if (key === null) return sql<boolean>`false`.as('key_taken');
  return eb.exists(eb.selectFrom('idempotency_keys').select('key').where('account_id', '=', accountId)
    .where('key', '=', key).where('expires_at', '>', sql<Date>`now()`)).$castTo<boolean>().as('key_taken');
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
    keyTaken(eb, ids.accountId, ids.key),
    jsonArrayFrom(eb.selectFrom('nodes').select(NODE_FIELDS).where('location_id', '=', ids.locationId).where('status', '=', 'active').orderBy('id')).as('nodes'),
    jsonArrayFrom(eb.selectFrom('unit_prices').select(['unit', 'price_cents']).where('unit', 'in', ids.units.length ? ids.units : [''])).as('unit_prices'),
    jsonArrayFrom(eb.selectFrom('ssh_keys').select(['id', 'public_key']).where('account_id', '=', ids.accountId)
      .where('id', 'in', ids.sshKeyIds.length ? ids.sshKeyIds : [-1])).as('ssh_keys'),
  ]).executeTakeFirstOrThrow();
}
