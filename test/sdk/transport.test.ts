// @hostcloud/sdk against a small HTTP server on 127.0.0.1 that answers as the API's contract says
// (long-poll on GET /v2/operations/{id}?wait=N, GET /v2/events newest first) or misbehaves on
// purpose (never answers, 503s, asks for a long Retry-After): what the real app cannot be made
// to do on demand, and what it may not have yet.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import { after, test } from 'node:test';
import { type Event, Hostcloud, HostcloudError } from '@hostcloud/sdk';

type Handler = (req: http.IncomingMessage, url: URL, res: http.ServerResponse) => void;
let handler: Handler = (_req, _url, res) => res.end();
const requests: string[] = [];
const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  requests.push(url.pathname + url.search);
  handler(req, url, res);
});
server.listen(0, '127.0.0.1');
await once(server, 'listening');
after(() => { server.closeAllConnections(); server.close(); });
const baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
const hc = new Hostcloud({ baseUrl, token: 'hc_live_test' });

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_fake', ...headers });
  res.end(JSON.stringify(body));
}
const meta = { request_id: 'req_fake', version: '2.0.0' };
const op = (status: string, pct: number) => ({ id: 'op_1', type: 'server.create', status, resource: { type: 'server', id: 'srv_1' }, progress_pct: pct, detail: status, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' });

function reset(h: Handler) {
  handler = h;
  requests.length = 0;
}

test('operations.wait holds one long-poll request while the server supports ?wait=', async () => {
  let done = false;
  reset((_req, url, res) => {
    assert.equal(url.pathname, '/v2/operations/op_1');
    const waitS = Number(url.searchParams.get('wait'));
    // Completes 300 ms after the first request; until then a request is held.
    setTimeout(() => { done = true; }, 300).unref();
    const answer = () => send(res, 200, { data: op(done ? 'completed' : 'running', done ? 100 : 50), meta });
    if (done || waitS === 0) return answer();
    setTimeout(answer, 400);
  });
  const final = await hc.operations.wait('op_1', { longPollS: 20 });
  assert.equal(final.status, 'completed');
  assert.deepEqual(requests, ['/v2/operations/op_1?wait=20']);
});

test('operations.wait polls with growing intervals when the server refuses ?wait= (422 naming it)', async () => {
  let polls = 0;
  reset((_req, url, res) => {
    if (url.searchParams.has('wait')) {
      return send(res, 422, { error: { code: 'VALIDATION_FAILED', message: 'unknown query parameter', errors: [{ field: 'wait', code: 'INVALID', message: 'not a parameter of this operation' }], request_id: 'req_fake', doc_url: '' } });
    }
    polls++;
    send(res, 200, { data: polls >= 3 ? op('completed', 100) : op('running', polls * 30), meta });
  });
  const client = new Hostcloud({ baseUrl, token: 'hc_live_test' });
  const seen: number[] = [];
  const final = await client.operations.wait('op_1', { pollIntervalMs: 20, onProgress: (o) => seen.push(o.progress_pct ?? -1) });
  assert.equal(final.status, 'completed');
  assert.deepEqual(requests, ['/v2/operations/op_1?wait=30', '/v2/operations/op_1', '/v2/operations/op_1', '/v2/operations/op_1']);
  assert.deepEqual(seen, [30, 60]);
  // The client remembers: its next wait polls at once.
  reset((_req, _url, res) => send(res, 200, { data: op('completed', 100), meta }));
  await client.operations.wait('op_1');
  assert.deepEqual(requests, ['/v2/operations/op_1']);
});

test('operations.wait falls back to polling when a server answers ?wait= at once, and gives up at timeoutMs', async () => {
  reset((_req, _url, res) => send(res, 200, { data: op('running', 10), meta }));
  const err = await hc.operations.wait('op_1', { timeoutMs: 1_500, longPollS: 5, pollIntervalMs: 100, maxPollIntervalMs: 200 }).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof HostcloudError && err.code === 'WAIT_TIMEOUT', String(err));
  // One long-poll answered early, then polls about every 100–200 ms: no busy loop.
  assert.equal(requests[0], '/v2/operations/op_1?wait=1');
  assert.ok(requests.length >= 4 && requests.length <= 16, `${requests.length} requests`);
  assert.ok(requests.slice(1).every((r) => r === '/v2/operations/op_1'));
});

test('a call past its timeout is TIMEOUT; an aborted call rejects with the signal\'s reason', async () => {
  reset(() => { /* never answers */ });
  await assert.rejects(hc.account.get({ timeoutMs: 200 }), (e: unknown) => e instanceof HostcloudError && e.code === 'TIMEOUT' && e.status === 0);
  const controller = new AbortController();
  const aborted = hc.servers.get('srv_1', { signal: controller.signal });
  // Aborted once the server holds the request.
  while (requests.length < 2) await new Promise((r) => setImmediate(r));
  controller.abort(new Error('stop'));
  await assert.rejects(aborted, /stop/);
  // A list's pages and an operation's wait take the signal too.
  await assert.rejects(hc.servers.list({}, { signal: controller.signal }).toArray(), /stop/);
  await assert.rejects(hc.operations.wait('op_1', { signal: controller.signal }), /stop/);
});

test('503 is retried with backoff; a Retry-After longer than the cap fails at once', async () => {
  let n = 0;
  reset((_req, _url, res) => {
    n++;
    if (n < 3) return send(res, 503, { error: { code: 'SERVICE_UNAVAILABLE', message: 'busy', errors: [], request_id: `req_${n}`, doc_url: '' } });
    send(res, 200, { data: { balance: { amount: '1.00', currency: 'USD' }, currency: 'USD' }, meta });
  });
  const fast = new Hostcloud({ baseUrl, token: 'hc_live_test', maxRetryDelayMs: 50 });
  assert.equal((await fast.billing.balance()).balance.amount, '1.00');
  assert.equal(requests.length, 3);

  reset((_req, _url, res) => send(res, 429, { error: { code: 'RATE_LIMITED', message: 'slow down', errors: [], request_id: 'req_x', doc_url: '' } }, { 'retry-after': '120' }));
  const started = Date.now();
  await assert.rejects(hc.billing.balance(), (e: unknown) => e instanceof HostcloudError && e.code === 'RATE_LIMITED' && e.retryAfterS === 120 && e.requestId === 'req_x');
  assert.ok(Date.now() - started < 1_000);
  assert.equal(requests.length, 1);

  // An answer that is not the API's JSON.
  reset((_req, _url, res) => { res.writeHead(502, { 'content-type': 'text/html' }); res.end('<html>Bad gateway</html>'); });
  await assert.rejects(hc.account.get(), (e: unknown) => e instanceof HostcloudError && e.code === 'INVALID_RESPONSE' && e.status === 502);
});

test('events.follow yields new events oldest first, once each, until aborted', async () => {
  const events: Event[] = [];
  // A stand-in's events: only the fields follow() reads are real.
  const add = (type: Event['type']) => events.unshift({ id: `evt_${events.length + 1}`, type, created_at: new Date().toISOString(), resource: { type: 'server', id: 'srv_1' }, data: {} as Event['data'] });
  add('server.created');
  add('operation.completed');
  reset((_req, url, res) => {
    assert.equal(url.pathname, '/v2/events');
    assert.equal(url.searchParams.get('type'), null);
    const page = Number(url.searchParams.get('page'));
    const perPage = Number(url.searchParams.get('per_page'));
    const items = events.slice((page - 1) * perPage, page * perPage);
    send(res, 200, { data: items, meta: { ...meta, pagination: { page, per_page: perPage, total: events.length, total_pages: Math.max(1, Math.ceil(events.length / perPage)) } } });
  });
  const controller = new AbortController();
  const got: string[] = [];
  const following = (async () => {
    for await (const e of hc.events.follow({}, { intervalMs: 30, backlog: 1, signal: controller.signal })) {
      got.push(`${e.id} ${e.type}`);
      if (got.length === 1) { add('server.deleted'); add('billing.deposit'); }
      if (got.length === 3) controller.abort(new Error('enough'));
    }
  })();
  await assert.rejects(following, /enough/);
  assert.deepEqual(got, ['evt_2 operation.completed', 'evt_3 server.deleted', 'evt_4 billing.deposit']);
});

test('the client refuses to start without a URL or a token', () => {
  assert.throws(() => new Hostcloud({ baseUrl: '', token: 'x' }), /baseUrl is required/);
  assert.throws(() => new Hostcloud({ baseUrl, token: '' }), /token is required/);
  // A base URL given with /v2 (or a trailing slash) is not doubled.
  assert.equal(new Hostcloud({ baseUrl: `${baseUrl}/v2/`, token: 'x' }).baseUrl, baseUrl);
});
