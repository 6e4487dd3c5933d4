import { Type } from '@sinclair/typebox';
import { EVENT_RESOURCE_TYPES, EVENT_TYPES } from '../../../core/events/catalogue.ts';
import { listEvents } from '../../../core/events/service.ts';
import { withCtx } from '../../core-call.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, StringEnum, errorResponses } from '../../schemas.ts';
import { EventSchema, eventView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/events', {
    config: { area: 'events' },
    schema: {
      operationId: 'listEvents',
      tags: ['Events'],
      summary: 'List events',
      description: 'What changed for the account, newest first: operations that completed or failed, servers and VMs created and deleted, domains '
        + 'registered, renewed, expiring, web hosting created, suspensions, payments, tickets answered… (the catalogue in the introduction lists '
        + 'every type). Each is written in the same transaction as its change. Kept `EVENT_RETENTION_DAYS` (30 by default). Needs `events:read`. '
        + 'To be told rather than to ask, register a webhook (`createWebhook`).',
      querystring: Type.Object({
        ...PageQuery(),
        type: Type.Optional(StringEnum(EVENT_TYPES, { description: 'Only events of this type.' })),
        resource_type: Type.Optional(StringEnum(EVENT_RESOURCE_TYPES, { description: 'Only events about resources of this type.' })),
        resource_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only events about this resource (`srv_…`, `op_…`, a ticket number…).', examples: ['srv_8fJ2kLmN4pQ7rS1t'] })),
      }, { additionalProperties: false }),
      response: { 200: ListEnvelope(EventSchema), ...errorResponses() },
    },
  }, async (request) => {
    const q = request.query;
    const result = await withCtx(deps, request, (ctx) => listEvents(ctx, { type: q.type, resourceType: q.resource_type, resourceId: q.resource_id }, pageOf(q)));
    return page(request, result, eventView);
  });
}
