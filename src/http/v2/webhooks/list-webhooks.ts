import { Type } from '@sinclair/typebox';
import { listWebhooks } from '../../../core/webhooks/service.ts';
import { withCtx } from '../../core-call.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, errorResponses } from '../../schemas.ts';
import { WebhookSchema, webhookView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/webhooks', {
    config: { area: 'webhooks' },
    schema: {
      operationId: 'listWebhooks',
      tags: ['Webhooks'],
      summary: 'List webhook endpoints',
      description: 'The account\'s webhook endpoints, oldest first (their secrets are never shown again). Needs `webhooks:read`.',
      querystring: Type.Object(PageQuery(), { additionalProperties: false }),
      response: { 200: ListEnvelope(WebhookSchema), ...errorResponses() },
    },
  }, async (request) => page(request, await withCtx(deps, request, (ctx) => listWebhooks(ctx, pageOf(request.query))), webhookView));
}
