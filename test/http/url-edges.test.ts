// Requests that reach no route — a URL the router or Node's HTTP parser cannot read, `//v1/…` —
// answer in the envelope of the API their path names (v1's under /v1) and carry the RateLimit-*
// headers every answer does, spending the caller's address budget (429 once it is spent). Raw
// bytes are sent on a real socket: inject and fetch would percent-encode them.
import assert from 'node:assert/strict';
import net from 'node:net';
import { before, test } from 'node:test';
import type { App } from '../../src/http/app.ts';
import { type Customer, type TestApp, createCustomer, startApp } from '../helpers/app.ts';

let t: TestApp;
let c: Customer;

before(async () => {
  t = await startApp({ rateLimitMax: 1000 });
  c = await createCustomer(t);
});

interface Raw { status: number; headers: Record<string, string>; body: string }

/** Sends a request line (bytes as given) and headers on a socket; the answer parsed. */
async function raw(app: App, target: Buffer | string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as net.AddressInfo;
  const head = Object.entries({ Host: 'x', ...headers, Connection: 'close' }).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  const bytes = Buffer.concat([Buffer.from(`${method} `), Buffer.from(target), Buffer.from(` HTTP/1.1\r\n${head}\r\n`)]);
  const text = await new Promise<string>((resolve, reject) => {
    let out = '';
    // Written, not ended: a half-closed socket is dropped before a slower answer is sent (Connection: close ends it).
    const sock = net.connect(port, '127.0.0.1', () => sock.write(bytes));
    sock.on('data', (d) => { out += d; });
    sock.on('end', () => resolve(out));
    sock.on('error', reject);
  });
  const [top, ...rest] = text.split('\r\n\r\n');
  const [statusLine, ...lines] = top!.split('\r\n');
  const parsed = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers: parsed, body: rest.join('\r\n\r\n') };
}

const utf8 = (s: string) => Buffer.from(s, 'utf8');

function assertV1(res: Raw, status: number, code: string) {
  assert.equal(res.status, status, res.body);
  const body = JSON.parse(res.body);
  assert.equal(body.success, false, res.body);
  assert.equal(body.error.code, code);
  assert.match(body.error.details.request_id, /^req_/);
  assert.equal(body.error.doc_url, undefined, 'not the v2 envelope');
}

function assertV2(res: Raw, status: number, code: string) {
  assert.equal(res.status, status, res.body);
  const body = JSON.parse(res.body);
  assert.equal(body.error.code, code, res.body);
  assert.match(body.error.doc_url, /\/v2\/docs\/errors#/);
  assert.equal(body.success, undefined);
}

function assertRateLimitHeaders(res: Raw, what: string) {
  for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) assert.match(res.headers[h] ?? '', /^\d+$/, `${what}: ${h}`);
  assert.equal(res.headers['ratelimit-limit'], '1000', what);
  assert.match(res.headers['x-request-id'] ?? '', /^req_/, what);
}

test('/v1 URLs the server cannot read answer in the v1 envelope: raw non-ASCII bytes, a bad percent-encoding, //v1/…', async () => {
  const key = { 'X-API-Key': c.key };
  const rawByte = await raw(t.app, utf8('/v1/balance?x=é'), key);
  assertV1(rawByte, 400, 'REQUEST_MALFORMED');
  assert.match(JSON.parse(rawByte.body).error.message, /URL must be ASCII/);
  assertRateLimitHeaders(rawByte, 'raw byte');
  assertV1(await raw(t.app, utf8('/v1/servers/é'), key), 400, 'REQUEST_MALFORMED');
  const percent = await raw(t.app, '/v1/servers/%', key);
  assertV1(percent, 400, 'REQUEST_MALFORMED');
  assertRateLimitHeaders(percent, 'bad percent-encoding');
  assertV1(await raw(t.app, `/v1/servers/${'a'.repeat(201)}`, key), 400, 'REQUEST_MALFORMED');
  for (const [method, url] of [['GET', '//v1/balance'], ['GET', '//v1'], ['POST', '//v1/servers'], ['GET', '///v1/servers?page=1']]) {
    const res = await raw(t.app, url!, key, method);
    assertV1(res, 404, 'NOT_FOUND');
    assertRateLimitHeaders(res, url!);
  }
  // The v1 adapter still answers its own paths.
  assert.equal((await raw(t.app, '/v1/balance', key)).status, 200);
});

test('URL-level 400s on /v2 carry RateLimit-* and spend the address budget: %, raw bytes, a path parameter over 200 characters', async () => {
  const auth = { Authorization: `Bearer ${c.key}` };
  const cases: [string, Buffer | string, RegExp][] = [
    ['bare %', '/v2/servers/%', /not validly encoded/],
    ['raw bytes', utf8('/v2/servers/é'), /URL must be ASCII/],
    ['raw bytes in the query', utf8('/v2/billing/transactions?type=é'), /URL must be ASCII/],
    ['201 characters', `/v2/servers/${'a'.repeat(201)}`, /longer than 200 characters/],
  ];
  let last = Infinity;
  for (const [what, target, message] of cases) {
    const res = await raw(t.app, target, auth);
    assertV2(res, 400, 'REQUEST_MALFORMED');
    assert.match(JSON.parse(res.body).error.message, message, what);
    assertRateLimitHeaders(res, what);
    const remaining = Number(res.headers['ratelimit-remaining']);
    assert.ok(remaining < last, `${what}: the budget went down (${remaining} after ${last})`);
    last = remaining;
  }
  // 200 characters still reach the route (which says how long its ids are).
  assertV2(await raw(t.app, `/v2/servers/${'a'.repeat(200)}`, auth), 422, 'VALIDATION_FAILED');
});

test('a spent budget answers 429 RATE_LIMITED with Retry-After, even to a URL that cannot be read', async () => {
  const small = await t.sibling({ rateLimitMax: 2 });
  for (let i = 0; i < 2; i++) assertV2(await raw(small, '/v2/servers/%'), 400, 'REQUEST_MALFORMED');
  const parser = await raw(small, utf8('/v2/servers/é'));
  assertV2(parser, 429, 'RATE_LIMITED');
  assert.match(parser.headers['retry-after'] ?? '', /^\d+$/);
  assert.equal(parser.headers['ratelimit-remaining'], '0');
  const router = await raw(small, '/v2/servers/%');
  assertV2(router, 429, 'RATE_LIMITED');
  assert.match(router.headers['retry-after'] ?? '', /^\d+$/);
  assertV1(await raw(small, '/v1/servers/%'), 429, 'RATE_LIMITED');
});
