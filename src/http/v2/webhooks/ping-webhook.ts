import { pingWebhook } from '../../../core/webhooks/service.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { WebhookDeliverySchema, WebhookParams, deliveryView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/webhooks/:id/ping', {
    config: { area: 'webhooks' },
    schema: {
      operationId: 'pingWebhook',
      tags: ['Webhooks'],
      summary: 'Ping a webhook endpoint',
      description: 'Sends a `webhook.ping` event to this endpoint only (whatever its subscription), as any event is sent: signed, retried on '
        + 'failure. The answer is 202 with the delivery, `pending`; follow it in `listWebhookDeliveries`. A disabled endpoint is 409 '
        + '`STATE_CONFLICT` (enable it first). Needs `webhooks:write`.',
      params: WebhookParams,
      response: { 202: Envelope(WebhookDeliverySchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request, reply) => {
    const delivery = await withCtx(deps, request, (ctx) => pingWebhook(ctx, request.params.id));
    reply.code(202);
    return reply.send(ok(request, deliveryView(delivery)));
  });
}
