// GET /admin/v1/accounts/{id}/timeline: the console's account history in one list (events, ledger,
// tickets, audit rows about the account), newest first, paged.
import { Type } from '@sinclair/typebox';
import { TIMELINE_KINDS, type TimelineRow, timelineOf } from '../../core/accounts/timeline.ts';
import { ts } from '../../core/time.ts';
import { page, pageOf } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { ListEnvelope, PageQuery, StringEnum, Timestamp, errorResponses } from '../schemas.ts';
import { principalOf } from './principal.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'accounts' as const };

const TimelineEntry = Type.Object({
  kind: StringEnum(TIMELINE_KINDS),
  at: Timestamp,
  ref: Type.String({ description: 'The id of what the entry is (event, ledger row, ticket or `ticket/message`, audit row); unique within its kind' }),
  title: Type.String({ description: 'The event type, the ledger row\'s type, `ticket.opened` / `ticket.customer_reply` / `ticket.staff_reply`, or the audited action' }),
  data: Type.Record(Type.String(), Type.Unknown(), { description: 'The entry\'s facts: the resource of an event; amount and balance of a ledger row; subject (and excerpt) of a ticket entry; actor and changes of an audit row' }),
}, { title: 'AccountTimelineEntry' });

const view = (r: TimelineRow) => ({ kind: r.kind, at: ts(new Date(r.at)), ref: r.ref, title: r.title, data: r.data });

export function register(app: TypedApp, { db }: RouteDeps) {
  app.get('/accounts/:id/timeline', {
    config: admin,
    schema: {
      tags: ['Admin'], operationId: 'getAccountTimeline',
      summary: 'An account\'s events, ledger rows, tickets and audit rows, newest first',
      description: 'Ledger rows only for a role that reads billing. `kind` keeps one kind.',
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
      querystring: Type.Object({ kind: Type.Optional(StringEnum(TIMELINE_KINDS)), ...PageQuery() }, { additionalProperties: false }),
      response: { 200: ListEnvelope(TimelineEntry), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const { kind, ...p } = request.query;
    return page(request, await timelineOf(db, request.params.id, principalOf(request).role, kind, pageOf(p)), view);
  });
}
