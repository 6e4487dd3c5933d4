import { Type } from '@sinclair/typebox';
import { updateWebhook } from '../../../core/webhooks/service.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { WebhookDescription, WebhookEvents, WebhookParams, WebhookSchema, WebhookUrl, webhookView } from './presenters.ts';
import { webhookRules } from './rules.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  const rules = webhookRules(deps.config);
  app.patch('/webhooks/:id', {
    config: { area: 'webhooks' },
    schema: {
      operationId: 'updateWebhook',
      tags: ['Webhooks'],
      summary: 'Change a webhook endpoint',
      description: 'Changes what is given: a new `url` is checked as at creation; `events` replaces the subscription; `enabled: false` stops '
        + 'deliveries (those still pending fail); `enabled: true` turns an endpoint back on, also one the service disabled (`disabled_reason`), '
        + 'and starts its count of failing days afresh. `description: null` removes the note. Needs `webhooks:write`.',
      params: WebhookParams,
      body: Type.Object({
        url: Type.Optional(WebhookUrl),
        events: Type.Optional(WebhookEvents),
        enabled: Type.Optional(Type.Boolean()),
        description: Type.Optional(WebhookDescription),
      }, { additionalProperties: false, 'x-examples': { disable: { summary: 'Stop deliveries', value: { enabled: false } } } }),
      response: { 200: Envelope(WebhookSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => ok(request, webhookView(await withCtx(deps, request, (ctx) => updateWebhook(ctx, request.params.id, request.body, rules)))));
}
