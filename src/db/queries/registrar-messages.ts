// The registry's messages the worker read (EPP poll), for the operator.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { RegistrarMessage } from '../schema.ts';

export interface NewRegistrarMessage {
  registrar: string;
  msgId: string;
  queuedAt: Date | null;
  domain: string | null;
  kind: 'transfer' | 'notice';
  text: string;
  detail: Record<string, unknown>;
}

/** Records a message once (a message read again after a lost acknowledgement is the same row). */
export async function recordRegistrarMessage(db: Db, m: NewRegistrarMessage): Promise<void> {
  await db.insertInto('registrar_messages').values({
    registrar: m.registrar, msg_id: m.msgId, queued_at: m.queuedAt, domain: m.domain, kind: m.kind, text: m.text, detail: JSON.stringify(m.detail),
  }).onConflict((oc) => oc.columns(['registrar', 'msg_id']).doNothing()).execute();
}

export interface RegistrarMessageFilter {
  kind?: 'transfer' | 'notice';
  registrar?: string;
  domain?: string;
  /** Received at or after. */
  since?: Date;
}

/** Newest first (by when the worker read it), filtered, one page, with the total. */
export async function listRegistrarMessagesPage(db: Db, f: RegistrarMessageFilter, limit: number, offset: number): Promise<{ rows: RegistrarMessage[]; total: number }> {
  let q = db.selectFrom('registrar_messages').selectAll();
  if (f.kind !== undefined) q = q.where('kind', '=', f.kind);
  if (f.registrar !== undefined) q = q.where('registrar', '=', f.registrar);
  if (f.domain !== undefined) q = q.where('domain', '=', f.domain);
  if (f.since !== undefined) q = q.where('received_at', '>=', f.since);
  const [rows, count] = await Promise.all([
    q.orderBy('received_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    q.clearSelect().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.n };
}
