import { getEvent } from '../../../core/events/service.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { EventParams, EventSchema, eventView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/events/:id', {
    config: { area: 'events' },
    schema: {
      operationId: 'getEvent',
      tags: ['Events'],
      summary: 'Get an event',
      description: 'One event, as listed and as delivered to webhooks (a delivery\'s `webhook-id` is the event\'s `id`). Another account\'s id, '
        + 'or one past retention, is 404. Needs `events:read`.',
      params: EventParams,
      response: { 200: Envelope(EventSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const event = await withCtx(deps, request, (ctx) => getEvent(ctx, request.params.id));
    return ok(request, eventView(event));
  });
}
