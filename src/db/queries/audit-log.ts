// The audit log: appended in each admin write's transaction; the database refuses UPDATE, DELETE
// and TRUNCATE on it (migration 0190).
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { AuditActorType, AuditRow } from '../schema.ts';

export interface NewAuditRow {
  actor_type: AuditActorType;
  actor_id: string | null;
  actor_email: string | null;
  ip: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  changes: Record<string, unknown>;
  request_id: string | null;
}

export async function insertAuditRow(db: Db, row: NewAuditRow): Promise<void> {
  await db.insertInto('audit_log').values({ ...row, changes: JSON.stringify(row.changes) }).execute();
}

export interface AuditFilter {
  /** A staff member's id, or `admin_token` / `system`. */
  actor?: string;
  targetType?: string;
  targetId?: string;
  action?: string;
  since?: Date;
  until?: Date;
}

export async function listAuditRows(db: Db, f: AuditFilter, limit: number, offset: number): Promise<{ rows: AuditRow[]; total: number }> {
  let q = db.selectFrom('audit_log');
  if (f.actor === 'admin_token' || f.actor === 'system') q = q.where('actor_type', '=', f.actor);
  else if (f.actor) q = q.where('actor_id', '=', f.actor);
  if (f.targetType) q = q.where('target_type', '=', f.targetType);
  if (f.targetId) q = q.where('target_id', '=', f.targetId);
  if (f.action) q = q.where('action', '=', f.action);
  if (f.since) q = q.where('at', '>=', f.since);
  if (f.until) q = q.where('at', '<', f.until);
  const [rows, count] = await Promise.all([
    // Newest first by id: `at` is its transaction's start, so a long write may carry an earlier time than a row before it.
    q.selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    q.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}
