import { rotateWebhookSecret } from '../../../core/webhooks/service.ts';
import { ts } from '../../../core/time.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { WebhookParams, WebhookRotatedSchema, webhookView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/webhooks/:id/rotate-secret', {
    config: { area: 'webhooks' },
    schema: {
      operationId: 'rotateWebhookSecret',
      tags: ['Webhooks'],
      summary: 'Rotate a webhook\'s signing secret',
      description: 'Issues a new signing secret, shown only in this answer. For 24 hours every delivery carries two signatures in '
        + '`webhook-signature`, one with the new secret and one with the old (space-separated), so the receiver can switch to the new one '
        + 'without missing a delivery; then only the new one. Needs `webhooks:write`.',
      params: WebhookParams,
      response: { 200: Envelope(WebhookRotatedSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const { webhook, secret } = await withCtx(deps, request, (ctx) => rotateWebhookSecret(ctx, request.params.id));
    return ok(request, { ...webhookView(webhook), secret, previous_secret_expires_at: ts(webhook.previous_secret_expires_at!) });
  });
}
