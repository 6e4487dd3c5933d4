// The registry's messages the worker read (EPP poll), for the operator.
import type { Db } from '../connection.ts';

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

export function listRegistrarMessages(db: Db, limit: number) {
  return db.selectFrom('registrar_messages').selectAll().orderBy('id', 'desc').limit(limit).execute();
}
