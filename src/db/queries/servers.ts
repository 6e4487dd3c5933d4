import { type RawBuilder, sql } from 'kysely';
import { jsonObjectFrom } from 'kysely/helpers/postgres';
import type { Db } from '../connection.ts';
import type { CompletionChange } from './operations.ts';
import { tierDiscountOf } from './reseller.ts';
import { type Precompiled, precompile } from '../precompiled.ts';
import type { Insertable } from 'kysely';
import type { Server, ServerIp, ServersTable, ServerNetwork, PowerState, ServerStatus } from '../schema.ts';

export type NewServerRow = Insertable<ServersTable>;

export function insertServer(db: Db, row: NewServerRow): Promise<Server> {
  return db.insertInto('servers').values(row).returningAll().executeTakeFirstOrThrow();
}

/**
 * The server row found by its primary key alone, in a subquery the planner keeps apart (OFFSET 0);
 * the account and `deleted_at IS NULL` are checked around it. Given all three at once, PostgreSQL
 * costs the account's partial list index (account_id, status, created_at, id) WHERE deleted_at IS
 * NULL the same as the primary key, picks it, and walks every entry of the account to find the id:
 * with 10,000 servers in an account, ~200 pages per read instead of 4.
 */
const serverById = (db: Db, id: string) => db.selectFrom('servers').selectAll().where('id', '=', id).offset(0).as('servers');

