// The counts that say whether a customer can buy a server yet (core/setup/readiness.ts).
import { sql } from 'kysely';
import type { Db } from '../connection.ts';

export interface SetupCounts {
  locations: number;
  plans: number;
  operatingSystems: number;
  /** Available OS versions with an image (what the LXD driver builds from). */
  osImages: number;
  /** Active nodes in locations servers can be created in, of the installation's driver. */
  nodes: number;
  /** IPv4 pools in locations that have such a node. */
  ipv4Pools: number;
}

/** `lxdNodes`: count nodes with an LXD endpoint (COMPUTE_DRIVER=lxd), else the simulated platform's (no endpoint). */
export async function countSetup(db: Db, opts: { primaryProvider: string; lxdNodes: boolean }): Promise<SetupCounts> {
  const nodeDriver = opts.lxdNodes ? sql`n.endpoint IS NOT NULL` : sql`n.endpoint IS NULL`;
  const r = await sql<{ locations: string; plans: string; os: string; images: string; nodes: string; pools: string }>`
    WITH server_locations AS (SELECT id FROM locations WHERE available AND provider = ${opts.primaryProvider}),
         served AS (
           SELECT n.location_id FROM nodes n
           WHERE n.status = 'active' AND ${nodeDriver} AND n.location_id IN (SELECT id FROM server_locations))
    SELECT
      (SELECT count(*) FROM server_locations) AS locations,
      (SELECT count(*) FROM plans WHERE available) AS plans,
      (SELECT count(*) FROM operating_systems WHERE available) AS os,
      (SELECT count(*) FROM operating_systems WHERE available AND image IS NOT NULL) AS images,
      (SELECT count(*) FROM served) AS nodes,
      (SELECT count(*) FROM ip_pools WHERE version = 4 AND location_id IN (SELECT location_id FROM served)) AS pools
  `.execute(db);
  const row = r.rows[0]!;
  return {
    locations: Number(row.locations), plans: Number(row.plans), operatingSystems: Number(row.os), osImages: Number(row.images),
    nodes: Number(row.nodes), ipv4Pools: Number(row.pools),
  };
}
