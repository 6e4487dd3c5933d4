// One account's history as one list: its events, ledger rows, tickets (opened, and each reply of
// either side; internal notes are left out) and the audit rows whose target is the account, newest
// first, paged in the database. Each part is left out unless asked for (a role that does not read
// billing gets no ledger rows).
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../connection.ts';

export type TimelineKind = 'event' | 'ledger' | 'ticket' | 'audit';

export interface TimelineRow {
  kind: TimelineKind;
  at: Date;
  /** Unique within its kind: the event's, ledger row's, ticket's (`<ticket>` opened, `<ticket>/<message>` a reply) or audit row's id. */
  ref: string;
  /** What happened, in a few words: the event type, `deposit`, `ticket.opened`, the audited action. */
  title: string;
  data: Record<string, unknown>;
}

export async function accountTimeline(db: Db, accountId: string, kinds: TimelineKind[], limit: number, offset: number): Promise<{ rows: TimelineRow[]; total: number }> {
  const parts: RawBuilder<unknown>[] = [];
  if (kinds.includes('event')) {
    parts.push(sql`SELECT 'event' AS kind, created_at AS at, id AS ref, type AS title,
      jsonb_build_object('resource_type', resource_type, 'resource_id', resource_id) AS data
      FROM events WHERE account_id = ${accountId}`);
  }
  if (kinds.includes('ledger')) {
    parts.push(sql`SELECT 'ledger', created_at, id::text, type,
      jsonb_build_object('amount_cents', amount_cents, 'balance_after_cents', balance_after_cents, 'description', description, 'status', status)
      FROM transactions WHERE account_id = ${accountId}`);
  }
  if (kinds.includes('ticket')) {
    parts.push(sql`SELECT 'ticket', created_at, id, 'ticket.opened',
      jsonb_build_object('ticket_id', id, 'subject', subject, 'status', status, 'priority', priority)
      FROM tickets WHERE account_id = ${accountId} AND deleted_at IS NULL`);
    parts.push(sql`SELECT 'ticket', m.created_at, t.id || '/' || m.id, CASE m.author WHEN 'staff' THEN 'ticket.staff_reply' ELSE 'ticket.customer_reply' END,
      jsonb_build_object('ticket_id', t.id, 'subject', t.subject, 'excerpt', left(m.body, 200))
      FROM ticket_messages m JOIN tickets t ON t.id = m.ticket_id
      WHERE t.account_id = ${accountId} AND t.deleted_at IS NULL AND NOT m.internal
        AND m.id <> (SELECT min(f.id) FROM ticket_messages f WHERE f.ticket_id = t.id)`);
  }
  if (kinds.includes('audit')) {
    parts.push(sql`SELECT 'audit', at, id::text, action,
      jsonb_build_object('actor_type', actor_type, 'actor_id', actor_id, 'actor_email', actor_email, 'changes', changes)
      FROM audit_log WHERE target_type = 'account' AND target_id = ${accountId}`);
  }
  if (parts.length === 0) return { rows: [], total: 0 };
  const union = sql.join(parts, sql` UNION ALL `);
  const r = await sql<TimelineRow & { full_count: string }>`SELECT kind, at, ref, title, data, count(*) OVER () AS full_count
    FROM (${union}) AS timeline(kind, at, ref, title, data)
    ORDER BY at DESC, kind, ref DESC LIMIT ${limit} OFFSET ${offset}`.execute(db);
  if (r.rows.length === 0 && offset > 0) {
    const c = await sql<{ n: string }>`SELECT count(*) AS n FROM (${union}) AS timeline`.execute(db);
    return { rows: [], total: Number(c.rows[0]?.n ?? 0) };
  }
  return { rows: r.rows.map(({ full_count: _n, ...row }) => row), total: Number(r.rows[0]?.full_count ?? 0) };
}
