// The operator's lists across accounts: servers and VDC VMs (by account, node, status) and an
// account's services of every kind. Deleted machines are listed only when asked for by status.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';

export interface MachineFilter {
  accountId?: string;
  nodeId?: number;
  status?: string;
  locationId?: number;
  /** Servers only (VDC VMs have no plan). */
  planId?: number;
  /** Part of the id, name, owner's email or primary IPv4 address, any case. */
  q?: string;
}

export interface MachineRow {
  id: string;
  account_id: string;
  account_email: string;
  name: string;
  status: string;
  power_state: string;
  location_id: number;
  plan_id: number | null;
  node_id: number | null;
  node_name: string | null;
  cpu_cores: number;
  ram_mb: number;
  storage_gb: number;
  ipv4: string | null;
  created_at: Date;
  deleted_at: Date | null;
}

export type MachineKind = 'servers' | 'vdc_vms';

const PLAN = { servers: sql`m.plan_id`, vdc_vms: sql`NULL::int` };
const IPV4 = { servers: sql`m.network->'ipv4'->>'address'`, vdc_vms: sql`host(m.primary_ip)` };

export async function listMachinesPage(db: Db, kind: MachineKind, f: MachineFilter, limit: number, offset: number): Promise<{ rows: MachineRow[]; total: number }> {
  const where = [sql`true`];
  if (f.accountId !== undefined) where.push(sql`m.account_id = ${f.accountId}`);
  if (f.nodeId !== undefined) where.push(sql`(m.node_id = ${f.nodeId} OR m.migration_node_id = ${f.nodeId})`);
  if (f.status === 'deleted') where.push(sql`m.deleted_at IS NOT NULL`);
  else {
    where.push(sql`m.deleted_at IS NULL`);
    if (f.status !== undefined) where.push(sql`m.status = ${f.status}`);
  }
  if (f.locationId !== undefined) where.push(sql`m.location_id = ${f.locationId}`);
  if (f.planId !== undefined && kind === 'servers') where.push(sql`m.plan_id = ${f.planId}`);
  if (f.q !== undefined) {
    const like = `%${f.q.replace(/[\\%_]/g, '\\$&')}%`;
    where.push(sql`(m.id ILIKE ${like} OR m.name ILIKE ${like} OR a.email ILIKE ${like} OR ${IPV4[kind]} ILIKE ${like})`);
  }
  const cond = sql.join(where, sql` AND `);
  const { rows } = await sql<MachineRow & { full_count: string }>`
    SELECT m.id, m.account_id, a.email AS account_email, m.name, m.status, m.power_state, m.location_id, ${PLAN[kind]} AS plan_id, m.node_id,
           n.name AS node_name, m.cpu_cores, m.ram_mb, m.storage_gb, ${IPV4[kind]} AS ipv4, m.created_at, m.deleted_at,
           count(*) OVER () AS full_count
      FROM ${sql.table(kind)} m JOIN accounts a ON a.id = m.account_id LEFT JOIN nodes n ON n.id = m.node_id
     WHERE ${cond}
     ORDER BY m.created_at DESC, m.id DESC LIMIT ${limit} OFFSET ${offset}`.execute(db);
  if (rows.length === 0 && offset > 0) {
    const { rows: [c] } = await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(kind)} m JOIN accounts a ON a.id = m.account_id WHERE ${cond}`.execute(db);
    return { rows: [], total: Number(c?.n ?? 0) };
  }
  return { rows: rows.map(({ full_count: _n, ...r }) => r), total: Number(rows[0]?.full_count ?? 0) };
}

export interface ServiceRow { type: 'server' | 'vdc_vm' | 'domain' | 'web_hosting'; id: string; name: string; status: string; created_at: Date }

/** Every service an account holds (deleted machines left out), newest first. */
export async function listAccountServicesPage(db: Db, accountId: string, limit: number, offset: number): Promise<{ rows: ServiceRow[]; total: number }> {
  const services = sql`
      SELECT 'server' AS type, id, name, status::text AS status, created_at FROM servers WHERE account_id = ${accountId} AND deleted_at IS NULL
      UNION ALL SELECT 'vdc_vm', id, name, status::text, created_at FROM vdc_vms WHERE account_id = ${accountId} AND deleted_at IS NULL
      UNION ALL SELECT 'domain', id, name, status::text, created_at FROM domains WHERE account_id = ${accountId}
      UNION ALL SELECT 'web_hosting', id, domain, status::text, created_at FROM web_hosting WHERE account_id = ${accountId}`;
  const { rows } = await sql<ServiceRow & { full_count: string }>`
    SELECT s.*, count(*) OVER () AS full_count FROM (${services}) s
     ORDER BY s.created_at DESC, s.id DESC LIMIT ${limit} OFFSET ${offset}`.execute(db);
  if (rows.length === 0 && offset > 0) {
    const { rows: [c] } = await sql<{ n: string }>`SELECT count(*) AS n FROM (${services}) s`.execute(db);
    return { rows: [], total: Number(c?.n ?? 0) };
  }
  return { rows: rows.map(({ full_count: _n, ...r }) => r), total: Number(rows[0]?.full_count ?? 0) };
}
