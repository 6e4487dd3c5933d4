// How @fastify/swagger turns the v2 route schemas into the OpenAPI 3.1 document. Everything here
// is derived from the routes; what no single route states is added once, for all of them:
//  - paths relative to the server URL `<PUBLIC_URL>/v2`;
//  - each route's error responses, per status, from the codes route-conventions.ts recorded;
//  - a parameter with a default is optional; a body whose fields are all optional may be omitted
//    (route-conventions.ts makes the server accept that);
//  - the response headers every answer carries (X-Request-Id, RateLimit-*), Retry-After on 429 and 503,
//    Idempotent-Replayed where Idempotency-Key is accepted, Location on 201 and redirects;
//  - a curl sample per operation, built from its parameters' and body's examples.
import { STATUS_CODES } from 'node:http';
import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifySchema } from 'fastify';
import type { Config } from '../../config.ts';
import { type ErrorCodesByStatus, errorResponse } from '../error-responses.ts';
import { V2_VERSION } from '../reply.ts';
import { EVENT_CATALOGUE_TAG, eventWebhooks } from './event-webhooks.ts';
import { IDEMPOTENT_OPERATIONS, introduction } from './introduction.ts';

/** Tags in the order of the reference's sidebar, each with the description the linters ask for. */
const TAGS = [
  { name: 'Servers', description: 'Virtual servers: create (billable), read, rename, delete, power and other actions, snapshots, addresses, console, metrics and traffic.' },
  { name: 'Operations', description: 'Asynchronous work started by creates, actions and snapshots: wait on it (`?wait=`) until it completes or fails.' },
  { name: 'Events', description: 'What changed for the account (operations finished, resources created and deleted, payments, suspensions, tickets answered…), newest first; the same events webhooks deliver.' },
  { name: 'Webhooks', description: 'Endpoints events are POSTed to as they happen, signed (Standard Webhooks) and retried: register, change, rotate the secret, ping, read the delivery log.' },
  { name: 'VDC', description: 'Your virtual data center: the resource pool your provider set, and the VMs made from it (never charged per VM), their actions, usage and free snapshots.' },
  { name: 'Domains', description: 'Domain names: availability and prices, registration, transfer in and renewal (billable, one by one or in bulk), nameservers, transfer lock, WHOIS privacy and the EPP auth code.' },
  { name: 'DNS', description: 'DNS zones served by the service\'s nameservers and their records: A, AAAA, CNAME, MX, TXT, NS, SRV and CAA, served within seconds of each change.' },
  { name: 'Web hosting', description: 'Web hosting accounts on the control panel: order (billable), read with live disk usage, renew, cancel, and single-use control-panel login links.' },
  { name: 'Catalog', description: 'What can be bought: plans, packages, operating systems, locations, web hosting packages.' },
  { name: 'Billing', description: 'The prepaid balance and its ledger.' },
  { name: 'Account', description: 'The authenticated customer, its API keys and the calling key\'s IP allowlist.' },
  { name: 'Support tickets', description: 'Support departments and tickets: open one, read its thread, reply, close it.' },
  { name: 'Sub-users', description: 'People with access to the account through API keys of their own, limited to their permissions.' },
  { name: 'SSH keys', description: 'Public keys of the account, installed on servers created with them.' },
  { name: 'Reseller', description: 'Reseller status and the discount ladder by active server count.' },
  EVENT_CATALOGUE_TAG,
];

const header = (description: string, schema: object) => ({ description, schema });
const HEADERS = {
  'X-Request-Id': header('The id of this request, also in `meta.request_id` or `error.request_id`; quote it to support.', { type: 'string', examples: ['req_7Hq2sLk9Xw3Zp5Nb8Vt1'] }),
  'RateLimit-Limit': header('Requests allowed per window.', { type: 'integer', examples: [600] }),
  'RateLimit-Remaining': header('Requests left in the current window.', { type: 'integer', examples: [599] }),
  'RateLimit-Reset': header('Seconds until the window resets.', { type: 'integer', examples: [60] }),
  'Retry-After': header('Seconds to wait before retrying.', { type: 'integer', examples: [12] }),
  Location: header('On a 201, the URL of what was created (for something without a URL of its own, such as a ticket reply, the URL that shows it); '
    + 'on a redirect, where it leads (a link that opens an upstream system, such as the control panel).', { type: 'string', format: 'uri', examples: ['https://api.example.com/v2/servers/srv_8Hq2sLk9Xw3Zp5Nb'] }),
  'Idempotent-Replayed': header('`true` when this is the stored answer to an earlier request with the same `Idempotency-Key`.', { type: 'string', enum: ['true'] }),
};
const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });
const EVERY_RESPONSE = ['X-Request-Id', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'] as const;

interface Parameter { name: string; in: string; required?: boolean; example?: unknown; schema?: { default?: unknown; enum?: unknown[] } }
interface Schema { $ref?: string; required?: string[]; description?: string; properties?: Record<string, Schema>; items?: Schema }
interface Media { schema?: Schema; example?: unknown; examples?: Record<string, { value?: unknown }> }
interface Operation {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, Media> };
  responses?: Record<string, { description?: string; headers?: Record<string, unknown>; content?: Record<string, Media> }>;
  security?: unknown[];
  operationId?: string;
  [key: `x-${string}`]: unknown;
}
type Document = { paths?: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } } & Record<string, unknown>;

