// Two Ajv instances: query strings, params and headers arrive as text and are coerced to the
// schema's types; JSON bodies are not coerced ("5" is not an integer there). Both report every
// error (allErrors) so the client sees one errors[] item per bad field, and neither strips
// unknown body fields: an unknown field is an error the client should hear about.
import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { FieldError } from '../core/errors.ts';

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({ allErrors: true, coerceTypes: coerce ? 'array' : false, useDefaults: true, removeAdditional: false, strict: false });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return ajv;
}

const coercing = makeAjv(true);
const strict = makeAjv(false);

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

const INTEGER_TEXT = /^-?\d+$/;

/**
 * Ajv coerces text with Number(), so "1e1", "0x10", "5.0" and " 5 " would pass as integers.
 * Query and path integers must be written as plain digits; anything else is reported as the
 * same `type` error Ajv would give, so it names the parameter like every other error.
 */
function strictIntegers(schema: { properties?: Record<string, { type?: unknown }> }, validate: Validate): Validate {
  const names = Object.entries(schema.properties ?? {}).filter(([, s]) => s.type === 'integer').map(([k]) => k);
  if (names.length === 0) return validate;
  const wrapped: Validate = (data) => {
    const bad = names.filter((k) => {
      const v = (data as Record<string, unknown> | null)?.[k];
      return typeof v === 'string' && !INTEGER_TEXT.test(v);
    });
    const ok = validate(data);
    const rest = (validate.errors ?? []).filter((e) => !bad.some((k) => e.instancePath === `/${k}`));
    const own: ErrorObject[] = bad.map((k) => ({ instancePath: `/${k}`, schemaPath: '#/type', keyword: 'type', params: { type: 'integer' }, message: 'must be integer' }));
    wrapped.errors = [...own, ...rest];
    return ok && bad.length === 0;
  };
  return wrapped;
}

export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  if (httpPart === 'body') return strict.compile(schema) as ReturnType<FastifySchemaCompiler<object>>;
  return strictIntegers(schema as never, coercing.compile(schema) as Validate) as ReturnType<FastifySchemaCompiler<object>>;
};

/** Adds the shared schemas ($ref targets) to both instances. */
export function addSharedSchema(schema: object & { $id: string }): void {
  // The instances are shared by every app in the process (tests build several): add once.
  for (const ajv of [coercing, strict]) if (!ajv.getSchema(schema.$id)) ajv.addSchema(schema);
}

/** `idempotency-key` → `Idempotency-Key`: a header is named as clients write it (Fastify matches it in lower case). */
const headerName = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());

function fieldOf(e: ErrorObject, context: string): string {
  const parts = e.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'required') parts.push(String((e.params as { missingProperty: string }).missingProperty));
  if (e.keyword === 'additionalProperties') parts.push(String((e.params as { additionalProperty: string }).additionalProperty));
  if (parts.length === 0) return context === 'body' ? 'body' : context;
  if (context === 'headers') return headerName(parts.join('.'));
  return parts.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/** How a `format` is explained in errors[] (as the core words the same checks). */
const FORMATS: Record<string, string> = {
  uuid: 'must be a UUID, such as 3f1c2a9e-8b7d-4c6e-9f00-1a2b3c4d5e6f',
};

function messageOf(e: ErrorObject, context: string): string {
  switch (e.keyword) {
    case 'required': return 'is required';
    case 'additionalProperties': return context === 'querystring' ? 'is not a known query parameter' : 'is not a known field';
    case 'type': return `must be ${(e.params as { type: string }).type === 'integer' ? 'an integer' : `of type ${(e.params as { type: string }).type}`}`;
    case 'enum': return `must be one of: ${((e.params as { allowedValues: unknown[] }).allowedValues).join(', ')}`;
    case 'format': return FORMATS[(e.params as { format: string }).format] ?? e.message ?? 'is invalid';
    default: return e.message ?? 'is invalid';
  }
}

/** Ajv errors → one FieldError per field (the first problem found for each). */
export function fieldErrors(errors: ErrorObject[], context: string): FieldError[] {
  const out = new Map<string, FieldError>();
  for (const e of errors) {
    // anyOf/oneOf wrappers repeat what their branches already said.
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf' || e.keyword === 'if') continue;
    const field = fieldOf(e, context);
    if (!out.has(field)) out.set(field, { field, code: 'INVALID', message: messageOf(e, context) });
  }
  if (out.size === 0 && errors.length) out.set(context, { field: context, code: 'INVALID', message: 'is invalid' });
  return [...out.values()];
}
