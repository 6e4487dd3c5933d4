import { deleteWebhook } from '../../../core/webhooks/service.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { WebhookParams, WebhookSchema, webhookView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.delete('/webhooks/:id', {
    config: { area: 'webhooks' },
    schema: {
      operationId: 'deleteWebhook',
      tags: ['Webhooks'],
      summary: 'Delete a webhook endpoint',
      description: 'Removes the endpoint and its delivery log, and answers it as it was. Deliveries still pending are not sent. Needs `webhooks:write`.',
      params: WebhookParams,
      response: { 200: Envelope(WebhookSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => ok(request, webhookView(await withCtx(deps, request, (ctx) => deleteWebhook(ctx, request.params.id)))));
}