/** A live (not deleted) server of the account. */
export function findAccountServer(db: Db, accountId: string, id: string): Promise<Server | undefined> {
  return db.selectFrom(serverById(db, id)).selectAll()
    .where('account_id', '=', accountId).where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/**
 * Same, locked for the rest of the transaction (state checks that lead to a write). The lock is
 * taken inside the subquery, before the account is checked: another account's id locks that row
 * for as long as this (then failing, 404) transaction lasts, and is never returned.
 */
export function lockAccountServer(db: Db, accountId: string, id: string): Promise<Server | undefined> {
  return db.selectFrom(serverById(db, id)).selectAll()
    .where('account_id', '=', accountId).where('deleted_at', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

export function findServerById(db: Db, id: string): Promise<Server | undefined> {
  return db.selectFrom('servers').selectAll().where('id', '=', id).executeTakeFirst();
}

export type ProvisioningServer = Server & { os_slug: string | null; node_name: string | null };

const provisioningServers = (db: Db) => db.selectFrom('servers')
  .leftJoin('operating_systems', 'operating_systems.id', 'servers.os_version_id')
  .leftJoin('nodes', 'nodes.id', 'servers.node_id')
  .selectAll('servers')
  .select(['operating_systems.slug as os_slug', 'nodes.name as node_name']);

/** A server with its OS slug and its node's host name, as provisioning needs them, in one round trip. */
export function findServerForProvisioning(db: Db, id: string): Promise<ProvisioningServer | undefined> {
  return provisioningServers(db).where('servers.id', '=', id).executeTakeFirst();
}

/**
 * What a list item shows (v2's and v1's), and no more: the whole row would have every row's five
 * instants and its network JSON parsed, where an item shows one instant and one address.
 */
export type ServerListRow = Pick<Server, 'id' | 'name' | 'status' | 'power_state' | 'cpu_cores' | 'ram_mb' | 'storage_gb'
  | 'plan_id' | 'price_cents' | 'cycle' | 'next_billing_at' | 'location_id' | 'provider_ref'> & {
  plan_name: string | null;
  /** v1's `ip_address`. */
  ipv4_address: string | null;
};

/**
 * One page and the total in one round trip. The total is counted once (the CTE `n`); the page's
 * ids then come from the (account, newest) index (alone, but for v1's power-state filters),
 * walked from whichever end is nearer: a page in the older half is read oldest-first and put back
 * in order, so the last page skips no more index entries than the first, and the middle page
 * skips the most (half). Both walks are planned; a one-time filter on each, a condition on the
 * count's value, lets the executor run only one. Only the page's own rows are then read. A page
 * past the end has no row to carry the total: count separately (a second statement).
 */
export async function listServersPage(
  db: Db, accountId: string, status: ServerStatus | undefined, limit: number, offset: number,
  /** v1's `stopped` is an active server powered off; its `active`, one that is not. */
  stopped?: boolean,
): Promise<{ rows: ServerListRow[]; total: number }> {
  // Precompiled (precompiled.ts), one statement per shape of filter: six at most.
  const shape = `${status === undefined ? '' : 'status'}/${stopped ?? ''}`;
  let statement = listPageStatements.get(shape);
  if (!statement) {
    statement = precompile((handle: Db, p: ListSlots) => listPageQuery(handle, p, status !== undefined, stopped));
    listPageStatements.set(shape, statement);
  }
  const rows = await statement.execute(db, { accountId, status: status ?? '', limit, offset });
  if (rows.length > 0) {
    return { rows: rows.map(({ total: _, ...row }) => row), total: rows[0]!.total ?? 0 };
  }
  const count = await liveServers(db, { accountId, status: status ?? '' }, status !== undefined, stopped)
    .select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  return { rows: [], total: count.n };
}

interface ListSlots { accountId: string; status: string; limit: number; offset: number; [slot: string]: string | number }
const listPageStatements = new Map<string, Precompiled<ListSlots, ServerListRow & { total: number }>>();

function liveServers(db: Db, p: { accountId: string; status: string }, byStatus: boolean, stopped: boolean | undefined) {
  let live = db.selectFrom('servers').where('servers.account_id', '=', p.accountId).where('servers.deleted_at', 'is', null);
  if (byStatus) live = live.where('servers.status', '=', p.status as ServerStatus);
  if (stopped !== undefined) live = live.where('servers.power_state', stopped ? '=' : '<>', 'stopped');
  return live;
}

function listPageQuery(db: Db, p: ListSlots, byStatus: boolean, stopped: boolean | undefined) {
  const live = liveServers(db, p, byStatus, stopped);
  const total = sql<number>`(select total from n)`;
  const lim = sql<number>`${p.limit}::int`;
  const off = sql<number>`${p.offset}::int`;
  // Newest-first skips `offset` entries; oldest-first skips `total - offset - limit`. Doubled in
  // bigint: the largest offset the API allows (~10⁹) doubled is near int's bound.
  const fromNewest = sql<boolean>`2 * ${off}::bigint + ${lim} <= ${total}`;
  const newestFirst = live.select(['servers.id']).where(fromNewest)
    .orderBy('servers.created_at', 'desc').orderBy('servers.id', 'desc').limit(lim).offset(off);
  const oldestFirst = live.select(['servers.id']).where(sql<boolean>`not (${fromNewest})`)
    .orderBy('servers.created_at', 'asc').orderBy('servers.id', 'asc')
    .limit(sql<number>`greatest(0, least(${lim}, ${total} - ${off}))`)
    .offset(sql<number>`greatest(0, ${total} - ${off} - ${lim})`);
  return db
    .with('n', () => live.select(sql<number>`count(*)::int`.as('total')))
    // Each walk is a subquery so that its ORDER BY and LIMIT stay its own inside the UNION.
    .with('page', (qc) => qc.selectFrom(newestFirst.as('a')).select('a.id')
      .unionAll(qc.selectFrom(oldestFirst.as('b')).select('b.id')))
    .selectFrom('page')
    .innerJoin('servers', 'servers.id', 'page.id')
    .leftJoin('plans', 'plans.id', 'servers.plan_id')
    .select(['servers.id', 'servers.name', 'servers.status', 'servers.power_state', 'servers.cpu_cores', 'servers.ram_mb',
      'servers.storage_gb', 'servers.plan_id', 'servers.price_cents', 'servers.cycle', 'servers.next_billing_at',
      'servers.location_id', 'servers.provider_ref'])
    .select(sql<string | null>`servers.network->'ipv4'->>'address'`.as('ipv4_address'))
    .select('plans.name as plan_name')
    .select(total.as('total'))
    .orderBy('servers.created_at', 'desc').orderBy('servers.id', 'desc');
}

export interface ProvisionedFields {
  providerRef: string;
  network: ServerNetwork;
}

/** pending → active once the provider reports the machine; false if it is no longer pending. */
export async function markServerProvisioned(db: Db, id: string, f: ProvisionedFields): Promise<boolean> {
  const res = await db.updateTable('servers')
    .set({ status: 'active', power_state: 'running', provider_ref: f.providerRef, network: JSON.stringify(f.network), updated_at: new Date() })
    .where('id', '=', id).where('status', '=', 'pending').where('deleted_at', 'is', null)
    .executeTakeFirst();
  return res.numUpdatedRows > 0n;
}

export interface ProvisionedServer extends ProvisionedFields {
  id: string;
  /** Its extra addresses, in the order they are listed. */
  ips: { version: 4 | 6; address: string | null; price_cents: number }[];
}

/**
 * markServerProvisioned and insertServerIps for many servers in one statement (a worker's batch of
 * completions): each server still pending goes active, and only those get their extra addresses.
 */
export async function markServersProvisioned(db: Db, servers: ProvisionedServer[]): Promise<void> {
  if (servers.length === 0) return;
  await sql`WITH ${provisioned('p', servers.map((s) => ({ ...s, operationId: null })))} SELECT 1`.execute(db);
}

/** markServersProvisioned as part of the statement that completes their operations: only for those it completed. */
export function serversProvisionedOnCompletion(servers: (ProvisionedServer & { operationId: string })[]): CompletionChange {
  return (name) => provisioned(name, servers);
}

/** The CTEs `<name>_marked` and `<name>_ips`; with operation ids, only the servers of those in `completed`. */
function provisioned(name: string, servers: (ProvisionedServer & { operationId: string | null })[]) {
  const ips = servers.flatMap((s) => s.ips.map((ip) => ({ server_id: s.id, ...ip })));
  const marked = sql.raw(`${name}_marked`);
  const gate = servers.some((s) => s.operationId !== null) ? sql`JOIN completed ON completed.id = v.operation_id` : sql``;
  return sql`
    ${marked} AS (
      UPDATE servers s SET status = 'active', power_state = 'running', provider_ref = v.provider_ref, network = v.network, updated_at = ${new Date()}
      FROM unnest(${servers.map((s) => s.id)}::text[], ${servers.map((s) => s.operationId)}::text[], ${servers.map((s) => s.providerRef)}::text[],
        ${servers.map((s) => JSON.stringify(s.network))}::jsonb[]) AS v(id, operation_id, provider_ref, network)
      ${gate}
      WHERE s.id = v.id AND s.status = 'pending' AND s.deleted_at IS NULL
      RETURNING s.id
    ), ${sql.raw(`${name}_ips`)} AS (
      INSERT INTO server_ips (server_id, version, address, price_cents)
      SELECT i.server_id, i.version, i.address, i.price_cents
      FROM unnest(${ips.map((i) => i.server_id)}::text[], ${ips.map((i) => i.version)}::int[], ${ips.map((i) => i.address)}::inet[],
        ${ips.map((i) => i.price_cents)}::bigint[]) WITH ORDINALITY AS i(server_id, version, address, price_cents, n)
      WHERE i.server_id IN (SELECT id FROM ${marked})
      ORDER BY i.n
    )`;
}

export async function updateServerRow(db: Db, id: string, patch: Partial<{
  name: string; status: ServerStatus; power_state: PowerState; plan_id: number | null; os_version_id: number | null;
  cpu_cores: number; ram_mb: number; storage_gb: number; price_cents: number; deleted_at: Date;
}>): Promise<Server | undefined> {
  return db.updateTable('servers').set({ ...patch, updated_at: new Date() }).where('id', '=', id).returningAll().executeTakeFirst();
}

export async function insertServerIps(db: Db, rows: { server_id: string; version: 4 | 6; address: string | null; price_cents: number }[]): Promise<void> {
  if (rows.length > 0) await db.insertInto('server_ips').values(rows).execute();
}

export function listServerIps(db: Db, serverId: string): Promise<ServerIp[]> {
  return db.selectFrom('server_ips').selectAll().where('server_id', '=', serverId).where('released_at', 'is', null).orderBy('id').execute();
}

export function findOsSlug(db: Db, osVersionId: number | null): Promise<{ slug: string } | undefined> {
  if (osVersionId === null) return Promise.resolve(undefined);
  return db.selectFrom('operating_systems').select('slug').where('id', '=', osVersionId).executeTakeFirst();
}

/** Ends the billing of every extra address of a server (it was deleted). */
export async function releaseServerIps(db: Db, serverId: string, at: Date): Promise<void> {
  await db.updateTable('server_ips').set({ released_at: at }).where('server_id', '=', serverId).where('released_at', 'is', null).execute();
}

/** What the server's held extra addresses add to its monthly bill (address rows not yet filled included). */
export async function extraIpsMonthlyCents(db: Db, serverId: string): Promise<number> {
  const r = await db.selectFrom('server_ips').select(sql<number>`coalesce(sum(price_cents), 0)::bigint`.as('cents'))
    .where('server_id', '=', serverId).where('released_at', 'is', null)
    .executeTakeFirstOrThrow();
  return r.cents;
}

export interface SizeChange {
  plan_id?: number | null;
  cpu_cores?: number;
  ram_mb?: number;
  storage_gb?: number;
  power_state?: PowerState;
  /** What a running resize holds on the node beyond the size (0015); a completion or failure clears it. */
  resize_hold_cpu?: number;
  resize_hold_ram_mb?: number;
  resize_hold_storage_gb?: number;
}

/**
 * Changes size (and plan) and moves the monthly price by `priceDeltaCents`, relative to whatever
 * it is now, so a price change committed by someone else in between (an extra IP) is kept. The
 * reseller discount the server holds moves by `discount` cents, or with 'scale' in proportion to
 * the price (a shrink keeps the share of the price it was sold at, rounded up: a refund of the
 * difference never exceeds what was paid).
 */
export function changeServerSize(db: Db, id: string, patch: SizeChange, priceDeltaCents: number, discount: number | 'scale' = 0): Promise<Server | undefined> {
  const discountCents = discount === 'scale'
    ? sql<number>`CASE WHEN price_cents > 0 THEN ceil(discount_cents::numeric * greatest(0, price_cents + ${priceDeltaCents}) / price_cents)::bigint ELSE 0 END`
    : sql<number>`greatest(0, discount_cents + ${discount})`;
  return db.updateTable('servers')
    .set({ ...patch, price_cents: sql<number>`greatest(0, price_cents + ${priceDeltaCents})`, discount_cents: discountCents, updated_at: new Date() })
    .where('id', '=', id).returningAll().executeTakeFirst();
}

/** The server's own columns a detail shows or decides on; the rest of the row is not read. */
const DETAIL_COLUMNS = [
  'id', 'account_id', 'name', 'status', 'power_state', 'location_id', 'plan_id', 'cpu_cores', 'ram_mb', 'storage_gb',
  'price_cents', 'cycle', 'next_billing_at', 'provider_ref', 'network', 'created_at',
] as const satisfies readonly (keyof Server)[];

export type ServerDetailFacts = Pick<Server, (typeof DETAIL_COLUMNS)[number]>;

export interface ServerDetail {
  server: ServerDetailFacts;
  plan_name: string | null;
  os_slug: string | null;
  extra_ips: { address: string; version: 4 | 6 }[];
  /** What the next charge is made of (GET shows it): the oldest charge still due, if any… */
  due: { description: string; amountCents: number; dueSince: Date; periodStart: Date; periodEnd: Date } | null;
  /** …the monthly price of its extra addresses (part of `price_cents`), the monthly fees of its snapshots, and the reseller discount of the account's tier. */
  extra_ips_cents: number;
  snapshot_fees_cents: number;
  tier_discount: string | null;
}

/** ServerDetail as the statement sends it: timestamps are JSON text. */
type ServerDetailJson = Omit<ServerDetail, 'server' | 'due'> & {
  server: Omit<ServerDetailFacts, 'next_billing_at' | 'created_at'> & { next_billing_at: string; created_at: string };
  due: { description: string; amountCents: number; dueSince: string; periodStart: string; periodEnd: string } | null;
};

/**
 * A live server of the account with what its detail shows, its next charge's facts included, in
 * one round trip. The row comes as one JSON value: parsed by JSON.parse at once, where three dozen
 * columns cost pg a field description, a parser and a property each on every read (a third of
 * the client's CPU for the statement), and the timestamps its regular-expression parser.
 */
export async function findAccountServerDetail(db: Db, accountId: string, id: string): Promise<ServerDetail | undefined> {
  const row = await serverDetail.executeTakeFirst(db, { accountId, id });
  if (!row) return undefined;
  const { server, due, ...rest } = row.detail;
  return {
    ...rest,
    server: { ...server, next_billing_at: new Date(server.next_billing_at), created_at: new Date(server.created_at) },
    due: due && { ...due, dueSince: new Date(due.dueSince), periodStart: new Date(due.periodStart), periodEnd: new Date(due.periodEnd) },
  };
}

const jsonObject = (fields: [string, RawBuilder<unknown>][]) => sql`json_build_object(${sql.join(fields.map(([k, v]) => sql`${sql.lit(k)}, ${v}`))})`;

// Precompiled: every GET /v2/servers/{id} runs it (see precompiled.ts).
const serverDetail = precompile((db: Db, p: { accountId: string; id: string }) => db
  .selectFrom(db.selectFrom('servers').select([...DETAIL_COLUMNS, 'os_version_id', 'deleted_at']).where('id', '=', p.id).offset(0).as('servers'))
  .leftJoin('plans', 'plans.id', 'servers.plan_id')
  .leftJoin('operating_systems', 'operating_systems.id', 'servers.os_version_id')
  .leftJoinLateral((eb) => eb.selectFrom('billing_charges as bc')
    .select(['bc.description', 'bc.amount_cents', 'bc.due_since', 'bc.period_start', 'bc.period_end'])
    // The account narrows it to billing_charges_due (account_id, due_since) WHERE status = 'due'.
    .whereRef('bc.account_id', '=', 'servers.account_id').where('bc.status', '=', 'due').where('bc.resource_type', '=', 'server').whereRef('bc.resource_id', '=', 'servers.id')
    .orderBy('bc.due_since').limit(1).as('dc'), (join) => join.onTrue())
  .select(sql<ServerDetailJson>`${jsonObject([
    ['server', jsonObject(DETAIL_COLUMNS.map((c) => [c, sql.ref(`servers.${c}`)]))],
    ['plan_name', sql.ref('plans.name')],
    ['os_slug', sql.ref('operating_systems.slug')],
    ['extra_ips', sql`coalesce((
      SELECT json_agg(json_build_object('address', host(ip.address), 'version', ip.version) ORDER BY ip.id)
        FROM server_ips ip WHERE ip.server_id = servers.id AND ip.released_at IS NULL AND ip.address IS NOT NULL), '[]'::json)`],
    ['due', sql`CASE WHEN dc.description IS NOT NULL THEN ${jsonObject([
      ['description', sql.ref('dc.description')], ['amountCents', sql.ref('dc.amount_cents')], ['dueSince', sql.ref('dc.due_since')],
      ['periodStart', sql.ref('dc.period_start')], ['periodEnd', sql.ref('dc.period_end')],
    ])} END`],
    ['extra_ips_cents', sql`(SELECT coalesce(sum(ip.price_cents), 0) FROM server_ips ip WHERE ip.server_id = servers.id AND ip.released_at IS NULL)`],
    ['snapshot_fees_cents', sql`(SELECT coalesce(sum(sn.monthly_fee_cents), 0) FROM snapshots sn WHERE sn.server_id = servers.id AND sn.deleted_at IS NULL)`],
    ['tier_discount', tierDiscountOf(sql.ref<string>('servers.account_id'))],
  ])}`.as('detail'))
  .where('servers.account_id', '=', p.accountId).where('servers.deleted_at', 'is', null));

/**
 * The catalog rows a server create refers to (absent ids → null) and the discount of the account's
 * reseller tier (the quote's; null without `accountId`), in one round trip.
 */
export function findServerReferences(db: Db, ids: { accountId?: string; planId: number | null; locationId: number; osVersionId: number | null }) {
  return db.selectNoFrom((eb) => [
    jsonObjectFrom(eb.selectFrom('plans').selectAll().where('id', '=', ids.planId ?? -1)).as('plan'),
    jsonObjectFrom(eb.selectFrom('locations').selectAll().where('id', '=', ids.locationId)).as('location'),
    jsonObjectFrom(eb.selectFrom('operating_systems').selectAll().where('id', '=', ids.osVersionId ?? -1)).as('os'),
    (ids.accountId === undefined ? sql<string | null>`NULL::text` : tierDiscountOf(sql.val(ids.accountId))).as('tier_discount'),
  ]).executeTakeFirstOrThrow();
}
