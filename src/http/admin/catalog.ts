// Catalog management for the operator: POST to add a row, PATCH to change one, GET to read them,
// and PUT for the fixed set of unit prices. One description per table (body fields, money fields);
// the routes are shared. The rules (price ceiling, discount decimals, the tier ladder) are the core's.
import { type TObject, type TProperties, Type } from '@sinclair/typebox';
import {
  type CatalogTable, createCatalogRow, createTldPrice, getCatalogRow, getTldPrice, listCatalog, listTldPrices, patchCatalogRow, patchTldPrice,
} from '../../core/catalog/service.ts';
import { deleteLocation } from '../../core/nodes/remove.ts';
import { UNITS, getUnitPrice, listUnitPrices, setUnitPrice } from '../../core/catalog/unit-prices.ts';
import { invalid } from '../../core/errors.ts';
import { formatCents, parseAmount } from '../../core/money.ts';
import type { TldPrice } from '../../db/schema.ts';
import { locate, ok, page, pageOf } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { AmountString, Envelope, IntId, ListEnvelope, PageQuery, errorResponses } from '../schemas.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'catalog' as const };
const tags = ['Admin catalog'];
const Name = Type.String({ minLength: 1, maxLength: 100 });
const Count = (min = 1) => Type.Integer({ minimum: min, maximum: 1_000_000 });
const Flag = Type.Boolean();
const Row = Type.Object({}, { additionalProperties: true });

interface TableSpec {
  path: string;
  table: CatalogTable | 'tld_prices';
  /** Fields of a new row; `required` lists those without a default. */
  fields: TProperties;
  required: string[];
  /** Body fields holding money ("5.00"); each fills the column `<field>_cents`. */
  money?: string[];
}

/** A table whose fields are all required. */
const all = (path: string, table: CatalogTable, fields: TProperties, money: string[] = []): TableSpec =>
  ({ path, table, fields, required: Object.keys(fields), money });

const SPECS: TableSpec[] = [
  {
    path: 'plans', table: 'plans',
    fields: { name: Name, cpu_cores: Count(), ram_mb: Count(), storage_gb: Count(), bandwidth_gb: Count(0), price: AmountString, available: Flag },
    required: ['name', 'cpu_cores', 'ram_mb', 'storage_gb', 'bandwidth_gb', 'price'],
    money: ['price'],
  },
  {
    path: 'locations', table: 'locations',
    fields: {
      name: Name, code: Type.String({ pattern: '^[a-z0-9-]{2,32}$' }), country: Type.String({ pattern: '^[A-Z]{2}$' }),
      provider: Type.String({ pattern: '^[a-z0-9_-]{1,32}$', description: '"primary" routes to the main virtualization platform' }), available: Flag,
    },
    required: ['name', 'code', 'country', 'provider'],
  },
  {
    path: 'operating-systems', table: 'operating_systems',
    fields: {
      family: Name, version: Type.String({ minLength: 1, maxLength: 32 }), slug: Type.String({ pattern: '^[a-z0-9.-]{2,64}$' }), available: Flag,
      image: Type.Union([Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._/:-]{0,254}$' }), Type.Null()], {
        description: 'COMPUTE_DRIVER=lxd: the LXD image servers of this OS are built from — an alias or fingerprint present on every node (null: none; creating with it is then 422 `OS_VERSION_INVALID`)',
        examples: ['debian/12'],
      }),
    },
    required: ['family', 'version', 'slug'],
  },
  {
    path: 'tld-prices', table: 'tld_prices',
    fields: {
      tld: Type.String({ pattern: '^\\.?[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*$', maxLength: 63, description: 'With or without the dot, any case: "COM" is stored as ".com"' }), register: AmountString, renewal: AmountString, transfer: AmountString,
      supports_whois_privacy: Flag, years_min: Type.Integer({ minimum: 1, maximum: 10 }), years_max: Type.Integer({ minimum: 1, maximum: 10 }),
      requires_contact: { ...Flag, description: 'Registrations need the registrant contact (default false)' },
    },
    required: ['tld', 'register', 'renewal', 'transfer'],
    money: ['register', 'renewal', 'transfer'],
  },
  {
    path: 'hosting-packages', table: 'hosting_packages',
    fields: { name: Name, disk_quota_mb: Count(), max_domains: Count(), monthly_price: AmountString, yearly_price: AmountString, active: Flag },
    required: ['name', 'disk_quota_mb', 'max_domains', 'monthly_price', 'yearly_price'],
    money: ['monthly_price', 'yearly_price'],
  },
  {
    path: 'departments', table: 'departments',
    fields: { name: Name, email: Type.String({ format: 'email', maxLength: 254 }), active: Flag },
    required: ['name', 'email'],
  },
  {
    path: 'reseller-tiers', table: 'reseller_tiers',
    fields: {
      min_servers: Count(0), max_servers: Type.Union([Count(0), Type.Null()], { description: 'null = open-ended top tier (only one)' }),
      // Not `multipleOf: 0.01`: Ajv checks it in floating point and refuses 0.07 or 33.33. The core checks the decimals.
      discount_percentage: Type.Number({ minimum: 0, maximum: 100, description: 'Up to 2 decimals' }),
    },
    required: ['min_servers', 'discount_percentage'],
  },
  all('email-packages', 'email_packages', { name: Name, disk_quota_mb: Count(), max_accounts: Count(), monthly_price: AmountString }, ['monthly_price']),
  all('colocation-packages', 'colocation_packages', {
    name: Name, type: Type.String({ pattern: '^[A-Za-z0-9_-]{1,32}$', description: 'e.g. 1U, quarter_rack' }), monthly_price: AmountString,
  }, ['monthly_price']),
  all('dedicated-packages', 'dedicated_packages', { name: Name, cpu_cores: Count(), ram_gb: Count(), storage_gb: Count(), monthly_price: AmountString }, ['monthly_price']),
  all('ip-subnet-packages', 'ip_subnet_packages', {
    name: Name, subnet_size: Type.Integer({ minimum: 8, maximum: 128, description: 'Prefix length, e.g. 29 (IPv4) or 64 (IPv6)' }), monthly_price: AmountString,
  }, ['monthly_price']),
];

