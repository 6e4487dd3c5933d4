// Webhook endpoints and their deliveries as v2 shows them. The secret is never part of the
// endpoint: only the create and the rotation answer it, beside the endpoint.
import { Type } from '@sinclair/typebox';
import { EVENT_FAMILIES } from '../../../core/events/catalogue.ts';
import { timestamp, ts } from '../../../core/time.ts';
import { DESCRIPTION_MAX, EVENTS_MAX } from '../../../core/webhooks/service.ts';
import { URL_MAX } from '../../../core/webhooks/url.ts';
import type { WebhookDelivery, WebhookEndpoint } from '../../../db/schema.ts';
import { NullableTimestamp, StringEnum, Timestamp, component, ref } from '../../schemas.ts';

export const WEBHOOK_ID = 'whk_5Hq2sLk9Xw3Zp5Nb';

const EVENTS_TEXT = `The event types sent to it: \`*\` (every type), a family such as \`server.*\` (${EVENT_FAMILIES.map((f) => `\`${f}\``).join(', ')}), `
  + 'or types such as `operation.completed`.';

export const WebhookUrl = Type.String({
  minLength: 1, maxLength: URL_MAX,
  description: 'Where deliveries are POSTed: an `https` URL whose host resolves to public addresses only (checked now, and again at every delivery, '
    + 'against the address connected to). Redirects are not followed.',
  examples: ['https://hooks.example.com/hostcloud'],
});
export const WebhookEvents = Type.Array(Type.String({ maxLength: 64, examples: ['server.*'] }), { minItems: 1, maxItems: EVENTS_MAX, description: EVENTS_TEXT, examples: [['operation.*', 'server.created']] });
export const WebhookDescription = Type.Union([Type.String({ maxLength: DESCRIPTION_MAX, examples: ['Provisioning pipeline'] }), Type.Null()], { description: 'Your note.' });

export const WebhookSchema = component('Webhook', Type.Object({
  id: Type.String({ examples: [WEBHOOK_ID] }),
  url: Type.String({ examples: ['https://hooks.example.com/hostcloud'] }),
  events: Type.Array(Type.String({ examples: ['*'] }), { description: EVENTS_TEXT, examples: [['*']] }),
  description: WebhookDescription,
  enabled: Type.Boolean({ description: 'false: nothing is sent to it (you disabled it, or the service did: see `disabled_reason`).' }),
  disabled_reason: Type.Union([Type.String(), Type.Null()], {
    description: 'Why the service disabled it: it answered 410 Gone, or every attempt failed for `WEBHOOK_DISABLE_AFTER_DAYS` (5) days. A notice '
      + 'was sent too. Enable it again with `PATCH {"enabled": true}`.',
    examples: [null],
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
}, { description: 'An endpoint events are delivered to, signed with its secret (Standard Webhooks).' }));

export function webhookView(w: Pick<WebhookEndpoint, 'id' | 'url' | 'events' | 'description' | 'enabled' | 'disabled_reason' | 'created_at' | 'updated_at'>) {
  return {
    id: w.id, url: w.url, events: w.events, description: w.description, enabled: w.enabled, disabled_reason: w.disabled_reason,
    created_at: ts(w.created_at), updated_at: ts(w.updated_at),
  };
}

const SecretField = Type.String({
  description: 'The signing secret, `whsec_` and base64: verify each delivery\'s `webhook-signature` with it. Shown only in this answer: keep it.',
  examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
});

export const WebhookWithSecretSchema = component('WebhookWithSecret', Type.Intersect([
  ref(WebhookSchema),
  Type.Object({ secret: SecretField }),
], { description: 'The endpoint with its signing secret (the only answers that show it: the create and `rotateWebhookSecret`).' }));

export const WebhookRotatedSchema = component('WebhookRotatedSecret', Type.Intersect([
  ref(WebhookSchema),
  Type.Object({
    secret: SecretField,
    previous_secret_expires_at: { ...Timestamp, description: 'Until then each delivery is signed with the old secret too (two signatures in `webhook-signature`).' },
  }),
], { description: 'The endpoint with its new signing secret.' }));

export const WebhookDeliverySchema = component('WebhookDelivery', Type.Object({
  id: Type.Integer({ examples: [90311] }),
  event_id: Type.String({ description: 'The event delivered; also the delivery\'s `webhook-id` header.', examples: ['evt_2Nf8sKq4Lm7Xp1Zr'] }),
  event_type: Type.String({ examples: ['server.created'] }),
  attempt: Type.Integer({ minimum: 0, description: 'Attempts made so far (at most 10).', examples: [1] }),
  status: StringEnum(['pending', 'succeeded', 'failed'] as const, {
    description: 'pending: not sent yet, or to be tried again at `next_attempt_at`; succeeded: a 2xx answer came within 15 s; failed: every attempt '
      + 'failed (the schedule is 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h after each), or the endpoint was disabled.',
  }),
  response_status: Type.Union([Type.Integer(), Type.Null()], { description: 'The HTTP status of the last attempt\'s answer; null without one (a timeout, a refused connection).', examples: [200] }),
  error: Type.Union([Type.String(), Type.Null()], { description: 'Why the last attempt failed.', examples: [null] }),
  created_at: Timestamp,
  next_attempt_at: { ...NullableTimestamp, description: 'While pending: when it is (next) tried. null once it succeeded or failed.' },
}, { description: 'One event\'s delivery to one endpoint, with its latest attempt.' }));

export function deliveryView(d: WebhookDelivery) {
  return {
    id: d.id, event_id: d.event_id, event_type: d.event_type, attempt: d.attempt, status: d.status, response_status: d.response_status, error: d.error,
    created_at: ts(d.created_at), next_attempt_at: d.status === 'pending' ? timestamp(d.next_attempt_at) : null,
  };
}

/** Path parameter of every webhook route. */
export const WebhookParams = Type.Object({ id: Type.String({ maxLength: 64, description: 'Webhook id (`whk_…`).', examples: [WEBHOOK_ID] }) });
