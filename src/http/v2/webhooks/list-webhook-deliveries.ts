import { Type } from '@sinclair/typebox';
import { listWebhookDeliveries } from '../../../core/webhooks/service.ts';
import { withCtx } from '../../core-call.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, StringEnum, errorResponses } from '../../schemas.ts';
import { WebhookDeliverySchema, WebhookParams, deliveryView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/webhooks/:id/deliveries', {
    config: { area: 'webhooks' },
    schema: {
      operationId: 'listWebhookDeliveries',
      tags: ['Webhooks'],
      summary: 'List a webhook\'s deliveries',
      description: 'The delivery log of one endpoint, newest first: each event sent (or to be sent) to it, with its attempts so far, the last '
        + 'answer\'s HTTP status or error, and when it is tried next. Kept as long as its event (`EVENT_RETENTION_DAYS`). Needs `webhooks:read`.',
      params: WebhookParams,
      querystring: Type.Object({
        ...PageQuery(),
        status: Type.Optional(StringEnum(['pending', 'succeeded', 'failed'] as const, { description: 'Only deliveries in this state.' })),
      }, { additionalProperties: false }),
      response: { 200: ListEnvelope(WebhookDeliverySchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const result = await withCtx(deps, request, (ctx) => listWebhookDeliveries(ctx, request.params.id, request.query.status, pageOf(request.query)));
    return page(request, result, deliveryView);
  });
}