function bodySchema(spec: TableSpec, create: boolean): TObject {
  const props: TProperties = {};
  for (const [k, v] of Object.entries(spec.fields)) props[k] = create && spec.required.includes(k) ? v : Type.Optional(v);
  return Type.Object(props, { additionalProperties: false, minProperties: create ? 0 : 1 });
}

/** "5.00" → 500; the schema admits only amounts, so null would be a schema bug. */
function cents(field: string, text: unknown): number {
  const c = parseAmount(String(text));
  if (c === null) throw invalid(field, 'must be an amount such as "5.00"');
  return c;
}

/** Body field names → columns; money text → cents. */
function toRow(spec: TableSpec, body: Record<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (spec.money?.includes(k)) row[`${k}_cents`] = cents(k, v);
    else row[k] = v;
  }
  return row;
}

/** Rows leave with money as decimal strings under the body's field names. */
function view(spec: TableSpec, row: object): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row };
  for (const field of spec.money ?? []) {
    out[field] = formatCents(Number(out[`${field}_cents`]));
    delete out[`${field}_cents`];
  }
  // NUMERIC arrives as text; the body took a JSON number.
  if ('discount_percentage' in out) out.discount_percentage = Number(out.discount_percentage);
  return out;
}

type PageOf = { items: object[]; page: number; perPage: number; total: number };

