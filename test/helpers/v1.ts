// Calls to the v1 API (X-API-Key) whose every answer is checked against the v1 OpenAPI document:
// a success against the operation's response schema for its status, an error against the v1
// error envelope. So each test of a v1 endpoint also tests its shape against the document.
import assert from 'node:assert/strict';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { App } from '../../src/http/app.ts';
import { json } from './app.ts';

export interface V1Call {
  key?: string;
  ip?: string;
  body?: unknown;
  headers?: Record<string, string>;
  query?: Record<string, string>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const docs = new WeakMap<App, Promise<Json>>();
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
const compiled = new Map<string, ValidateFunction>();

async function docOf(app: App): Promise<Json> {
  let d = docs.get(app);
  if (!d) {
    d = app.inject({ method: 'GET', url: '/v1/openapi.json' }).then((r) => JSON.parse(r.body));
    docs.set(app, d);
  }
  return d;
}

function operationOf(doc: Json, method: string, url: string): { path: string; op: Json } | undefined {
  const path = url.split('?')[0]!.replace(/^\/v1/, '');
  for (const [template, item] of Object.entries(doc.paths as Record<string, Json>)) {
    const re = new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`);
    if (re.test(path) && item[method.toLowerCase()]) return { path: template, op: item[method.toLowerCase()] };
  }
  return undefined;
}

function validator(doc: Json, key: string, schema: Json): ValidateFunction {
  let v = compiled.get(key);
  if (!v) {
    // The error responses $ref the document's components.
    v = ajv.compile({ ...schema, components: doc.components });
    compiled.set(key, v);
  }
  return v;
}

/** Asserts that a v1 answer matches the v1 document (success shape, or the error envelope with a declared code). */
export async function assertV1Shape(app: App, method: string, url: string, res: LightMyRequestResponse): Promise<void> {
  const doc = await docOf(app);
  const found = operationOf(doc, method, url);
  const body = json(res);
  if (res.statusCode >= 400) {
    assert.equal(body.success, false, res.body);
    assert.equal(typeof body.error?.code, 'string', res.body);
    assert.equal(typeof body.error?.message, 'string', res.body);
    assert.equal(typeof body.error?.details, 'object', res.body);
    return;
  }
  assert.ok(found, `${method} ${url} is an operation of the v1 document`);
  const response = found.op.responses[String(res.statusCode)];
  assert.ok(response, `${method} ${found.path} documents status ${res.statusCode}`);
  const schema = response.content['application/json'].schema;
  const v = validator(doc, `${method} ${found.path} ${res.statusCode}`, schema);
  const valid = v(body) as boolean;
  assert.ok(valid, `${method} ${url} answer does not match the v1 document: ${ajv.errorsText(v.errors)}\n${res.body}`);
  assert.equal(body.success, true);
}

export async function v1(app: App, method: InjectOptions['method'], url: string, c: V1Call = {}): Promise<LightMyRequestResponse> {
  const res = await app.inject({
    method,
    url,
    remoteAddress: c.ip ?? '127.0.0.1',
    headers: { ...(c.key ? { 'x-api-key': c.key } : {}), ...c.headers },
    ...(c.query ? { query: c.query } : {}),
    ...(c.body !== undefined ? { payload: c.body as object } : {}),
  });
  if (res.headers['content-type']?.toString().startsWith('application/json')) await assertV1Shape(app, String(method), url, res);
  return res;
}

/** Asserts a v1 error: status, code and (optionally) the fields named in details.fields. */
export function expectV1Error(res: LightMyRequestResponse, status: number, code: string, fields?: string[]): Json {
  assert.equal(res.statusCode, status, res.body);
  const body = json(res);
  assert.equal(body.success, false);
  assert.equal(body.error.code, code, res.body);
  if (fields) assert.deepEqual(Object.keys(body.error.details.fields ?? {}).sort(), [...fields].sort(), res.body);
  return body.error;
}
