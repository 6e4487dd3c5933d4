// A body nested deeper than 64 levels is refused by the body parser, before anything walks it:
// 400 REQUEST_MALFORMED in the envelope of the API called (v2 and admin: v2's; v1: v1's), never a
// 500 from a walk that runs out of stack. 64 levels still reach the route's own validation.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/http/input-text.ts';
import { type Customer, type TestApp, createCustomer, json, startApp } from '../helpers/app.ts';
import { expectV1Error, v1 } from '../helpers/v1.ts';

let t: TestApp;
let c: Customer;

before(async () => {
  t = await startApp();
  c = await createCustomer(t);
});

/** An object whose `subject` holds arrays nested so that the whole body is `depth` levels deep. */
const nested = (depth: number) => `{"subject":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
const bare = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

const ROUTES = [
  { api: 'v2', url: '/v2/tickets', headers: () => ({ authorization: `Bearer ${c.key}` }) },
  { api: 'admin', url: '/admin/v1/accounts', headers: () => ({ authorization: `Bearer ${t.adminToken}` }) },
  { api: 'v1', url: '/v1/tickets', headers: () => ({ 'x-api-key': c.key }) },
] as const;

function post(route: (typeof ROUTES)[number], payload: string) {
  const headers = { ...route.headers(), 'content-type': 'application/json' };
  if (route.api === 'v1') return v1(t.app, 'POST', route.url, { headers, body: payload });
  return t.app.inject({ method: 'POST', url: route.url, remoteAddress: '127.0.0.1', headers, payload });
}

test('depth 65 and 10,000 → 400 REQUEST_MALFORMED in the API\'s own envelope (v2, admin, v1)', async () => {
  for (const route of ROUTES) {
    for (const body of [bare(10_000), `{"a":${bare(10_000)}}`, nested(65), bare(65)]) {
      const res = await post(route, body);
      const what = `${route.url} with ${body.length} characters`;
      if (route.api === 'v1') {
        const err = expectV1Error(res, 400, 'REQUEST_MALFORMED');
        assert.match(err.message, /more than 64 levels deep/, what);
      } else {
        assert.equal(res.statusCode, 400, `${what}: ${res.body}`);
        const err = json(res).error;
        assert.equal(err.code, 'REQUEST_MALFORMED', what);
        assert.match(err.message, /more than 64 levels deep/, what);
        assert.equal(typeof err.doc_url, 'string');
      }
    }
  }
});

test('depth 64 still reaches the route: 422 naming the field, not 400', async () => {
  for (const route of ROUTES) {
    const res = await post(route, nested(64));
    assert.equal(res.statusCode, 422, `${route.url}: ${res.body}`);
    const body = json(res);
    if (route.api === 'v1') assert.ok('subject' in body.error.details.fields, res.body);
    else assert.ok(body.error.errors.some((e: { field: string }) => e.field === 'subject'), res.body);
  }
  // Brackets inside strings (and escaped quotes) are text, not nesting.
  const message = `${'['.repeat(200)}"${'{'.repeat(200)}`;
  const res = await post(ROUTES[0], JSON.stringify({ subject: 'Brackets', message, department_id: 999_999 }));
  assert.notEqual(res.statusCode, 400, res.body);
});

test('nestsDeeperThan counts brackets outside strings only', () => {
  assert.equal(MAX_JSON_DEPTH, 64);
  assert.equal(nestsDeeperThan(bare(64), 64), false);
  assert.equal(nestsDeeperThan(bare(65), 64), true);
  assert.equal(nestsDeeperThan(`{"a":{"b":[1,{"c":[]}]}}`, 3), true);
  assert.equal(nestsDeeperThan(`{"a":{"b":[1,{"c":2}]}}`, 4), false);
  // Siblings do not add up: depth is how deep, not how many.
  assert.equal(nestsDeeperThan(`[${'[],'.repeat(100)}[]]`, 2), false);
  assert.equal(nestsDeeperThan(`["${'['.repeat(100)}"]`, 1), false);
  assert.equal(nestsDeeperThan(`["\\"${'['.repeat(100)}"]`, 1), false, 'an escaped quote does not end the string');
  assert.equal(nestsDeeperThan(`["\\\\",[[]]]`, 2), true, 'an escaped backslash does not escape the closing quote');
});
