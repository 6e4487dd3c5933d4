// The error responses of a route, per HTTP status, each with the exact `error.code` values it can
// carry (an enum), so the OpenAPI document tells a generated client what to switch on. A route
// names the codes its own rules raise; the codes that follow from how it is reached (key, rate
// limit, a request body) are added from its config by route-conventions.ts.
import { STATUS_CODES } from 'node:http';
import { type TSchema, Type } from '@sinclair/typebox';
import type { ErrorCode } from '../core/errors.ts';
import { ERROR_CODES } from './error-codes.ts';

/** What any route can answer: an unreadable request, a bad parameter, a bug, a database away. */
export const UNIVERSAL_ERRORS: readonly ErrorCode[] = ['REQUEST_MALFORMED', 'VALIDATION_FAILED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];

export type ErrorCodesByStatus = Record<string, ErrorCode[]>;

/**
 * A new empty object for keys that are HTTP statuses, stored compactly. V8 keeps keys like "503"
 * as array indices in a flat store sized past the largest (~770 slots: a 5 KB object); an object
 * first given an index far out of that range keeps them in a small dictionary (under 1 KB). The
 * ~300 routes' status tables held ~1.5 MB of the API's ~27 MB live heap the flat way. Reads,
 * writes and key order are the same either way.
 */
export function statusTable<T>(): Record<string, T> {
  const table: Record<string, T> = {};
  table[2 ** 24] = undefined as T;
  delete table[2 ** 24];
  return table;
}

/** Each error response schema → the codes it declares (so the codes can be merged later). */
const declared = new WeakMap<object, ErrorCode[]>();

/** The codes an error response schema made by this module declares, or undefined. */
export function declaredCodes(schema: unknown): ErrorCode[] | undefined {
  return typeof schema === 'object' && schema !== null ? declared.get(schema) : undefined;
}

function describe(status: number, codes: ErrorCode[]): string {
  const lines = codes.map((c) => `- \`${c}\`: ${ERROR_CODES[c].meaning}`);
  return `${STATUS_CODES[status] ?? 'Error'}. \`error.code\` is one of:\n\n${lines.join('\n')}`;
}

/** One status's response: the Error component with `error.code` narrowed to `codes`. */
export function errorResponse(status: number, codes: ErrorCode[]): TSchema {
  const sorted = [...new Set(codes)].sort();
  const schema = Type.Unsafe({
    // @fastify/swagger makes this the response's description (a `description` would also stay on the schema).
    'x-response-description': describe(status, sorted),
    allOf: [
      Type.Ref('Error'),
      {
        type: 'object',
        required: ['error'],
        properties: { error: { type: 'object', required: ['code'], properties: { code: { type: 'string', enum: sorted } } } },
      },
    ],
  });
  declared.set(schema, sorted);
  return schema;
}

/** Codes → { status: codes }, statuses from error-codes.ts. */
export function byStatus(codes: Iterable<ErrorCode>): ErrorCodesByStatus {
  const out = statusTable<ErrorCode[]>();
  for (const code of new Set(codes)) (out[String(ERROR_CODES[code].status)] ??= []).push(code);
  return out;
}

/**
 * The error responses of a route: spread into `response` next to its success schema, naming the
 * codes the route's own rules raise, e.g. `...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT')`.
 * The universal codes are always included; authentication, RATE_LIMITED and body-transport codes
 * are added by route-conventions.ts from the route's config and method.
 */
export function errorResponses(...codes: ErrorCode[]): Record<string, TSchema> {
  const out: Record<string, TSchema> = {};
  for (const [status, list] of Object.entries(byStatus([...UNIVERSAL_ERRORS, ...codes]))) out[status] = errorResponse(Number(status), list);
  return out;
}
