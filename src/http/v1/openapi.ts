// The v1 OpenAPI 3.0.3 document, generated from the v1 route records (route.ts), never written
// by hand. TypeBox writes JSON Schema 2020-12; OpenAPI 3.0 wants its own dialect, so each
// schema is rewritten: `examples: [x]` → `example: x`, `X | null` → `nullable: true`, `const` → `enum`.
import { STATUS_CODES } from 'node:http';
import type { TSchema } from '@sinclair/typebox';
import type { Config } from '../../config.ts';
import { ERROR_CODES } from '../error-codes.ts';
import { V1_MEANINGS, type V1ErrorCode } from './errors.ts';
import { type V1RouteRecord, v1Routes } from './route.ts';

export const V1_VERSION = '1.0.7';

type Json = Record<string, unknown>;

/** One JSON Schema (as TypeBox made it) → the OpenAPI 3.0 schema object. */
export function toOas30(schema: unknown): Json {
  const s = JSON.parse(JSON.stringify(schema)) as Json;
  return convert(s);
}

function convert(s: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === '$id' || k === 'default' && v === undefined) continue;
    if (k === 'examples') {
      if (Array.isArray(v) && v.length > 0) out.example = v[0];
      continue;
    }
    if (k === 'const') {
      out.enum = [v];
      continue;
    }
    if (k === 'properties') {
      out.properties = Object.fromEntries(Object.entries(v as Record<string, Json>).map(([n, p]) => [n, convert(p)]));
      continue;
    }
    if (k === 'items' && typeof v === 'object' && v !== null && !Array.isArray(v)) {
      out.items = convert(v as Json);
      continue;
    }
    if ((k === 'anyOf' || k === 'oneOf') && Array.isArray(v)) {
      const branches = (v as Json[]).filter((b) => b.type !== 'null');
      if (branches.length < v.length) {
        // X | null: OpenAPI 3.0 has no null type, only `nullable` on X.
        if (branches.length === 1) Object.assign(out, convert(branches[0]!), { nullable: true });
        else Object.assign(out, { anyOf: branches.map(convert), nullable: true });
        continue;
      }
      out[k] = (v as Json[]).map(convert);
      continue;
    }
    out[k] = v;
  }
  return out;
}

function describeErrors(status: string, codes: V1ErrorCode[]): string {
  const meaning = (c: V1ErrorCode) => V1_MEANINGS[c] ?? (c in ERROR_CODES ? ERROR_CODES[c as keyof typeof ERROR_CODES].meaning : '');
  return `${STATUS_CODES[Number(status)] ?? 'Error'}. \`error.code\` is one of:\n\n${codes.map((c) => `- \`${c}\`: ${meaning(c)}`).join('\n')}`;
}

const ERROR_SCHEMA = {
  type: 'object',
  required: ['success', 'error'],
  properties: {
    success: { type: 'boolean', enum: [false] },
    error: {
      type: 'object',
      required: ['code', 'message', 'details'],
      properties: {
        code: { type: 'string', example: 'INVALID_API_KEY' },
        message: { type: 'string', example: 'The API key is invalid or has been revoked' },
        details: {
          type: 'object',
          description: '`request_id` (quote it to support); `reason`: the precise code where `code` is a family '
            + '(INVALID_API_KEY, FORBIDDEN, NOT_FOUND); `fields`: for 422, each invalid field with its problem.',
          properties: {
            request_id: { type: 'string', example: 'req_7Hq2sLk9Xw3Zp5Nb8Vt1' },
            reason: { type: 'string', example: 'AUTH_IP_NOT_ALLOWED' },
            fields: { type: 'object', additionalProperties: { type: 'string' }, example: { server_name: 'must NOT have fewer than 1 characters' } },
          },
        },
      },
    },
  },
};

function parameters(r: V1RouteRecord): Json[] {
  const out: Json[] = [];
  for (const [where, schema] of [['path', r.params], ['query', r.querystring], ['header', r.headers]] as const) {
    const obj = schema as { properties?: Record<string, TSchema>; required?: string[] } | undefined;
    for (const [name, p] of Object.entries(obj?.properties ?? {})) {
      const converted = toOas30(p);
      const description = converted.description;
      delete converted.description;
      const required = where === 'path' || (obj!.required?.includes(name) === true && converted.default === undefined);
      // Fastify matches header names in lower case; the document spells them as clients send them.
      const shown = where === 'header' ? name.replace(/(^|-)([a-z])/g, (_m, dash: string, ch: string) => `${dash}${ch.toUpperCase()}`) : name;
      out.push({ name: shown, in: where, required, ...(description ? { description } : {}), schema: converted });
    }
  }
  return out;
}

function operation(r: V1RouteRecord): Json {
  const responses: Json = {
    [String(r.status)]: { description: STATUS_CODES[r.status] ?? 'Success', content: { 'application/json': { schema: toOas30(r.response) } } },
  };
  for (const [status, codes] of Object.entries(r.errorCodes)) {
    const headers = status === '429' || status === '503' ? { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : undefined;
    responses[status] = {
      description: describeErrors(status, codes),
      ...(headers ? { headers } : {}),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  const op: Json = { operationId: r.operationId, tags: [r.tag], summary: r.summary, parameters: parameters(r), responses };
  if (r.description) op.description = r.description;
  if (r.body) {
    const body = toOas30(r.body);
    op.requestBody = { required: Boolean((body.required as string[] | undefined)?.length), content: { 'application/json': { schema: body } } };
  }
  return op;
}

export function v1Document(config: Config): Json {
  const paths: Record<string, Json> = {};
  const tags = new Set<string>();
  for (const r of v1Routes()) {
    (paths[r.path] ??= {})[r.method.toLowerCase()] = operation(r);
    tags.add(r.tag);
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Hosting Cloud API v1 (legacy)',
      version: V1_VERSION,
      description: 'The legacy v1 API, served from the same core and data as v2 (see the v2 reference for the current API). '
        + 'Authenticate with `X-API-Key: <API_KEY>`; the calling IP must be on the key\'s allowlist. Success: '
        + '`{success: true, data, message?, pagination?}`; error: `{success: false, error: {code, message, details}}`.',
    },
    servers: [{ url: `${config.publicUrl}/v1`, description: 'This service' }],
    tags: [...tags].map((name) => ({ name, description: `${name} (v1).` })),
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The same keys as v2: `hc_live_…`, or `hc_test_…` for the sandbox.' } },
      headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', example: 12 } } },
      schemas: { Error: ERROR_SCHEMA },
    },
  };
}
