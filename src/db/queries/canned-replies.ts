// Canned replies: support's saved answers, each for one department or (department_id null) for all.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { CannedReply } from '../schema.ts';

/** A canned reply with its department's name (null: every department). */
export interface CannedReplyRow extends CannedReply {
  department_name: string | null;
}

function withDepartment(db: Db) {
  return db.selectFrom('canned_replies as c').leftJoin('departments as d', 'd.id', 'c.department_id').selectAll('c').select('d.name as department_name');
}

export function findCannedReply(db: Db, id: number): Promise<CannedReplyRow | undefined> {
  return withDepartment(db).where('c.id', '=', id).executeTakeFirst();
}

export interface CannedReplyFilter {
  /** That department's replies and those for every department. */
  departmentId?: number;
}

/** One page, by title. */
export async function listCannedRepliesPage(db: Db, f: CannedReplyFilter, limit: number, offset: number): Promise<{ rows: CannedReplyRow[]; total: number }> {
  let q = withDepartment(db);
  if (f.departmentId !== undefined) {
    const departmentId = f.departmentId;
    q = q.where((eb) => eb.or([eb('c.department_id', '=', departmentId), eb('c.department_id', 'is', null)]));
  }
  const [rows, count] = await Promise.all([
    q.orderBy('c.title').orderBy('c.id').limit(limit).offset(offset).execute(),
    q.clearSelect().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}

export async function insertCannedReply(db: Db, row: { title: string; body: string; department_id: number | null; created_at: Date; updated_at: Date }): Promise<number> {
  const { id } = await db.insertInto('canned_replies').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

export interface CannedReplyPatch {
  title?: string;
  body?: string;
  department_id?: number | null;
}

/** False when there is no such reply. */
export async function updateCannedReply(db: Db, id: number, patch: CannedReplyPatch, at: Date): Promise<boolean> {
  const r = await db.updateTable('canned_replies').set({ ...patch, updated_at: at }).where('id', '=', id).executeTakeFirst();
  return r.numUpdatedRows > 0n;
}

export async function deleteCannedReply(db: Db, id: number): Promise<boolean> {
  const r = await db.deleteFrom('canned_replies').where('id', '=', id).executeTakeFirst();
  return r.numDeletedRows > 0n;
}
