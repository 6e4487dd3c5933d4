import { getWebhook } from '../../../core/webhooks/service.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { WebhookParams, WebhookSchema, webhookView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/webhooks/:id', {
    config: { area: 'webhooks' },
    schema: {
      operationId: 'getWebhook',
      tags: ['Webhooks'],
      summary: 'Get a webhook endpoint',
      description: 'One endpoint (without its secret). Another account\'s id is 404. Needs `webhooks:read`.',
      params: WebhookParams,
      response: { 200: Envelope(WebhookSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => ok(request, webhookView(await withCtx(deps, request, (ctx) => getWebhook(ctx, request.params.id)))));
}
