// The operator's view of operations (/admin/v1/operations): every account's, filtered and paged,
// newest first; a cancel asked of a running one; a failed one queued again as a new operation.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { Operation } from '../schema.ts';

export interface OperationFilter {
  /** queued, running, completed, failed; or stuck: running without a live lease (its worker gone, or waiting for a retry). */
  status?: 'queued' | 'running' | 'completed' | 'failed' | 'stuck';
  type?: string;
  accountId?: string;
  /** Operations on a server or VDC VM that runs on this node now. */
  nodeId?: number;
  resourceId?: string;
  since?: Date;
  /** The operation's, its resource's or its account's id, whole. */
  q?: string;
}

export async function listOperationsPage(db: Db, f: OperationFilter, limit: number, offset: number): Promise<{ rows: Operation[]; total: number }> {
  let q = db.selectFrom('operations').selectAll();
  if (f.status === 'stuck') {
    q = q.where('status', '=', 'running').where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', sql<Date>`now()`)]));
  } else if (f.status !== undefined) q = q.where('status', '=', f.status);
  if (f.type !== undefined) q = q.where('type', '=', f.type);
  if (f.accountId !== undefined) q = q.where('account_id', '=', f.accountId);
  if (f.resourceId !== undefined) q = q.where('resource_id', '=', f.resourceId);
  if (f.since !== undefined) q = q.where('created_at', '>=', f.since);
  if (f.q !== undefined) {
    const term = f.q;
    q = q.where((eb) => eb.or([eb('id', '=', term), eb('resource_id', '=', term), eb('account_id', '=', term)]));
  }
  if (f.nodeId !== undefined) {
    const nodeId = f.nodeId;
    q = q.where((eb) => eb.or([
      eb.and([eb('resource_type', '=', 'server'), eb('resource_id', 'in', eb.selectFrom('servers').select('id').where('node_id', '=', nodeId))]),
      eb.and([eb('resource_type', '=', 'vdc_vm'), eb('resource_id', 'in', eb.selectFrom('vdc_vms').select('id').where('node_id', '=', nodeId))]),
    ]));
  }
  const [rows, count] = await Promise.all([
    q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    q.clearSelect().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}

export function findOperationById(db: Db, id: string): Promise<Operation | undefined> {
  return db.selectFrom('operations').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Locks operation `id` for an operator's cancel; with `live`, whether a worker holds it now (running
 * under a lease that has not lapsed).
 */
export async function lockOperationForCancel(db: Db, id: string): Promise<(Operation & { live: boolean }) | undefined> {
  return db.selectFrom('operations').selectAll().select(sql<boolean>`status = 'running' AND lease_until IS NOT NULL AND lease_until >= now()`.as('live'))
    .where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Records that the operator asked a running operation to stop; its run fails it at its next step. */
export async function requestOperationCancel(db: Db, id: string, now: Date): Promise<Operation> {
  return db.updateTable('operations').set({ cancel_requested_at: sql<Date>`coalesce(cancel_requested_at, ${now})`, updated_at: now })
    .where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

/** Whether the operator asked operation `id` to stop. */
export async function cancelRequested(db: Db, id: string): Promise<boolean> {
  const row = await db.selectFrom('operations').select('cancel_requested_at').where('id', '=', id).executeTakeFirst();
  return row?.cancel_requested_at != null;
}
