// TypeBox pieces of v1 schemas: its envelopes, money as a JSON number, its pagination. v1 schemas
// are plain (no named components): the v1 document (/v1/openapi.json) inlines them.
import { type TSchema, Type } from '@sinclair/typebox';

/** Money in v1: a JSON number with two decimals' precision (docs/behaviour.md, "v1 (legacy)"). */
export const V1Money = (description = 'USD, two decimals.') => Type.Number({ description, examples: [12.5] });

export const V1Timestamp = Type.String({ format: 'date-time', description: 'RFC 3339, UTC.', examples: ['2026-12-22T08:30:00Z'] });

/** A value or null (written out as OpenAPI 3.0's `nullable` in the v1 document). */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const V1PaginationSchema = Type.Object({
  current_page: Type.Integer({ minimum: 1, examples: [1] }),
  total: Type.Integer({ minimum: 0, description: 'Items in every page together.', examples: [1] }),
  total_pages: Type.Integer({ minimum: 0, examples: [1] }),
});

const success = Type.Boolean({ enum: [true], description: 'Always true on success.' });

/** `{success, data, message?}`. */
export function V1Data<T extends TSchema>(data: T) {
  return Type.Object({ success, data, message: Type.Optional(Type.String()) });
}

/** `{success, data: [...], pagination}`. */
export function V1List<T extends TSchema>(item: T) {
  return Type.Object({ success, data: Type.Array(item), message: Type.Optional(Type.String()), pagination: V1PaginationSchema });
}

/** `{success, message}`: the answer of actions that return nothing else. */
export const V1Message = Type.Object({ success, message: Type.String({ examples: ['Server is starting'] }) });

/**
 * `page` and `per_page` (or `limit`, where the v1 document names it), max 100
 * (docs/behaviour.md, "v1 (legacy)"); defaults keep the handler's numbers total.
 */
export function V1PageQuery(sizeName: 'per_page' | 'limit' = 'per_page', defaultSize = 25) {
  return {
    page: Type.Integer({ minimum: 1, maximum: 10_000_000, default: 1, description: 'Page number, from 1.' }),
    [sizeName]: Type.Integer({ minimum: 1, maximum: 100, default: defaultSize, description: 'Items per page, 1 to 100.' }),
  } as Record<'page' | typeof sizeName, ReturnType<typeof Type.Integer>>;
}

/** `{success, message}` with the route's own message as the documented example. */
export const V1MessageSaying = (example: string) => Type.Object({ success, message: Type.String({ examples: [example] }) });
