// The generated OpenAPI document, the reference page and the error catalog page.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { validate } from '@readme/openapi-parser';
import { type TestApp, call, json, startApp } from '../helpers/app.ts';

// Every error code of the spec (api-v2.md, "Errors") with its status.
const SPEC_ERRORS: Record<string, number> = {
  REQUEST_MALFORMED: 400, METHOD_NOT_ALLOWED: 405, ENDPOINT_NOT_FOUND: 404, UNSUPPORTED_MEDIA_TYPE: 415,
  AUTH_REQUIRED: 401, AUTH_INVALID: 401, AUTH_IP_NOT_ALLOWED: 403, ACCOUNT_INACTIVE: 403, AUTH_SCOPE_INSUFFICIENT: 403,
  RESOURCE_NOT_FOUND: 404, STATE_CONFLICT: 409, IDEMPOTENCY_KEY_CONFLICT: 409, VALIDATION_FAILED: 422,
  INSUFFICIENT_BALANCE: 422, QUOTA_EXCEEDED: 422, RATE_LIMITED: 429, LOCATION_INVALID: 422, OS_VERSION_INVALID: 422,
  INVALID_PASSWORD: 422, HOSTNAME_IN_USE: 409, PLAN_NOT_FOUND: 422, CAPACITY_UNAVAILABLE: 422,
  NODE_INCOMPATIBLE_LIVE_MIGRATE: 422, SOURCE_NOT_FOUND: 422, NOT_IMPLEMENTED: 501, INTERNAL_ERROR: 500,
  UPSTREAM_ERROR: 502, SERVICE_UNAVAILABLE: 503,
};

let t: TestApp;
before(async () => {
  t = await startApp();
});

test('/v2/openapi.json is a valid OpenAPI 3.1 document of the v2 routes only, public', async () => {
  const res = await call(t.app, 'GET', '/v2/openapi.json');
  assert.equal(res.statusCode, 200);
  const doc = json(res);
  assert.equal(doc.openapi, '3.1.0');
  assert.equal(doc.info.version, '2.0.0');
  const result = await validate(structuredClone(doc));
  assert.equal(result.valid, true, JSON.stringify(result));
  const paths = Object.keys(doc.paths);
  for (const p of [
    '/v2/account', '/v2/billing/balance', '/v2/billing/transactions', '/v2/plans', '/v2/plans/{id}', '/v2/packages', '/v2/operating-systems', '/v2/locations',
    '/v2/servers', '/v2/servers/{id}', '/v2/servers/{id}/actions/{verb}', '/v2/servers/{id}/actions/upgrade', '/v2/servers/{id}/snapshots',
    '/v2/servers/{id}/firewall/rules', '/v2/servers/{id}/ips', '/v2/servers/{id}/console', '/v2/servers/{id}/metrics', '/v2/servers/{id}/traffic',
    '/v2/operations/{id}',
  ]) {
    assert.ok(paths.includes(p), `missing ${p}`);
  }
  assert.ok(!paths.some((p) => p.startsWith('/admin')), 'admin routes are not in the customer document');
  assert.ok(!paths.some((p) => p.includes('openapi') || p.includes('/docs')), 'docs routes are hidden');
  // The schemas document what the validator enforces.
  const tx = doc.paths['/v2/billing/transactions'].get;
  const perPage = tx.parameters.find((p: { name: string }) => p.name === 'per_page');
  assert.equal(perPage.schema.maximum, 100);
  assert.equal(perPage.schema.default, 25);
  assert.ok(doc.components.schemas.Error, 'the error envelope is a shared component');
  const create = doc.paths['/v2/servers'].post;
  assert.ok(create.parameters.some((p: { name: string; in: string }) => p.name === 'idempotency-key' && p.in === 'header'), 'Idempotency-Key is documented');
  assert.ok(create.responses['201'], 'create documents its 201');
  assert.deepEqual(doc.components.securitySchemes.bearer, { type: 'http', scheme: 'bearer', description: doc.components.securitySchemes.bearer.description });
});

test('/v2/docs is a readable HTML reference listing every route', async () => {
  const res = await call(t.app, 'GET', '/v2/docs');
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^text\/html/);
  for (const p of ['/v2/billing/transactions', '/v2/plans/{id}', '/v2/account/api-keys', 'Authorization: Bearer']) {
    assert.ok(res.body.includes(p.replace('<', '&lt;')), `reference lacks ${p}`);
  }
  assert.ok(res.body.includes('<code>per_page</code>'), 'parameters are documented');
});

test('/v2/docs/errors lists every spec error code with its status and an anchor', async () => {
  const res = await call(t.app, 'GET', '/v2/docs/errors');
  assert.equal(res.statusCode, 200);
  for (const [code, status] of Object.entries(SPEC_ERRORS)) {
    const row = new RegExp(`<tr id="${code}"><td><a href="#${code}"><code>${code}</code></a></td><td>${status}</td><td>[^<]+</td></tr>`);
    assert.match(res.body, row, `${code} (${status}) missing or wrong`);
  }
});

test('doc_url of an error points at its anchor on the errors page', async () => {
  const err = json(await call(t.app, 'GET', '/v2/account')).error;
  assert.equal(err.doc_url, 'http://api.test/v2/docs/errors#AUTH_REQUIRED');
  const page = (await call(t.app, 'GET', '/v2/docs/errors')).body;
  assert.ok(page.includes(`id="${err.doc_url.split('#')[1]}"`));
});

test('no wildcard paths in the OpenAPI document; every path parameter is declared', async () => {
  const doc = json(await call(t.app, 'GET', '/v2/openapi.json'));
  for (const [p, ops] of Object.entries(doc.paths as Record<string, Record<string, { parameters?: { in: string; name: string }[] }>>)) {
    assert.ok(!p.includes('*'), `wildcard path ${p}`);
    const names = [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    for (const op of Object.values(ops)) {
      const declared = (op.parameters ?? []).filter((x) => x.in === 'path').map((x) => x.name);
      assert.deepEqual(declared.sort(), [...names].sort(), `${p} path parameters`);
    }
  }
});
