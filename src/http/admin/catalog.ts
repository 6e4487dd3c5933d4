// Catalog management for the operator: POST to add a row, PATCH to change one, GET to read them.
// One description per table (body fields, money fields, how a row is shown); the routes are shared.
import { type TObject, type TProperties, Type } from '@sinclair/typebox';
import {
  type CatalogTable, createCatalogRow, createTldPrice, getCatalogRow, getTldPrice, listCatalog, listTldPrices, patchCatalogRow, patchTldPrice,
} from '../../core/catalog/service.ts';
import { ApiError, type FieldError } from '../../core/errors.ts';
import { formatCents, parseAmount } from '../../core/money.ts';
import type { TldPrice } from '../../db/schema.ts';
import { ok, page, pageOf } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { AmountString, Envelope, IntId, ListEnvelope, PageQuery, errorResponses } from '../schemas.ts';

const admin = { auth: 'admin' as const, rateLimit: false };
const Name = Type.String({ minLength: 1, maxLength: 100 });
const Count = (min = 1) => Type.Integer({ minimum: min, maximum: 1_000_000 });
const Flag = Type.Boolean();

interface TableSpec {
  path: string;
  table: CatalogTable | 'tld_prices';
  /** Fields of a new row; `required` lists those without a default. */
  fields: TProperties;
  required: string[];
  /** Body fields holding money ("5.00") and the *_cents column each fills. */
  money: Record<string, string>;
  /** Numeric body fields with at most 2 decimals (stored NUMERIC(…, 2)). */
  decimals?: string[];
}

const SPECS: TableSpec[] = [
  {
    path: 'plans', table: 'plans',
    fields: { name: Name, cpu_cores: Count(), ram_mb: Count(), storage_gb: Count(), bandwidth_gb: Count(0), price: AmountString, available: Flag },
    required: ['name', 'cpu_cores', 'ram_mb', 'storage_gb', 'bandwidth_gb', 'price'],
    money: { price: 'price_cents' },
  },
  {
    path: 'locations', table: 'locations',
    fields: {
      name: Name, code: Type.String({ pattern: '^[a-z0-9-]{2,32}$' }), country: Type.String({ pattern: '^[A-Z]{2}$' }),
      provider: Type.String({ pattern: '^[a-z0-9_-]{1,32}$', description: '"primary" routes to the main virtualization platform' }), available: Flag,
    },
    required: ['name', 'code', 'country', 'provider'],
    money: {},
  },
  {
    path: 'operating-systems', table: 'operating_systems',
    fields: { family: Name, version: Type.String({ minLength: 1, maxLength: 32 }), slug: Type.String({ pattern: '^[a-z0-9.-]{2,64}$' }), available: Flag },
    required: ['family', 'version', 'slug'],
    money: {},
  },
  {
    path: 'tld-prices', table: 'tld_prices',
    fields: {
      tld: Type.String({ pattern: '^\\.?[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*$', maxLength: 63, description: 'With or without the dot, any case: "COM" is stored as ".com"' }), register: AmountString, renewal: AmountString, transfer: AmountString,
      supports_whois_privacy: Flag, years_min: Type.Integer({ minimum: 1, maximum: 10 }), years_max: Type.Integer({ minimum: 1, maximum: 10 }),
    },
    required: ['tld', 'register', 'renewal', 'transfer'],
    money: { register: 'register_cents', renewal: 'renewal_cents', transfer: 'transfer_cents' },
  },
  {
    path: 'hosting-packages', table: 'hosting_packages',
    fields: { name: Name, disk_quota_mb: Count(), max_domains: Count(), monthly_price: AmountString, yearly_price: AmountString, active: Flag },
    required: ['name', 'disk_quota_mb', 'max_domains', 'monthly_price', 'yearly_price'],
    money: { monthly_price: 'monthly_price_cents', yearly_price: 'yearly_price_cents' },
  },
  {
    path: 'departments', table: 'departments',
    fields: { name: Name, email: Type.String({ format: 'email', maxLength: 254 }), active: Flag },
    required: ['name', 'email'],
    money: {},
  },
  {
    path: 'reseller-tiers', table: 'reseller_tiers',
    fields: {
      min_servers: Count(0), max_servers: Type.Union([Count(0), Type.Null()], { description: 'null = open-ended top tier' }),
      // Not `multipleOf: 0.01`: Ajv checks it in floating point and refuses 0.07 or 33.33.
      discount_percentage: Type.Number({ minimum: 0, maximum: 100, description: 'Up to 2 decimals' }),
    },
    required: ['min_servers', 'discount_percentage'],
    money: {},
    decimals: ['discount_percentage'],
  },
];

