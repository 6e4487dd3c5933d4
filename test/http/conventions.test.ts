// The v2 conventions every route shares: envelopes, request ids, 400/404/405/413/415/422, pagination.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type Customer, type TestApp, call, createCustomer, json, startApp } from '../helpers/app.ts';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

let t: TestApp;
let c: Customer;

before(async () => {
  t = await startApp({ bodyLimitBytes: 4096 });
  c = await createCustomer(t, { deposit: '10.00' });
});

function assertErrorEnvelope(res: { statusCode: number; body: string; headers: Record<string, unknown> }, status: number, code: string) {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = JSON.parse(res.body);
  assert.deepEqual(Object.keys(body), ['error']);
  assert.deepEqual(Object.keys(body.error).sort(), ['code', 'doc_url', 'errors', 'message', 'request_id']);
  assert.equal(body.error.code, code);
  assert.equal(typeof body.error.message, 'string');
  assert.ok(body.error.message.length > 0);
  assert.ok(Array.isArray(body.error.errors));
  assert.equal(body.error.request_id, res.headers['x-request-id']);
  assert.equal(body.error.doc_url, `http://api.test/v2/docs/errors#${code}`);
  return body.error;
}

describe('success envelope', () => {
  test('object: data + meta {request_id, version}', async () => {
    const res = await call(t.app, 'GET', '/v2/account', { key: c.key });
    assert.equal(res.statusCode, 200);
    const body = json(res);
    assert.deepEqual(Object.keys(body).sort(), ['data', 'meta']);
    assert.deepEqual(body.meta, { request_id: res.headers['x-request-id'], version: '2.0.0' });
    assert.match(body.meta.request_id, /^req_[0-9A-Za-z]{20}$/);
    assert.match(body.data.created_at, TIMESTAMP);
    assert.equal(body.success, undefined, 'v2 has no top-level success flag');
  });

  test('list: meta.pagination', async () => {
    const res = await call(t.app, 'GET', '/v2/plans?per_page=2', { key: c.key });
    const body = json(res);
    assert.equal(res.statusCode, 200);
    assert.ok(Array.isArray(body.data));
    assert.equal(body.data.length, 2);
    assert.equal(body.meta.version, '2.0.0');
    assert.deepEqual(Object.keys(body.meta.pagination).sort(), ['page', 'per_page', 'total', 'total_pages']);
    assert.equal(body.meta.pagination.per_page, 2);
    assert.equal(body.meta.pagination.total_pages, Math.ceil(body.meta.pagination.total / 2));
  });

  test('money is {amount: decimal string, currency: USD}', async () => {
    const body = json(await call(t.app, 'GET', '/v2/billing/balance', { key: c.key }));
    assert.deepEqual(body.data.balance, { amount: '10.00', currency: 'USD' });
  });

  test('every request gets its own id', async () => {
    const a = await call(t.app, 'GET', '/v2/account', { key: c.key });
    const b = await call(t.app, 'GET', '/v2/account', { key: c.key });
    assert.notEqual(a.headers['x-request-id'], b.headers['x-request-id']);
  });
});

