// The document's `webhooks` (OpenAPI 3.1): one entry per event type — what a webhook endpoint
// receives for it, with its headers and a sample body (http/v2/events/samples.ts, made by the
// presenters deliveries use). The reference shows them as its *Event catalogue*.
import { EVENT_CATALOGUE, type EventType } from '../../core/events/catalogue.ts';
import { eventSamples } from '../v2/events/samples.ts';

export const EVENT_CATALOGUE_TAG = {
  name: 'Event catalogue',
  description: 'What a webhook endpoint receives, one entry per event type: a POST of the event (the same object as GET /events/{id}), '
    + 'signed as Standard Webhooks specifies. See *Events and webhooks* in the introduction for verifying it, retries and deduplication.',
};

const HEADERS = [
  { name: 'webhook-id', description: 'The event\'s `id`: the same at every attempt, so deliveries can be deduplicated by it.', example: 'evt_2Nf8sKq4Lm7Xp1Zr' },
  { name: 'webhook-timestamp', description: 'When this attempt was signed, in Unix seconds.', example: '1795163464' },
  {
    name: 'webhook-signature',
    description: '`v1,` and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the secret\'s decoded bytes; '
      + 'two of them, space-separated, for 24 hours after a secret rotation.',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
];

const operationIdOf = (type: EventType) => `${type.replace(/[._](\w)/g, (_m, c: string) => c.toUpperCase())}Event`;

export function eventWebhooks(): Record<string, unknown> {
  return Object.fromEntries(eventSamples().map(({ type, when, sample }) => [type, {
    post: {
      operationId: operationIdOf(type),
      summary: type,
      description: `${when} \`resource.type\` is \`${EVENT_CATALOGUE[type].resource}\`.`,
      tags: [EVENT_CATALOGUE_TAG.name],
      security: [],
      parameters: HEADERS.map((h) => ({ name: h.name, in: 'header', required: true, description: h.description, schema: { type: 'string' }, example: h.example })),
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Event' }, examples: { [type]: { summary: `A ${type} event`, value: sample } } } },
      },
      responses: {
        200: { description: 'Any 2xx within 15 seconds: delivered.' },
        410: { description: 'Gone: the endpoint is disabled at once (a notice is sent). Any other answer, or none, is retried on the schedule.' },
      },
    },
  }]));
}
