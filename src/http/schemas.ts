// Shared TypeBox pieces: named components, envelopes, money, timestamps, pagination. Route files
// build their request and response schemas from these; the same schemas validate, type and
// document (docs/contributing.md, "Adding an endpoint").
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { ERROR_CODES } from './error-codes.ts';

export { errorResponses } from './error-responses.ts';

const registry = new Map<string, TSchema>();

/**
 * A named schema: `components.schemas.<name>` in the OpenAPI document, a shared schema of the
 * app (validation and serialization resolve it), and referenced — never inlined — wherever it is
 * used: through Envelope/ListEnvelope, or ref() inside another schema.
 */
export function component<T extends TSchema>(name: string, schema: T): T & { $id: string } {
  if (registry.has(name)) throw new Error(`component ${name} is defined twice`);
  const named = { ...schema, $id: name };
  registry.set(name, named);
  return named;
}

/** Every component, for the app to add as shared schemas (app.ts). */
export function components(): (TSchema & { $id: string })[] {
  return [...registry.values()] as (TSchema & { $id: string })[];
}

/** A component by name (to resolve a `$ref`), or undefined. */
export function componentNamed(name: string): TSchema | undefined {
  return registry.get(name);
}

/** `$ref` to a component, typed as the component. */
export function ref<T extends TSchema>(schema: T) {
  if (!schema.$id || registry.get(schema.$id) !== schema) throw new Error('ref() takes a schema made with component()');
  return Type.Unsafe<Static<T>>(Type.Ref(schema.$id));
}

/** A component is referenced; any other schema is used as it is. */
function refIfNamed<T extends TSchema>(schema: T) {
  return schema.$id && registry.get(schema.$id) === schema ? ref(schema) : Type.Unsafe<Static<T>>(schema);
}

export const Timestamp = Type.String({ format: 'date-time', description: 'RFC 3339, UTC, whole seconds.', examples: ['2026-11-22T08:30:00Z'] });
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

export const MoneySchema = component('Money', Type.Object({
  amount: Type.String({ pattern: '^-?\\d+\\.\\d{2}$', description: 'Decimal, two places.', examples: ['12.50'] }),
  currency: Type.String({ description: 'Always USD.', examples: ['USD'] }),
}, { description: 'An amount of money. Amounts are decimal strings, never floating-point numbers.' }));

export const PaginationSchema = component('Pagination', Type.Object({
  page: Type.Integer({ minimum: 1, examples: [1] }),
  per_page: Type.Integer({ minimum: 1, examples: [25] }),
  total: Type.Integer({ minimum: 0, description: 'Items in every page together.', examples: [1] }),
  total_pages: Type.Integer({ minimum: 0, examples: [1] }),
}));

const metaFields = {
  request_id: Type.String({ description: 'Quote it to support; also in the `X-Request-Id` header.', examples: ['req_7Hq2sLk9Xw3Zp5Nb8Vt1'] }),
  version: Type.String({ examples: ['2.0.0'] }),
  sandbox: Type.Optional(Type.Boolean({
    description: 'Only on answers to a test key (`hc_test_…`), and then `true`: nothing was stored or charged. Absent on answers to a live key.',
  })),
  dry_run: Type.Optional(Type.Object({
    charged: Type.Object({ amount: Type.String({ examples: ['1.50'] }), currency: Type.String({ examples: ['USD'] }) }, { description: 'What the request would charge.' }),
    refunded: Type.Object({ amount: Type.String({ examples: ['0.00'] }), currency: Type.String({ examples: ['USD'] }) }, { description: 'What it would refund (a delete\'s unused hours).' }),
    balance_after: Type.Object({ amount: Type.String({ examples: ['48.50'] }), currency: Type.String({ examples: ['USD'] }) }, { description: 'The balance it would leave.' }),
  }, { description: 'Only on answers to a request sent with `Dry-Run: true`: nothing was stored or charged; this is what the request would do to the balance.' })),
};

// The samples of the reference show a live key's answer: without `sandbox` (a generated sample would show it `true`).
const META_EXAMPLE = { request_id: 'req_7Hq2sLk9Xw3Zp5Nb8Vt1', version: '2.0.0' };
export const MetaSchema = component('Meta', Type.Object(metaFields, { examples: [META_EXAMPLE] }));
export const ListMetaSchema = component('ListMeta', Type.Object({ ...metaFields, pagination: ref(PaginationSchema) }, {
  examples: [{ ...META_EXAMPLE, pagination: { page: 1, per_page: 25, total: 1, total_pages: 1 } }],
}));