function bodySchema(spec: TableSpec, create: boolean): TObject {
  const props: TProperties = {};
  for (const [k, v] of Object.entries(spec.fields)) props[k] = create && spec.required.includes(k) ? v : Type.Optional(v);
  return Type.Object(props, { additionalProperties: false, minProperties: create ? 0 : 1 });
}

function toRow(spec: TableSpec, body: Record<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  for (const [k, v] of Object.entries(body)) {
    const column = spec.money[k];
    if (column) {
      const cents = parseAmount(String(v));
      if (cents === null) errors.push({ field: k, code: 'INVALID', message: 'must be an amount such as "5.00"' });
      row[column] = cents;
    } else if (spec.decimals?.includes(k) && typeof v === 'number') {
      // Hundredths as an integer, tolerating the float error of e.g. 33.33 * 100; stored as exact text.
      const hundredths = Math.round(v * 100);
      if (Math.abs(hundredths - v * 100) > 1e-6) errors.push({ field: k, code: 'INVALID', message: 'must have at most 2 decimals' });
      row[k] = formatCents(hundredths);
    } else {
      row[k] = v;
    }
  }
  if (errors.length) throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', errors);
  return row;
}

/** Rows leave with money as decimal strings under the body's field names. */
function view(spec: TableSpec, row: object): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row };
  for (const [field, column] of Object.entries(spec.money)) {
    out[field] = formatCents(Number(out[column]));
    delete out[column];
  }
  if ('discount_percentage' in out) out.discount_percentage = Number(out.discount_percentage);
  return out;
}

export function register(app: TypedApp, { db }: RouteDeps) {
  const Row = Type.Object({}, { additionalProperties: true });
  for (const spec of SPECS) {
    const isTld = spec.table === 'tld_prices';
    const Key = isTld ? Type.Object({ id: Type.String({ maxLength: 64, description: 'The TLD, e.g. com or .com' }) }) : Type.Object({ id: IntId });
    const tags = ['Admin catalog'];

    app.get(`/${spec.path}`, {
      config: admin,
      schema: { tags, querystring: Type.Object(PageQuery()), response: { 200: ListEnvelope(Row), ...errorResponses } },
    }, async (request) => {
      const p = pageOf(request.query);
      const result = isTld ? await listTldPrices(db, p) : await listCatalog(db, spec.table as CatalogTable, {}, p);
      return page(request, result as { items: object[]; page: number; perPage: number; total: number }, (r) => view(spec, r));
    });

    app.get(`/${spec.path}/:id`, {
      config: admin,
      schema: { tags, params: Key, response: { 200: Envelope(Row), ...errorResponses } },
    }, async (request) => {
      const id = (request.params as { id: string | number }).id;
      const row = isTld ? await getTldPrice(db, String(id)) : await getCatalogRow(db, spec.table as CatalogTable, Number(id));
      return ok(request, view(spec, row));
    });

    app.post(`/${spec.path}`, {
      config: admin,
      schema: { tags, body: bodySchema(spec, true), response: { 201: Envelope(Row), ...errorResponses } },
    }, async (request, reply) => {
      const values = toRow(spec, request.body as Record<string, unknown>);
      const row = isTld
        ? await createTldPrice(db, values as unknown as TldPrice)
        : await createCatalogRow(db, spec.table as CatalogTable, values as never);
      return reply.code(201).send(ok(request, view(spec, row)));
    });

    app.patch(`/${spec.path}/:id`, {
      config: admin,
      schema: { tags, params: Key, body: bodySchema(spec, false), response: { 200: Envelope(Row), ...errorResponses } },
    }, async (request) => {
      const id = (request.params as { id: string | number }).id;
      const patch = toRow(spec, request.body as Record<string, unknown>);
      const row = isTld ? await patchTldPrice(db, String(id), patch) : await patchCatalogRow(db, spec.table as CatalogTable, Number(id), patch as never);
      return ok(request, view(spec, row));
    });
  }
}
