// The audit trail of admin writes: who (a staff member, ADMIN_TOKEN, the system), from where, the
// action (the route's operationId), its target and the fields it set, secrets redacted. The row is
// written by the first transaction the write commits (db/transaction.ts carries it there).
import { type AuditFilter, type NewAuditRow, insertAuditRow, listAuditRows } from '../../db/queries/audit-log.ts';
import type { AuditRow } from '../../db/schema.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';
import type { StaffPrincipal } from './principal.ts';

const SECRET = /pass|secret|token|key$|^key|code|auth|private|certificate|credential/i;
export const REDACTED = '[redacted]';

/** A data URL longer than this (an uploaded logo) is kept as its type and length, not its bytes. */
const DATA_URL_KEPT = 256;

/** The fields a write set, with every secret (passwords, tokens, keys, codes) replaced and long data URLs summarised. */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string' && value.length > DATA_URL_KEPT && value.startsWith('data:')) {
    return `${/^data:[^;,]*/.exec(value)![0]} (${value.length} characters, not kept)`;
  }
  if (depth > 5 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = SECRET.test(k) ? REDACTED : redact(v, depth + 1);
  return out;
}

export interface AuditInput {
  actor: StaffPrincipal | null;
  ip: string | null;
  action: string;
  target: { type: string | null; id: string | null };
  changes: unknown;
  requestId: string | null;
}

export function auditRow(e: AuditInput): NewAuditRow {
  const changes = redact(e.changes);
  return {
    actor_type: e.actor ? e.actor.type : 'system',
    actor_id: e.actor?.id ?? null,
    actor_email: e.actor?.email ?? null,
    ip: e.ip,
    action: e.action.slice(0, 100),
    target_type: e.target.type,
    target_id: e.target.id,
    changes: changes && typeof changes === 'object' && !Array.isArray(changes) ? changes as Record<string, unknown> : {},
    request_id: e.requestId,
  };
}

export function recordAudit(trx: Db, e: AuditInput): Promise<void> {
  return insertAuditRow(trx, auditRow(e));
}

export async function listAudit(db: Db, f: AuditFilter, page: PageRequest): Promise<Paged<AuditRow>> {
  const { rows, total } = await listAuditRows(db, f, page.perPage, offsetOf(page));
  return { items: rows, total, page: page.page, perPage: page.perPage };
}