describe('errors', () => {
  test('unknown endpoint → 404 ENDPOINT_NOT_FOUND (with or without a key)', async () => {
    assertErrorEnvelope(await call(t.app, 'GET', '/v2/nothing-here', { key: c.key }), 404, 'ENDPOINT_NOT_FOUND');
    assertErrorEnvelope(await call(t.app, 'GET', '/v2/nothing-here'), 404, 'ENDPOINT_NOT_FOUND');
    assertErrorEnvelope(await call(t.app, 'GET', '/totally/else'), 404, 'ENDPOINT_NOT_FOUND');
  });

  test('known path, wrong method → 405 METHOD_NOT_ALLOWED with Allow', async () => {
    const res = await call(t.app, 'DELETE', '/v2/billing/balance', { key: c.key });
    assertErrorEnvelope(res, 405, 'METHOD_NOT_ALLOWED');
    assert.match(String(res.headers.allow), /GET/);
    const withParam = await call(t.app, 'PUT', '/v2/plans/1', { key: c.key, body: {} });
    assertErrorEnvelope(withParam, 405, 'METHOD_NOT_ALLOWED');
  });

  test('broken JSON → 400 REQUEST_MALFORMED', async () => {
    const res = await call(t.app, 'POST', '/v2/billing/deposits', {
      key: c.key, body: '{"amount": ', headers: { 'content-type': 'application/json' },
    });
    assertErrorEnvelope(res, 400, 'REQUEST_MALFORMED');
  });

  test('prototype pollution attempts are refused as malformed', async () => {
    const res = await call(t.app, 'POST', '/admin/v1/accounts', {
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
      body: '{"email":"x@example.com","name":"x","__proto__":{"admin":true}}',
    });
    assertErrorEnvelope(res, 400, 'REQUEST_MALFORMED');
  });

  test('non-JSON body → 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await call(t.app, 'POST', '/v2/billing/deposits', {
      key: c.key, body: 'amount=5', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assertErrorEnvelope(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    const text = await call(t.app, 'PATCH', '/admin/v1/accounts/x', {
      headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'text/plain' }, body: 'hello',
    });
    assertErrorEnvelope(text, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  test('body over the limit → 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await call(t.app, 'POST', '/admin/v1/accounts', {
      headers: { authorization: `Bearer ${t.adminToken}` },
      body: { email: 'big@example.com', name: 'x'.repeat(10_000) },
    });
    assertErrorEnvelope(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  test('schema errors → 422 VALIDATION_FAILED with one errors[] item per bad field', async () => {
    const res = await call(t.app, 'POST', '/admin/v1/accounts', {
      headers: { authorization: `Bearer ${t.adminToken}` },
      body: { email: 'not-an-email', name: '', country: 'usa', extra: 1 },
    });
    const err = assertErrorEnvelope(res, 422, 'VALIDATION_FAILED');
    const fields = err.errors.map((e: { field: string }) => e.field).sort();
    assert.deepEqual(fields, ['country', 'email', 'extra', 'name']);
    for (const e of err.errors) {
      assert.equal(e.code, 'INVALID');
      assert.ok(e.message.length > 0);
    }
  });

  test('a JSON body of the wrong type is a validation error on "body"', async () => {
    const res = await call(t.app, 'POST', '/admin/v1/accounts', { headers: { authorization: `Bearer ${t.adminToken}` }, body: [1, 2] });
    const err = assertErrorEnvelope(res, 422, 'VALIDATION_FAILED');
    assert.equal(err.errors[0].field, 'body');
  });

  test('JSON numbers are not coerced from strings in bodies', async () => {
    const res = await call(t.app, 'POST', '/admin/v1/plans', {
      headers: { authorization: `Bearer ${t.adminToken}` },
      body: { name: 'x', cpu_cores: '2', ram_mb: 1024, storage_gb: 10, bandwidth_gb: 10, price: '1.00' },
    });
    const err = assertErrorEnvelope(res, 422, 'VALIDATION_FAILED');
    assert.deepEqual(err.errors.map((e: { field: string }) => e.field), ['cpu_cores']);
  });

  test('no response leaks internals (stack, SQL, file paths)', async () => {
    const responses = await Promise.all([
      call(t.app, 'GET', '/v2/plans/99999999999', { key: c.key }),
      call(t.app, 'POST', '/admin/v1/locations', { headers: { authorization: `Bearer ${t.adminToken}` }, body: { name: 'Dup', code: 'fra1', country: 'DE', provider: 'primary' } }),
      call(t.app, 'POST', '/v2/billing/deposits', { key: c.key, body: '{', headers: { 'content-type': 'application/json' } }),
    ]);
    for (const r of responses) {
      assert.ok(r.statusCode < 500, r.body);
      assert.doesNotMatch(r.body, /at .*\.ts:\d+|node_modules|SELECT |INSERT |duplicate key|constraint "/i);
    }
  });
});

describe('pagination parameters', () => {
  const cases: [string, string][] = [
    ['page=0', 'page'], ['page=-1', 'page'], ['page=abc', 'page'], ['page=1.5', 'page'], ['page=', 'page'],
    ['per_page=0', 'per_page'], ['per_page=101', 'per_page'], ['per_page=x', 'per_page'], ['page=1&page=2', 'page'],
    ['page=99999999999', 'page'],
  ];
  for (const [qs, field] of cases) {
    test(`${qs} → 422 naming ${field}`, async () => {
      const err = assertErrorEnvelope(await call(t.app, 'GET', `/v2/billing/transactions?${qs}`, { key: c.key }), 422, 'VALIDATION_FAILED');
      assert.deepEqual(err.errors.map((e: { field: string }) => e.field), [field]);
    });
  }

  test('two bad parameters → two errors', async () => {
    const err = assertErrorEnvelope(await call(t.app, 'GET', '/v2/plans?page=0&per_page=500', { key: c.key }), 422, 'VALIDATION_FAILED');
    assert.deepEqual(err.errors.map((e: { field: string }) => e.field).sort(), ['page', 'per_page']);
  });

  test('defaults page 1, per_page 25; max 100 accepted; past the end is empty', async () => {
    const d = json(await call(t.app, 'GET', '/v2/plans', { key: c.key }));
    assert.equal(d.meta.pagination.page, 1);
    assert.equal(d.meta.pagination.per_page, 25);
    const max = await call(t.app, 'GET', '/v2/plans?per_page=100', { key: c.key });
    assert.equal(max.statusCode, 200);
    const past = json(await call(t.app, 'GET', '/v2/plans?page=50', { key: c.key }));
    assert.deepEqual(past.data, []);
    assert.equal(past.meta.pagination.page, 50);
    assert.equal(past.meta.pagination.total, d.meta.pagination.total);
  });

  test('unknown query parameters are refused, 422 naming them (test/http/query-parameters.test.ts covers every route)', async () => {
    const res = await call(t.app, 'GET', '/v2/plans?foo=bar', { key: c.key });
    assert.equal(res.statusCode, 422);
    assert.deepEqual(json(res).error.errors, [{ field: 'foo', code: 'INVALID', message: 'is not a known query parameter' }]);
  });
});

describe('health', () => {
  test('/healthz and /readyz need no key', async () => {
    const h = await call(t.app, 'GET', '/healthz');
    assert.equal(h.statusCode, 200);
    assert.deepEqual(json(h), { status: 'ok' });
    const r = await call(t.app, 'GET', '/readyz');
    assert.equal(r.statusCode, 200);
    assert.deepEqual(json(r), { status: 'ready' });
  });
});

describe('metrics', () => {
  test('/metrics needs the admin token and counts requests by route pattern', async () => {
    assert.equal((await call(t.app, 'GET', '/metrics')).statusCode, 401);
    assert.equal((await call(t.app, 'GET', '/metrics', { key: c.key })).statusCode, 401, 'a customer key is not the admin token');
    await call(t.app, 'GET', '/v2/plans/1', { key: c.key });
    const res = await call(t.app, 'GET', '/metrics', { headers: { authorization: `Bearer ${t.adminToken}` } });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain/);
    assert.match(res.body, /hostcloud_http_requests_total\{method="GET",route="\/v2\/plans\/:id",status="200"\} \d+/);
    assert.match(res.body, /process_cpu_seconds_total/);
  });
});

describe('logs', () => {
  test('JSON log lines carry the request id of the response', async () => {
    const res = await call(t.app, 'GET', '/v2/account', { key: c.key });
    const id = String(res.headers['x-request-id']);
    const lines = t.logs.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const mine = lines.filter((l) => l.request_id === id);
    assert.ok(mine.length >= 1, 'a log line names the request');
    assert.ok(mine.some((l) => l.res?.statusCode === 200), 'the completion line has the status');
  });
});

describe('integers in query and path are plain digits', () => {
  for (const qs of ['per_page=1e1', 'per_page=0x10', 'per_page=5.0', 'per_page=5.', 'per_page=+5', 'per_page=%205%20']) {
    test(`${qs} → 422 naming per_page`, async () => {
      const res = await call(t.app, 'GET', `/v2/plans?${qs}`, { key: c.key });
      assert.equal(res.statusCode, 422, res.body);
      assert.deepEqual(json(res).error.errors.map((e: { field: string }) => e.field), ['per_page']);
    });
  }
  test('a path id of 1e0 → 422 naming id; a plain one works', async () => {
    const res = await call(t.app, 'GET', '/v2/plans/1e0', { key: c.key });
    assert.equal(res.statusCode, 422);
    assert.equal(json(res).error.errors[0].field, 'id');
    assert.equal((await call(t.app, 'GET', '/v2/plans/1', { key: c.key })).statusCode, 200);
  });
});

describe('requests that fail before routing', () => {
  test('an undecodable URL → 400 REQUEST_MALFORMED in the envelope', async () => {
    const res = await call(t.app, 'GET', '/v2/%zz', { key: c.key });
    assertErrorEnvelope(res, 400, 'REQUEST_MALFORMED');
  });

  test('over a real socket: oversized headers and a broken Content-Length → the envelope', async () => {
    const net = await import('node:net');
    const app = await t.sibling();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const port = (app.server.address() as { port: number }).port;
    const raw = (text: string) => new Promise<string>((resolve, reject) => {
      const s = net.connect(port, '127.0.0.1', () => s.write(text));
      let out = '';
      s.on('data', (d) => (out += d));
      s.on('end', () => resolve(out));
      s.on('error', reject);
    });
    for (const req of [
      `GET /v2/plans HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      'POST /v2/plans HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
    ]) {
      const out = await raw(req);
      assert.match(out, /^HTTP\/1\.1 400 /);
      const body = JSON.parse(out.slice(out.indexOf('\r\n\r\n') + 4));
      assert.equal(body.error.code, 'REQUEST_MALFORMED');
      assert.match(body.error.request_id, /^req_/);
      assert.equal(body.error.doc_url, 'http://api.test/v2/docs/errors#REQUEST_MALFORMED');
    }
  });
});

describe('NUL characters', () => {
  test('in a body string, a path id or a query value → 422 naming the field, never a 500', async () => {
    const admin = { authorization: `Bearer ${t.adminToken}` };
    const body = await call(t.app, 'POST', '/admin/v1/accounts', { headers: admin, body: { email: 'nul@example.com', name: 'a\u0000b' } });
    assert.equal(body.statusCode, 422, body.body);
    assert.deepEqual(json(body).error.errors.map((e: { field: string }) => e.field), ['name']);
    const param = await call(t.app, 'GET', '/admin/v1/accounts/acc%00x', { headers: admin });
    assert.equal(param.statusCode, 422);
    assert.equal(json(param).error.errors[0].field, 'id');
    const query = await call(t.app, 'GET', '/v2/billing/transactions?type=dep%00osit', { key: c.key });
    assert.equal(query.statusCode, 422);
    assert.equal(json(query).error.errors[0].field, 'type');
    const escaped = await call(t.app, 'POST', '/admin/v1/accounts', { headers: admin, body: { email: 'bs@example.com', name: 'back\\u0000slash' } });
    assert.equal(escaped.statusCode, 201, 'a literal backslash-u text is fine');
  });
});
