import { Type } from '@sinclair/typebox';
import { createWebhook } from '../../../core/webhooks/service.ts';
import { withCtx } from '../../core-call.ts';
import { locate, ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { WebhookDescription, WebhookEvents, WebhookUrl, WebhookWithSecretSchema, webhookView } from './presenters.ts';
import { webhookRules } from './rules.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  const rules = webhookRules(deps.config);
  app.post('/webhooks', {
    config: { area: 'webhooks' },
    schema: {
      operationId: 'createWebhook',
      tags: ['Webhooks'],
      summary: 'Register a webhook endpoint',
      description: 'Registers a URL to which events are POSTed as they happen, signed as Standard Webhooks specifies (see *Webhooks* in the '
        + 'introduction for the headers, how to verify them and the retry schedule). The answer carries the endpoint\'s signing `secret`: it is '
        + 'shown only here (and by `rotateWebhookSecret`), so keep it. `events` defaults to every type (`["*"]`). The URL must be `https` and '
        + 'resolve to public addresses only (a loopback, private, link-local, carrier-grade NAT or multicast address is 422 naming `url`). '
        + `At most \`WEBHOOK_MAX_PER_ACCOUNT\` (${deps.config.webhookMaxPerAccount} here) endpoints per account (else 422 \`QUOTA_EXCEEDED\`). `
        + 'Test it with `pingWebhook`. Needs `webhooks:write`.',
      body: Type.Object({
        url: WebhookUrl,
        events: Type.Optional(WebhookEvents),
        description: Type.Optional(WebhookDescription),
      }, { additionalProperties: false }),
      response: { 201: Envelope(WebhookWithSecretSchema), ...errorResponses('QUOTA_EXCEEDED') },
    },
  }, async (request, reply) => {
    const { webhook, secret } = await withCtx(deps, request, (ctx) => createWebhook(ctx, request.body, rules));
    reply.code(201);
    locate(reply, deps.config.publicUrl, 'v2', 'webhooks', webhook.id);
    return reply.send(ok(request, { ...webhookView(webhook), secret }));
  });
}
