// Shared TypeBox pieces: envelopes, money, timestamps, pagination. Route files build their
// request and response schemas from these; the same schemas validate, type and document.
import { type TSchema, Type } from '@sinclair/typebox';

export const Timestamp = Type.String({ format: 'date-time', examples: ['2026-11-22T08:30:00Z'] });
export const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);

export const MoneySchema = Type.Object({
  amount: Type.String({ pattern: '^-?\\d+\\.\\d{2}$', examples: ['12.50'] }),
  currency: Type.String({ examples: ['USD'] }),
}, { $id: 'Money', title: 'Money' });

export const Pagination = Type.Object({
  page: Type.Integer(),
  per_page: Type.Integer(),
  total: Type.Integer(),
  total_pages: Type.Integer(),
});

const Meta = Type.Object({
  request_id: Type.String(),
  version: Type.String({ examples: ['2.0.0'] }),
  sandbox: Type.Optional(Type.Boolean()),
});

const ListMeta = Type.Object({
  request_id: Type.String(),
  version: Type.String(),
  sandbox: Type.Optional(Type.Boolean()),
  pagination: Pagination,
});

export function Envelope<T extends TSchema>(data: T) {
  return Type.Object({ data, meta: Meta });
}

export function ListEnvelope<T extends TSchema>(item: T) {
  return Type.Object({ data: Type.Array(item), meta: ListMeta });
}

export const ErrorEnvelope = Type.Object({
  error: Type.Object({
    code: Type.String(),
    message: Type.String(),
    errors: Type.Array(Type.Object({ field: Type.String(), code: Type.String(), message: Type.String() })),
    request_id: Type.String(),
    doc_url: Type.String(),
  }),
}, { $id: 'Error', title: 'Error' });

/** Error responses every route may give, for the OpenAPI document (and serialization). */
export const errorResponses = {
  '4xx': Type.Ref(ErrorEnvelope),
  '5xx': Type.Ref(ErrorEnvelope),
};

/** Largest page number accepted; keeps OFFSET within exact integer range. */
export const MAX_PAGE = 10_000_000;

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

/** A decimal amount in USD as the admin API takes it: "150", "150.5", "150.00". */
export const AmountString = Type.String({ pattern: '^(0|[1-9]\\d{0,7})(\\.\\d{1,2})?$', description: 'USD, up to 2 decimals, e.g. "150.00"', examples: ['150.00'] });
