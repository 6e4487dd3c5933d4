// Every admin write is audited: its handler runs with the audit row as the companion of the first
// transaction it commits (db/transaction.ts), so the row commits with the write or not at all. A
// write statement outside such a transaction is refused in tests and logged in production (the
// guard of db/transaction.ts); a write that changed nothing in the database (a check that found
// nothing new) gets its row alone. GET /admin/v1/audit-log reads the trail.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { listAudit, recordAudit } from '../../core/staff/audit.ts';
import { ts } from '../../core/time.ts';
import type { AuditRow } from '../../db/schema.ts';
import { type Companion, inTransaction, withCompanion } from '../../db/transaction.ts';
import type { Db } from '../../core/types.ts';
import { page, pageOf } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { ListEnvelope, PageQuery, Timestamp, errorResponses } from '../schemas.ts';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The action of a route: its operationId, else its method and path. */
function actionOf(route: RouteOptions): string {
  const id = (route.schema as { operationId?: string } | undefined)?.operationId;
  return id ?? `${[route.method].flat().join(',')} ${route.url.replace(/^\/admin\/v1/, '')}`;
}

/** The resource a write is about: the path's first parameter and the segment before it (`/accounts/:id/deposits` → account). */
function targetOf(route: RouteOptions, request: FastifyRequest, reply: FastifyReply): { type: string | null; id: string | null } {
  const segments = route.url.replace(/^\/admin\/v1\//, '').split('/');
  const i = segments.findIndex((s) => s.startsWith(':'));
  const singular = (s: string) => (s.endsWith('ies') ? `${s.slice(0, -3)}y` : s.endsWith('s') ? s.slice(0, -1) : s).replace(/-/g, '_');
  if (i > 0) {
    const params = request.params as Record<string, string>;
    return { type: singular(segments[i - 1]!), id: params[segments[i]!.slice(1)] ?? null };
  }
  // A create whose core did not name what it made (setCompanionTarget): what its Location names, if already set.
  const location = reply.getHeader('location');
  return { type: singular(segments[0]!), id: typeof location === 'string' ? decodeURIComponent(location.split('/').pop()!) : null };
}

/** Wraps an admin write's handler so that it is audited (admin/index.ts, on every admin route). */
export function auditWrites(route: RouteOptions, db: Db): void {
  if (route.config?.auth !== 'admin' || [route.method].flat().every((m) => SAFE.has(m.toUpperCase()))) return;
  const handler = route.handler;
  const action = actionOf(route);
  route.handler = async function audited(this: unknown, request: FastifyRequest, reply: FastifyReply) {
    const companion: Companion = {
      written: false,
      label: action,
      write: (trx) => recordAudit(trx, {
        actor: request.staff, ip: request.ip, action, target: companion.target ?? targetOf(route, request, reply),
        changes: request.body ?? {}, requestId: request.id,
      }),
      stray: (statement) => request.log.error({ action, statement: statement.slice(0, 200) }, 'an admin write ran outside the transaction of its audit row'),
    };
    const result = await withCompanion(companion, () => (handler as (this: unknown, q: FastifyRequest, r: FastifyReply) => Promise<unknown>).call(this, request, reply));
    // Nothing the handler wrote took the row: it wrote nothing (the guard saw every write), so the row stands alone.
    if (!companion.written) {
      await inTransaction(db, companion.write);
      companion.written = true;
    }
    return result;
  } as RouteOptions['handler'];
}

const AuditEntrySchema = Type.Object({
  id: Type.Integer(),
  at: Timestamp,
  actor: Type.Object({
    type: Type.Union([Type.Literal('staff'), Type.Literal('admin_token'), Type.Literal('system')]),
    id: Type.Union([Type.String(), Type.Null()]),
    email: Type.Union([Type.String(), Type.Null()]),
  }),
  ip: Type.Union([Type.String(), Type.Null()]),
  action: Type.String({ description: "The route's operationId" }),
  target: Type.Object({ type: Type.Union([Type.String(), Type.Null()]), id: Type.Union([Type.String(), Type.Null()]) }),
  changes: Type.Record(Type.String(), Type.Unknown(), { description: 'The fields the write set; secrets are "[redacted]"' }),
  request_id: Type.Union([Type.String(), Type.Null()]),
});

function entryView(r: AuditRow) {
  return {
    id: r.id, at: ts(r.at), actor: { type: r.actor_type, id: r.actor_id, email: r.actor_email }, ip: r.ip, action: r.action,
    target: { type: r.target_type, id: r.target_id }, changes: r.changes, request_id: r.request_id,
  };
}

export function register(app: TypedApp, { db }: RouteDeps) {
  app.get('/audit-log', {
    config: { auth: 'admin', rateLimit: false, right: 'audit' },
    schema: {
      tags: ['Admin staff'], operationId: 'listAuditLog', summary: 'Every admin write, newest first',
      querystring: Type.Object({
        ...PageQuery(),
        actor: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'A staff member\'s id, or admin_token, or system' })),
        target_type: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        target_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
        action: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
        since: Type.Optional(Timestamp),
        until: Type.Optional(Timestamp),
      }, { additionalProperties: false }),
      response: { 200: ListEnvelope(AuditEntrySchema), ...errorResponses() },
    },
  }, async (request) => {
    const q = request.query;
    return page(request, await listAudit(db, {
      actor: q.actor, targetType: q.target_type, targetId: q.target_id, action: q.action,
      since: q.since ? new Date(q.since) : undefined, until: q.until ? new Date(q.until) : undefined,
    }, pageOf(q)), entryView);
  });
}