/** The success envelope of one object. */
export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({ data: refIfNamed(data), meta: ref(MetaSchema) });
}

/** The success envelope of a page of a list. */
export function ListEnvelope<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(refIfNamed(item)), meta: ref(ListMetaSchema) });
}

export const ErrorCodeSchema = component('ErrorCode', Type.Unsafe<keyof typeof ERROR_CODES>({
  type: 'string',
  enum: Object.keys(ERROR_CODES),
  description: 'Every code of the API; each operation lists the ones it answers, per HTTP status. See the error catalog.',
}));

export const FieldErrorSchema = component('FieldError', Type.Object({
  field: Type.String({ description: 'The parameter, e.g. `location_id`, `source.snapshot_id` or `Idempotency-Key`.', examples: ['location_id'] }),
  code: Type.String({ description: '`INVALID`, or `INVALID_PASSWORD` for a password.', examples: ['INVALID'] }),
  message: Type.String({ examples: ['not a location servers can be created in (see GET /locations)'] }),
}));

export const ErrorEnvelope = component('Error', Type.Object({
  error: Type.Object({
    code: ref(ErrorCodeSchema),
    message: Type.String({ description: 'English, for people; branch on `code`.', examples: ['Server not found'] }),
    errors: Type.Array(ref(FieldErrorSchema), { description: 'One entry per invalid field; empty otherwise.' }),
    request_id: Type.String({ examples: ['req_7Hq2sLk9Xw3Zp5Nb8Vt1'] }),
    doc_url: Type.String({ description: "The code's entry in the error catalog.", examples: ['https://api.example.net/v2/docs/errors#RESOURCE_NOT_FOUND'] }),
  }),
}, { description: 'The error envelope of every failure.' }));

/** Largest page number accepted; keeps OFFSET within exact integer range. */
export const MAX_PAGE = 10_000_000;

/**
 * `page` and `per_page`. They have defaults, so the handler always sees numbers while the
 * document marks them optional (a parameter with a default is never required; docs/openapi.ts).
 */
export function PageQuery(maxPerPage = 100, defaultPerPage = 25) {
  return {
    page: Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: 'Page number, from 1.' }),
    per_page: Type.Integer({ minimum: 1, maximum: maxPerPage, default: defaultPerPage, description: `Items per page, 1 to ${maxPerPage}.` }),
  };
}

export const IntId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

/** A string enum as one JSON Schema `enum` (a union of literals would report one error per branch). */
export function StringEnum<const T extends readonly string[]>(values: T, opts: { description?: string; default?: T[number] } = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...opts });
}

/**
 * The `Idempotency-Key` request header of a billable POST (Fastify matches header names in lower
 * case; the document shows it as `Idempotency-Key` and adds `Idempotent-Replayed` to its answers).
 */
export const IdempotencyKeyHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({
    format: 'uuid',
    description: 'A UUID you generate per intended request. Retrying with the same key and body replays the first response '
      + '(with `Idempotent-Replayed: true`) instead of charging again; the same key with another body is 409 `IDEMPOTENCY_KEY_CONFLICT`. Kept 24 hours.',
    examples: ['3f1c2a9e-8b7d-4c6e-9f00-1a2b3c4d5e6f'],
  })),
});

/** The `Dry-Run` request header of a v2 write that charges or refunds (core-call.ts runs it and rolls it back). */
export const DryRunHeader = {
  'dry-run': Type.Optional(StringEnum(['true', 'false'] as const, {
    description: '`true`: the request is checked and run as it would be, then undone: nothing is stored, charged or sent to the platform. '
      + 'The answer is the one the request would get, with `meta.dry_run` saying what it would charge and refund — the price to show before a purchase.',
  })),
};

/** The headers of a v2 billable POST: Idempotency-Key and Dry-Run. */
export const BillableHeaders = Type.Object({ ...IdempotencyKeyHeaders.properties, ...DryRunHeader });

/** A decimal amount in USD as the admin API takes it: "150", "150.5", "150.00". */
export const AmountString = Type.String({ pattern: '^(0|[1-9]\\d{0,7})(\\.\\d{1,2})?$', description: 'USD, up to 2 decimals, e.g. "150.00"', examples: ['150.00'] });
