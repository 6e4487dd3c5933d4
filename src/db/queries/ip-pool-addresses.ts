// The addresses a pool has handed out, for the operator: held by a machine (with the server or VDC
// VM it belongs to), resting after a release (until when), or rested and free to hand out again.
// Offsets the pool never handed out have no row and are not listed (an IPv6 pool has ~2^64).
import { sql } from 'kysely';
import type { Db } from '../connection.ts';

export type PoolAddressState = 'allocated' | 'cooling' | 'free';

export interface PoolAddressRow {
  address: string;
  state: PoolAddressState;
  /** The platform's machine that holds it (allocated only). */
  machine_id: string | null;
  /** The server or VDC VM of that machine: the operation that made it, or the resource that names it as its machine. */
  resource_type: string | null;
  resource_id: string | null;
  leased_at: Date | null;
  released_at: Date | null;
  /** Cooling only: when the rest ends and the address may be handed out again. */
  until: Date | null;
}

// The rest as the allocator reads it (hc_lease_addresses, 0031 and 0070), so both agree on what is cooling.
const REST = sql`(SELECT make_interval(secs => coalesce(max((value #>> '{}')::int), 3600)) FROM ip_settings WHERE name = 'cooldown_s')`;

/** A page of the pool's addresses in address order, optionally of one state, with the count of all that match. */
export async function listPoolAddressesPage(
  db: Db, poolId: number, state: PoolAddressState | undefined, limit: number, offset: number,
): Promise<{ rows: PoolAddressRow[]; total: number }> {
  const stateFilter = state === undefined ? sql`true` : sql`a.state = ${state}`;
  const states = sql`
    SELECT l.address, l.vm_id, l.leased_at, l.released_at, r.rest,
      CASE WHEN l.vm_id IS NOT NULL THEN 'allocated'
           WHEN l.released_at > now() - r.rest THEN 'cooling'
           ELSE 'free' END AS state
    FROM ip_addresses l CROSS JOIN ${REST} AS r(rest)
    WHERE l.pool_id = ${poolId}`;
  const [page, count] = await Promise.all([
    sql<PoolAddressRow>`
      SELECT host(a.address) AS address, a.state, a.vm_id AS machine_id, a.leased_at, a.released_at,
        CASE WHEN a.state = 'cooling' THEN a.released_at + a.rest END AS until,
        coalesce(o.resource_type, f.resource_type) AS resource_type,
        coalesce(CASE WHEN o.type = 'server.clone' THEN o.params->>'clone_id' ELSE o.resource_id END, f.resource_id) AS resource_id
      FROM (SELECT * FROM (${states}) a WHERE ${stateFilter} ORDER BY a.address LIMIT ${limit} OFFSET ${offset}) a
      LEFT JOIN sim_vms m ON m.id = a.vm_id
      LEFT JOIN operations o ON o.id = m.request_token
      -- A machine not made under one of our operations' tokens: the resource that names it.
      LEFT JOIN LATERAL (
        SELECT 'server' AS resource_type, s.id AS resource_id FROM servers s WHERE s.provider_ref = a.vm_id
        UNION ALL
        SELECT 'vdc_vm', v.id FROM vdc_vms v WHERE v.provider_ref = a.vm_id
        LIMIT 1
      ) f ON a.vm_id IS NOT NULL AND o.id IS NULL
      ORDER BY a.address`.execute(db),
    sql<{ n: string }>`SELECT count(*) AS n FROM (${states}) a WHERE ${stateFilter}`.execute(db),
  ]);
  return { rows: page.rows, total: Number(count.rows[0]!.n) };
}