const shellQuote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

function curlSample(base: string, method: string, path: string, op: Operation, idempotent: boolean): string {
  const params = op.parameters ?? [];
  const url = path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const p = params.find((x) => x.in === 'path' && x.name === name);
    return String(p?.example ?? p?.schema?.enum?.[0] ?? `{${name}}`);
  });
  const query = params.filter((p) => p.in === 'query' && p.required).map((p) => `${p.name}=${encodeURIComponent(String(p.example ?? ''))}`);
  const lines = [`curl -X ${method.toUpperCase()} "${base}${url}${query.length ? `?${query.join('&')}` : ''}"`];
  if (op.security?.length !== 0) lines.push('-H "Authorization: Bearer $API_KEY"');
  if (idempotent) lines.push('-H "Idempotency-Key: $(uuidgen)"');
  const media = op.requestBody?.content?.['application/json'];
  if (media) {
    const example = media.example ?? Object.values(media.examples ?? {})[0]?.value;
    lines.push('-H "Content-Type: application/json"');
    if (example !== undefined) lines.push(`-d ${shellQuote(JSON.stringify(example))}`);
  }
  return lines.join(' \\\n  ');
}

/** The route's error responses, from the codes route-conventions.ts recorded for it. */
function withErrorResponses(schema: FastifySchema, codes: ErrorCodesByStatus | undefined): FastifySchema {
  if (!codes || !schema?.response) return schema;
  const errors = Object.fromEntries(Object.entries(codes).map(([status, list]) => [status, errorResponse(Number(status), list)]));
  return { ...schema, response: { ...(schema.response as object), ...errors } };
}

/** "Created. <the description of the data's component>" for a success envelope. */
function successDescription(doc: Document, status: string, envelope: Schema | undefined): string {
  const data = envelope?.properties?.data;
  const name = (data?.$ref ?? data?.items?.$ref)?.split('/').pop();
  const about = name ? doc.components?.schemas?.[name]?.description : undefined;
  const what = data?.items ? `A page of ${name ?? 'items'}.` : about;
  return [STATUS_CODES[Number(status)] ?? 'Success', what].filter(Boolean).join('. ');
}

/** The conventions no single route states, applied to every operation of the generated document. */
export function finishDocument(doc: Document, base: string): Document {
  const idempotentOperations: string[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      let idempotent = false;
      for (const p of op.parameters ?? []) {
        if (p.in !== 'path' && p.schema?.default !== undefined) delete p.required;
        if (p.in === 'header' && p.name === 'idempotency-key') {
          p.name = 'Idempotency-Key';
          idempotent = true;
          idempotentOperations.push(`\`${String(op.operationId)}\``);
        }
      }
      const media = op.requestBody?.content?.['application/json'];
      if (op.requestBody && !media?.schema?.required?.length) op.requestBody.required = false;
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (response.description === 'Default Response') response.description = successDescription(doc, status, response.content?.['application/json']?.schema);
        const names: (keyof typeof HEADERS)[] = [...EVERY_RESPONSE];
        // 429 (a rate limit: retry when its window resets) and 503 (a database outage: retry after the pause it names).
        if (status === '429' || status === '503') names.push('Retry-After');
        if (idempotent && status.startsWith('2')) names.push('Idempotent-Replayed');
        if (status.startsWith('3') || status === '201') names.push('Location');
        response.headers = { ...response.headers, ...Object.fromEntries(names.map((n) => [n, headerRef(n)])) };
      }
      op['x-codeSamples'] = [{ lang: 'Shell', label: 'curl', source: curlSample(base, method, path, op, idempotent) }];
    }
  }
  const info = doc.info as { description: string };
  info.description = info.description.replace(IDEMPOTENT_OPERATIONS, idempotentOperations.join(', '));
  // What webhook endpoints receive: one entry per event type.
  doc.webhooks = eventWebhooks();
  return doc;
}

export function openapiOptions(config: Config): FastifyDynamicSwaggerOptions {
  const base = `${config.publicUrl}/v2`;
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Hosting Cloud API',
        version: V2_VERSION,
        description: introduction(config.publicUrl),
        contact: { name: 'The operator of this service', url: `${base}/docs` },
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [{ url: base, description: 'This service' }],
      tags: TAGS,
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key: `hc_live_…`, or `hc_test_…` for the sandbox.' } },
        headers: HEADERS,
      },
      security: [{ bearer: [] }],
    },
    // Paths are made relative to the server URL here, whatever path PUBLIC_URL itself has.
    stripBasePath: false,
    transform: ({ schema, url, route }) => ({ schema: withErrorResponses(schema, route.config?.errorCodes), url: url.replace(/^\/v2(?=\/|$)/, '') || '/' }),
    transformObject: (doc) => ('openapiObject' in doc ? finishDocument(doc.openapiObject as Document, base) : doc.swaggerObject) as never,
    // Components are named by their $id (schemas.ts component()).
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
  };
}
