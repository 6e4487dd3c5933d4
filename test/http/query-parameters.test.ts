// Unknown query parameters are refused as unknown body fields are: 422 VALIDATION_FAILED naming the
// parameter, in the envelope of the API called (v2, v1, admin), on every route — a typo
// (`?pre_page=1`) or a filter that does not exist (`?name=`, `?sort=`) must not answer everything.
// Every route's querystring schema is checked (built from the app itself, never a hand-picked few),
// the documented parameters of each are checked to pass, and each API is called over HTTP.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import type { RouteOptions } from 'fastify';
import { Type } from '@sinclair/typebox';
import { routesOf } from '../../src/http/app.ts';
import { closeQueryString } from '../../src/http/route-conventions.ts';
import { validatorCompiler } from '../../src/http/validation.ts';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { expectV1Error, v1 } from '../helpers/v1.ts';

let t: TestApp;
let c: Customer;

before(async () => {
  t = await startApp();
  c = await createCustomer(t);
});

interface Prop { type?: string; enum?: unknown[]; minimum?: number; minLength?: number; examples?: unknown[] }

/** A valid value, as query text, for a documented parameter. */
function sample(name: string, p: Prop): string {
  if (p.enum) return String(p.enum[0]);
  if (p.type === 'integer' || p.type === 'number') return String(p.minimum ?? 1);
  if (p.type === 'boolean') return 'true';
  if (p.examples?.length) return String(p.examples[0]);
  // Strings with a pattern of their own.
  const named: Record<string, string> = { domain: 'example.com', kind: 'ticket.answered' };
  if (named[name]) return named[name];
  return 'a'.repeat(Math.max(1, p.minLength ?? 1));
}

const API = /^\/(?:v2|v1|admin\/v1)(?:\/|$)/;

test('every route of v2, v1 and admin refuses unknown query parameters and takes the ones it documents', () => {
  const routes = routesOf(t.app).filter((r) => API.test(r.url));
  assert.ok(routes.length > 150, `routes: ${routes.length}`);
  let documented = 0;
  for (const r of routes) {
    const where = `${r.method} ${r.url}`;
    const schema = r.querySchema as { additionalProperties?: unknown; properties?: Record<string, Prop> } | undefined;
    assert.equal(schema?.additionalProperties, false, `${where}: its querystring schema is closed`);
    const known = Object.entries(schema!.properties ?? {});
    // A schema with no properties admits nothing (those are called over HTTP below).
    if (known.length === 0) continue;
    const validate = validatorCompiler({ schema: schema as object, httpPart: 'querystring', method: r.method, url: r.url }) as ((d: unknown) => boolean) & { errors?: unknown[] };
    assert.equal(validate({ pre_page: '1' }), false, `${where} refuses ?pre_page=1`);
    const query = Object.fromEntries(known.map(([k, p]) => [k, sample(k, p)]));
    assert.equal(validate(query), true, `${where} takes ${JSON.stringify(query)}: ${JSON.stringify(validate.errors)}`);
    documented += known.length;
  }
  assert.ok(documented > 50, `documented query parameters: ${documented}`);
});

test('v2: ?name=, ?sort=, the typo ?pre_page= → 422 naming the parameter; documented ones still answer 200', async () => {
  for (const q of ['name=web-1', 'sort=created_at', 'pre_page=1']) {
    const res = await call(t.app, 'GET', `/v2/servers?${q}`, { key: c.key });
    assert.equal(res.statusCode, 422, `${q}: ${res.body}`);
    const err = json(res).error;
    assert.equal(err.code, 'VALIDATION_FAILED');
    assert.deepEqual(err.errors, [{ field: q.split('=')[0], code: 'INVALID', message: 'is not a known query parameter' }]);
  }
  const two = json(await call(t.app, 'GET', '/v2/servers?page=1&colour=red&size=9', { key: c.key })).error;
  assert.deepEqual(two.errors.map((e: { field: string }) => e.field).sort(), ['colour', 'size'], 'every unknown parameter is named');
  assert.equal((await call(t.app, 'GET', '/v2/servers?page=1&per_page=5&status=active', { key: c.key })).statusCode, 200);
  // A route that takes no query parameter refuses any; so does a POST.
  const balance = await call(t.app, 'GET', '/v2/billing/balance?x=1', { key: c.key });
  assert.equal(balance.statusCode, 422, balance.body);
  assert.equal(json(balance).error.errors[0].field, 'x');
  assert.equal((await call(t.app, 'GET', '/v2/billing/balance', { key: c.key })).statusCode, 200);
  const ticket = await call(t.app, 'POST', '/v2/tickets?draft=1', { key: c.key, body: { subject: 'Hello', message: 'Hi there', department_id: 1 } });
  assert.equal(ticket.statusCode, 422, ticket.body);
  assert.equal(json(ticket).error.errors[0].field, 'draft');
  // Authentication still comes first: ?api_key= without a header is told where the key goes.
  const noKey = await call(t.app, 'GET', '/v2/servers?api_key=hc_live_x');
  assert.equal(noKey.statusCode, 401);
  assert.match(json(noKey).error.message, /\?api_key= query parameter is not supported/);
});

test('v1: unknown parameters → 422 VALIDATION_FAILED in the v1 envelope; its documented ones (limit, per_page, status) still work', async () => {
  expectV1Error(await v1(t.app, 'GET', '/v1/servers?sort=name', { key: c.key }), 422, 'VALIDATION_FAILED', ['sort']);
  expectV1Error(await v1(t.app, 'GET', '/v1/balance?x=1', { key: c.key }), 422, 'VALIDATION_FAILED', ['x']);
  expectV1Error(await v1(t.app, 'GET', '/v1/packages?per_page=5', { key: c.key }), 422, 'VALIDATION_FAILED', ['per_page']);
  for (const url of ['/v1/packages?page=1&limit=100', '/v1/servers?page=1&per_page=5&status=stopped', '/v1/tickets?status=open', '/v1/balance/transactions?per_page=5']) {
    const res = await v1(t.app, 'GET', url, { key: c.key });
    assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
  }
});

test('admin: unknown parameters → 422 naming them; documented ones still work', async () => {
  const res = await adminCall(t, 'GET', '/admin/v1/accounts?emial=a');
  assert.equal(res.statusCode, 422, res.body);
  assert.equal(json(res).error.errors[0].field, 'emial');
  assert.equal((await adminCall(t, 'GET', '/admin/v1/accounts?email=example&status=active&per_page=5')).statusCode, 200);
  const post = await adminCall(t, 'POST', '/admin/v1/billing/run?now=1');
  assert.equal(post.statusCode, 422, post.body);
});

test('a route whose querystring schema admits extras does not start; one without a schema gets a closed one', () => {
  const route = (querystring?: unknown) => ({ method: 'GET', url: '/v2/things', handler: () => undefined, schema: querystring ? { querystring } : undefined }) as unknown as RouteOptions;
  assert.throws(() => closeQueryString(route(Type.Object({ page: Type.Integer() }))), /GET \/v2\/things: its querystring schema must be an object with additionalProperties: false/);
  assert.throws(() => closeQueryString(route(Type.Object({}, { additionalProperties: true }))), /additionalProperties: false/);
  closeQueryString(route(Type.Object({ page: Type.Integer() }, { additionalProperties: false })));
  const bare = route();
  closeQueryString(bare);
  assert.deepEqual((bare.schema as { querystring: unknown }).querystring, { type: 'object', properties: {}, additionalProperties: false });
});