function registerTable(app: TypedApp, db: RouteDeps['db'], publicUrl: string, spec: TableSpec) {
  const isTld = spec.table === 'tld_prices';
  const table = spec.table as CatalogTable;
  const Key = isTld ? Type.Object({ id: Type.String({ maxLength: 64, description: 'The TLD, e.g. com or .com' }) }) : Type.Object({ id: IntId });
  const keyOf = (request: { params: unknown }) => (request.params as { id: string | number }).id;

  app.get(`/${spec.path}`, {
    config: admin,
    schema: { tags, querystring: Type.Object(PageQuery(), { additionalProperties: false }), response: { 200: ListEnvelope(Row), ...errorResponses() } },
  }, async (request) => {
    const p = pageOf(request.query);
    const result: PageOf = isTld ? await listTldPrices(db, p) : await listCatalog(db, table, p);
    return page(request, result, (r) => view(spec, r));
  });

  app.get(`/${spec.path}/:id`, {
    config: admin,
    schema: { tags, params: Key, response: { 200: Envelope(Row), ...errorResponses() } },
  }, async (request) => {
    const id = keyOf(request);
    return ok(request, view(spec, isTld ? await getTldPrice(db, String(id)) : await getCatalogRow(db, table, Number(id))));
  });

  app.post(`/${spec.path}`, {
    config: admin,
    schema: { tags, body: bodySchema(spec, true), response: { 201: Envelope(Row), ...errorResponses() } },
  }, async (request, reply) => {
    const values = toRow(spec, request.body as Record<string, unknown>);
    const row = isTld ? await createTldPrice(db, values as unknown as TldPrice) : await createCatalogRow(db, table, values as never);
    reply.code(201);
    locate(reply, publicUrl, 'admin', 'v1', spec.path, isTld ? (row as TldPrice).tld.replace(/^\./, '') : (row as { id: number }).id);
    return reply.send(ok(request, view(spec, row)));
  });

  app.patch(`/${spec.path}/:id`, {
    config: admin,
    schema: { tags, params: Key, body: bodySchema(spec, false), response: { 200: Envelope(Row), ...errorResponses() } },
  }, async (request) => {
    const id = keyOf(request);
    const patch = toRow(spec, request.body as Record<string, unknown>);
    const row = isTld ? await patchTldPrice(db, String(id), patch) : await patchCatalogRow(db, table, Number(id), patch as never);
    return ok(request, view(spec, row));
  });
}

/** Unit prices: a fixed set of units, so they are read and set (PUT), never added. */
function registerUnitPrices(app: TypedApp, db: RouteDeps['db']) {
  const UnitPrice = Type.Object({ unit: Type.String(), price: Type.String() });
  const Unit = Type.Object({ unit: Type.String({ maxLength: 64, description: UNITS.join(', ') }) });
  const unitView = (u: { unit: string; price_cents: number }) => ({ unit: u.unit, price: formatCents(u.price_cents) });
  const unitOf = (request: { params: unknown }) => (request.params as { unit: string }).unit;

  app.get('/unit-prices', {
    config: admin,
    schema: { tags, querystring: Type.Object(PageQuery(), { additionalProperties: false }), response: { 200: ListEnvelope(UnitPrice), ...errorResponses() } },
  }, async (request) => page(request, await listUnitPrices(db, pageOf(request.query)), unitView));

  app.get('/unit-prices/:unit', {
    config: admin,
    schema: { tags, params: Unit, response: { 200: Envelope(UnitPrice), ...errorResponses() } },
  }, async (request) => ok(request, unitView(await getUnitPrice(db, unitOf(request)))));

  app.put('/unit-prices/:unit', {
    config: admin,
    schema: {
      tags, params: Unit, body: Type.Object({ price: AmountString }, { additionalProperties: false }),
      response: { 200: Envelope(UnitPrice), ...errorResponses() },
    },
  }, async (request) => {
    const { price } = request.body as { price: string };
    return ok(request, unitView(await setUnitPrice(db, unitOf(request), cents('price', price))));
  });
}

export function register(app: TypedApp, { db, config }: RouteDeps) {
  for (const spec of SPECS) registerTable(app, db, config.publicUrl, spec);
  registerUnitPrices(app, db);
  // Only locations are deleted: other catalog rows are retired with `available`/`active` false.
  app.delete('/locations/:id', {
    config: admin,
    schema: {
      operationId: 'deleteLocation', tags, summary: 'Delete a location nothing uses',
      description: 'Answers the location as it was. 409 `STATE_CONFLICT` while any node, IP pool, server or VDC VM (deleted ones until purged), hosting node or web hosting account refers to it: set `available` false instead.',
      params: Type.Object({ id: IntId }),
      response: { 200: Envelope(Row), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request) => ok(request, await deleteLocation(db, request.params.id)));
}
