// Every string a client sends must be valid Unicode, and bodies must be UTF-8 JSON — for EVERY
// route, so the table below is built from the app itself: every operation of the OpenAPI document
// (GET /v2/openapi.json) plus every other route the app registers (the admin API, health, docs),
// never a hand-picked few. For each:
// - with a body (POST/PUT/PATCH/DELETE): a lone surrogate in a string value and in a field name →
//   422 VALIDATION_FAILED naming the field; charset=utf-16 / latin1 → 415; bytes that are not
//   UTF-8 (a stray 0xFF, a CESU-8 encoded surrogate) → 400 REQUEST_MALFORMED;
// - with path parameters: a percent-encoded surrogate (%ED%A0%80, which is not UTF-8) → 400;
// - GET: the same in a query value → 400 REQUEST_MALFORMED naming the parameter.
// A lone surrogate can reach us as a JS string only through JSON's \ud800 escape; in a URL it
// can only be bytes, and bytes that are not UTF-8 are a malformed request (400), not a field (422).
import assert from 'node:assert/strict';
import net from 'node:net';
import { before, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { routesOf } from '../../src/http/app.ts';
import { type Customer, type TestApp, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { type PanelOwner, signedInOwner } from '../helpers/panel.ts';

let t: TestApp;
let c: Customer;

interface Op {
  method: string;
  /** Fastify form, /v2/servers/:id */
  url: string;
  bodyFields: string[];
}

let ops: Op[] = [];
let panel: PanelOwner;

before(async () => {
  t = await startApp();
  c = await createCustomer(t, { deposit: '10.00' });
  const doc = json(await call(t.app, 'GET', '/v2/openapi.json'));
  const registered = routesOf(t.app);
  const key = (m: string, u: string) => `${m} ${u}`;
  const known = new Set(registered.map((r) => key(r.method, r.url)));
  // The document's operations must all be routes of the app (so none escapes the table).
  for (const [p, item] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
    for (const m of Object.keys(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(m)) continue;
      // Document paths are relative to its server URL, which ends in /v2.
      const url = `/v2${p}`.replace(/\{(\w+)\}/g, ':$1');
      assert.ok(known.has(key(m.toUpperCase(), url)), `${m.toUpperCase()} ${p} of the document is a route`);
    }
  }
  panel = await signedInOwner(t);
  // v1 routes answer in their own envelope and read X-API-Key: test/v1/adapter.test.ts covers them.
  // The panel's catch-alls (its page, unknown /panel/api paths) are no endpoints; its sign-out would
  // end the session the other panel routes are sent with, as would DELETE /panel/api/session (test/panel covers them).
  // The console's sign-in steps (staff-open) check the CSRF token of the page first, as a browser's
  // form is; test/admin/staff.test.ts sends them as the console does.
  ops = registered.filter((r) => !r.url.startsWith('/v1/') && !r.url.includes('*') && r.url !== '/panel/api/sign-out' && r.url !== '/panel/api/session' && r.config.auth !== 'staff-open').map((r) => ({
    method: r.method,
    url: r.url,
    bodyFields: Object.keys((r.bodySchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {}),
  }));
});

/** Sends bytes as they are to the app on a real socket; the whole answer as text. */
async function rawRequest(bytes: Buffer): Promise<string> {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as net.AddressInfo;
  return new Promise((resolve, reject) => {
    let out = '';
    const sock = net.connect(port, '127.0.0.1', () => sock.end(bytes));
    sock.on('data', (d) => { out += d; });
    sock.on('end', () => resolve(out));
    sock.on('error', reject);
  });
}

const hasBody = (op: Op) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(op.method);
const isAdmin = (op: Op) => op.url.startsWith('/admin/') || op.url === '/metrics';
const concrete = (op: Op, param = 'x1') => op.url.replace(/:\w+/g, param);

function send(op: Op, opts: { url?: string; payload?: string | Buffer; contentType?: string }): Promise<LightMyRequestResponse> {
  const auth = isAdmin(op) ? t.adminToken : c.key;
  // The panel's routes take its session cookie and CSRF token, as the page sends them.
  const credentials = op.url.startsWith('/panel/')
    ? { cookie: [...panel.client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': panel.client.csrf }
    : { authorization: `Bearer ${auth}` };
  return t.app.inject({
    method: op.method as 'GET',
    url: opts.url ?? concrete(op),
    remoteAddress: '127.0.0.1',
    headers: { ...credentials, ...(opts.contentType ? { 'content-type': opts.contentType } : {}) },
    ...(opts.payload !== undefined ? { payload: opts.payload } : {}),
  });
}

function expectError(op: Op, what: string, res: LightMyRequestResponse, status: number, code: string): { message: string; errors: { field: string; message: string }[] } {
  assert.equal(res.statusCode, status, `${op.method} ${op.url} (${what}): ${res.body}`);
  const body = json(res);
  assert.equal(body.error.code, code, `${op.method} ${op.url} (${what})`);
  // The answer itself is valid UTF-8 JSON whatever the client sent.
  assert.equal(new TextDecoder('utf-8', { fatal: true }).decode(res.rawPayload), res.body);
  return body.error;
}

test('the table covers every route: the whole OpenAPI document, the admin API and the rest', () => {
  const count = (f: (op: Op) => boolean) => ops.filter(f).length;
  assert.ok(count((op) => op.url.startsWith('/v2/')) >= 40, `v2 routes: ${count((op) => op.url.startsWith('/v2/'))}`);
  assert.ok(count((op) => op.url.startsWith('/admin/v1/')) >= 30, `admin routes: ${count((op) => op.url.startsWith('/admin/v1/'))}`);
  assert.ok(count(hasBody) >= 30);
  process.stdout.write(`# text input table: ${ops.length} routes, ${count(hasBody)} with a body, ${count((op) => op.url.includes(':'))} with path parameters\n`);
});

test('a lone surrogate in a body string → 422 VALIDATION_FAILED naming the field, on every route with a body', async () => {
  for (const op of ops.filter(hasBody)) {
    const field = op.bodyFields[0] ?? 'name';
    // Written as JSON text: the \ud800 escape is exactly what a client's JSON encoder produces.
    const payload = `{"${field}":"Str0ng!Passw0rd\\ud800"}`;
    const err = expectError(op, 'surrogate value', await send(op, { payload, contentType: 'application/json' }), 422, 'VALIDATION_FAILED');
    assert.deepEqual(err.errors.map((e) => e.field), [field], `${op.method} ${op.url}`);
    assert.match(err.errors[0]!.message, /not valid Unicode/);
  }
});

test('a lone surrogate in a field name (nested, too) → 422 naming it, on every route with a body', async () => {
  for (const op of ops.filter(hasBody)) {
    const payload = '{"outer":{"ke\\udc00y":1}}';
    const err = expectError(op, 'surrogate key', await send(op, { payload, contentType: 'application/json' }), 422, 'VALIDATION_FAILED');
    assert.deepEqual(err.errors.map((e) => e.field), ['outer.ke\ufffdy'], `${op.method} ${op.url}`);
    assert.match(err.errors[0]!.message, /field name is not valid Unicode/);
  }
});

test('charset=utf-16 or latin1 → 415 UNSUPPORTED_MEDIA_TYPE; charset=UTF-8 is accepted — on every route with a body', async () => {
  for (const op of ops.filter(hasBody)) {
    const utf16 = Buffer.from('\ufeff{"name":"x"}', 'utf16le');
    expectError(op, 'utf-16', await send(op, { payload: utf16, contentType: 'application/json; charset=utf-16' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectError(op, 'latin1', await send(op, { payload: Buffer.from('{"name":"caf\xe9"}', 'latin1'), contentType: 'application/json;charset=ISO-8859-1' }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    const ok = await send(op, { payload: '{}', contentType: 'application/json; charset="UTF-8"' });
    assert.ok(![400, 415, 500].includes(ok.statusCode), `${op.method} ${op.url} with charset=UTF-8: ${ok.statusCode} ${ok.body}`);
  }
});

test('a body that is not UTF-8 → 400 REQUEST_MALFORMED, never repaired — on every route with a body', async () => {
  for (const op of ops.filter(hasBody)) {
    const field = op.bodyFields[0] ?? 'name';
    const stray = Buffer.concat([Buffer.from(`{"${field}":"caf`), Buffer.from([0xff]), Buffer.from('"}')]);
    const err = expectError(op, '0xFF', await send(op, { payload: stray, contentType: 'application/json' }), 400, 'REQUEST_MALFORMED');
    assert.match(err.message, /not valid UTF-8/);
    // A surrogate encoded as bytes (CESU-8) is not UTF-8 either.
    const cesu = Buffer.concat([Buffer.from(`{"${field}":"a`), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]);
    expectError(op, 'CESU-8', await send(op, { payload: cesu, contentType: 'application/json' }), 400, 'REQUEST_MALFORMED');
  }
});

test('a percent-encoded surrogate (bytes that are not UTF-8) in a path parameter → 400 REQUEST_MALFORMED, on every route with one', async () => {
  for (const op of ops.filter((o) => o.url.includes(':'))) {
    const res = await send(op, { url: concrete(op, 'ab%ED%A0%80'), ...(hasBody(op) ? { payload: '{}', contentType: 'application/json' } : {}) });
    expectError(op, 'path', res, 400, 'REQUEST_MALFORMED');
  }
});

test('a percent-encoded surrogate in a query value → 400 REQUEST_MALFORMED naming the parameter, on every GET route', async () => {
  for (const op of ops.filter((o) => o.method === 'GET')) {
    const err = expectError(op, 'query', await send(op, { url: `${concrete(op)}?page=1&name=ab%ED%A0%80` }), 400, 'REQUEST_MALFORMED');
    assert.match(err.message, /query parameter name is not validly percent-encoded UTF-8/);
  }
});

test('valid text passes: non-BMP characters (a surrogate pair) and percent-encoded UTF-8 are fine', async () => {
  const admin = { authorization: `Bearer ${t.adminToken}` };
  const res = await call(t.app, 'POST', '/admin/v1/accounts', { headers: admin, body: { email: 'emoji@example.com', name: 'Zoë 😀 Ltd' } });
  assert.equal(res.statusCode, 201, res.body);
  assert.equal(json(res).data.name, 'Zoë 😀 Ltd');
  const list = await t.app.inject({ method: 'GET', url: '/v2/billing/transactions?type=%F0%9F%98%80', headers: { authorization: `Bearer ${c.key}` } });
  assert.equal(list.statusCode, 422, 'a well-formed value reaches validation (not a known type)');
  assert.equal(json(list).error.errors[0].field, 'type');
  // Raw bytes above 0x7F (UTF-8 "é" unencoded) can only be sent over a socket: inject would encode them.
  const raw = await rawRequest(Buffer.concat([
    Buffer.from('GET /v2/billing/transactions?type='), Buffer.from('é'), Buffer.from(` HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${c.key}\r\nConnection: close\r\n\r\n`),
  ]));
  assert.match(raw, /^HTTP\/1\.1 400 /, 'raw bytes above 0x7F in a URL are refused, not read as Latin-1');
  assert.match(raw, /REQUEST_MALFORMED/);
  const bare = await t.app.inject({ method: 'GET', url: '/v2/billing/transactions?type=100%', headers: { authorization: `Bearer ${c.key}` } });
  assert.equal(bare.statusCode, 400, 'a bare % is broken percent-encoding');
});
