// @hostcloud/sdk against the real app on a real port, as a customer's script uses it: create a
// server, wait for its operation, list across pages, delete; a 429 retried after Retry-After;
// an error's fields; a create whose answer was lost, retried with the same Idempotency-Key and
// charged once.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { Hostcloud, HostcloudError } from '@hostcloud/sdk';
import { call, createCustomer, json, startApp } from '../helpers/app.ts';
import { CLOUD_S, FRA, PASSWORD, UBUNTU } from '../helpers/servers.ts';

const t = await startApp({ worker: 'embedded', simDelayMs: 20 });
await t.app.listen({ port: 0, host: '127.0.0.1' });
const baseUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;

/** Every request the SDK sent and the status it got (or the error it threw). */
interface Sent { method: string; path: string; status: number | string; idempotencyKey: string | null }

/** fetch that records; `intercept` may answer or fail a request itself (after or instead of sending it). */
function recordingFetch(sent: Sent[], intercept?: (req: Request, send: () => Promise<Response>) => Promise<Response>): typeof fetch {
  return async (input, init) => {
    const req = new Request(input, init);
    const u = new URL(req.url);
    const entry: Sent = { method: req.method, path: u.pathname + u.search, status: 'pending', idempotencyKey: req.headers.get('idempotency-key') };
    sent.push(entry);
    const send = () => fetch(req.clone());
    try {
      const res = await (intercept ? intercept(req, send) : send());
      entry.status = res.status;
      return res;
    } catch (e) {
      entry.status = e instanceof Error ? e.message : String(e);
      throw e;
    }
  };
}

const name = () => `sdk-${randomBytes(4).toString('hex')}.example.com`;
const serverBody = () => ({ name: name(), location_id: FRA, plan_id: CLOUD_S, os_version_id: UBUNTU, password: PASSWORD });

test('create → operations.wait → list over 3 pages → delete', async () => {
  const c = await createCustomer(t, { deposit: '100.00' });
  const sent: Sent[] = [];
  const hc = new Hostcloud({ baseUrl, token: c.key, fetch: recordingFetch(sent) });

  const created = await hc.servers.create(serverBody());
  assert.equal(created.status, 'pending');
  assert.equal(created.operation.type, 'server.create');
  // A billable create carries an Idempotency-Key (a UUID) without being asked.
  assert.match(sent[0]!.idempotencyKey ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

  const progress: string[] = [];
  const op = await hc.operations.wait(created.operation.id, { timeoutMs: 30_000, onProgress: (o) => progress.push(o.status) });
  assert.equal(op.status, 'completed');
  assert.equal(op.progress_pct, 100);
  assert.equal((await hc.servers.get(created.id)).status, 'active');
  assert.ok(progress.every((s) => s === 'queued' || s === 'running'), progress.join());

  await hc.servers.create(serverBody());
  await hc.servers.create(serverBody());
  sent.length = 0;
  const ids: string[] = [];
  for await (const s of hc.servers.list({ per_page: 1 })) ids.push(s.id);
  assert.equal(ids.length, 3);
  assert.ok(ids.includes(created.id));
  assert.deepEqual(sent.map((r) => r.path), ['/v2/servers?per_page=1&page=1', '/v2/servers?per_page=1&page=2', '/v2/servers?per_page=1&page=3']);

  // pages() shows each page's pagination; firstPage() reads one.
  const pages = [];
  for await (const p of hc.servers.list({ per_page: 2 }).pages()) pages.push(p.pagination);
  assert.deepEqual(pages.map((p) => [p.page, p.total, p.total_pages]), [[1, 3, 2], [2, 3, 2]]);

  const deleted = await hc.servers.delete(created.id);
  assert.equal(deleted.status, 'deleted');
  assert.equal((await hc.servers.list().toArray()).length, 2);
  await assert.rejects(hc.servers.get(created.id), (e: unknown) => e instanceof HostcloudError && e.status === 404 && e.code === 'RESOURCE_NOT_FOUND');
});

test('a 429 is retried after its Retry-After and the call succeeds', async () => {
  const c = await createCustomer(t);
  // A second app on the same database whose budget is two requests per second.
  const limited = await t.sibling({ rateLimitMax: 2, rateLimitWindowS: 1, rateLimitPrefix: `sdk429:${randomBytes(4).toString('hex')}` });
  await limited.listen({ port: 0, host: '127.0.0.1' });
  const sent: Sent[] = [];
  const hc = new Hostcloud({ baseUrl: `http://127.0.0.1:${(limited.server.address() as { port: number }).port}`, token: c.key, fetch: recordingFetch(sent) });
  const answers = await Promise.all([hc.billing.balance(), hc.billing.balance(), hc.billing.balance()]);
  assert.deepEqual(answers.map((b) => b.balance.amount), ['0.00', '0.00', '0.00']);
  assert.deepEqual(sent.map((s) => s.status).sort(), [200, 200, 200, 429]);

  // With retries off, the 429 reaches the caller with what the server asked.
  const noRetry = new Hostcloud({ baseUrl: hc.baseUrl, token: c.key, maxRetries: 0 });
  const results = await Promise.allSettled([noRetry.billing.balance(), noRetry.billing.balance(), noRetry.billing.balance()]);
  const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult | undefined;
  assert.ok(refused, 'one of three was refused');
  assert.ok(refused.reason instanceof HostcloudError);
  assert.equal(refused.reason.status, 429);
  assert.equal(refused.reason.code, 'RATE_LIMITED');
  assert.ok(refused.reason.retryAfterS !== undefined && refused.reason.retryAfterS >= 0 && refused.reason.retryAfterS <= 1);
});

test('an error carries status, code, message, request id and the fields refused', async () => {
  const c = await createCustomer(t, { deposit: '10.00' });
  const hc = new Hostcloud({ baseUrl, token: c.key });
  const err = await hc.servers.create({ ...serverBody(), location_id: 999_999, password: 'short' }).then(() => undefined, (e: unknown) => e);
  assert.ok(err instanceof HostcloudError, String(err));
  assert.equal(err.name, 'HostcloudError');
  assert.equal(err.status, 422);
  assert.ok(err.code === 'VALIDATION_FAILED' || err.code === 'INVALID_PASSWORD', err.code);
  assert.match(err.message, /\S/);
  assert.match(err.requestId ?? '', /^req_/);
  assert.match(err.docUrl ?? '', /\/v2\/docs\/errors#/);
  assert.ok(err.fieldErrors.some((f) => f.field === 'password'), JSON.stringify(err.fieldErrors));

  // Another account's server is not found; a revoked or wrong key is AUTH_INVALID.
  const other = await createCustomer(t, { deposit: '10.00' });
  const theirs = await new Hostcloud({ baseUrl, token: other.key }).servers.create(serverBody());
  await assert.rejects(hc.servers.get(theirs.id), (e: unknown) => e instanceof HostcloudError && e.code === 'RESOURCE_NOT_FOUND' && e.status === 404);
  await assert.rejects(new Hostcloud({ baseUrl, token: 'hc_live_nope' }).account.get(), (e: unknown) => e instanceof HostcloudError && e.code === 'AUTH_INVALID' && e.status === 401);
});

test('a create whose answer was lost is retried with the same Idempotency-Key: one server, one charge', async () => {
  const c = await createCustomer(t, { deposit: '20.00' });
  const sent: Sent[] = [];
  let dropped = false;
  const hc = new Hostcloud({
    baseUrl,
    token: c.key,
    fetch: recordingFetch(sent, async (req, send) => {
      const res = await send();
      // The server did the work; the connection dies before the client reads the answer.
      if (req.method === 'POST' && !dropped) {
        dropped = true;
        throw new TypeError('fetch failed', { cause: new Error('socket hang up') });
      }
      return res;
    }),
  });
  const created = await hc.servers.create(serverBody());
  assert.equal(sent.length, 2);
  assert.equal(sent[0]!.status, 'fetch failed');
  assert.equal(sent[1]!.status, 201);
  assert.ok(sent[0]!.idempotencyKey);
  assert.equal(sent[1]!.idempotencyKey, sent[0]!.idempotencyKey);

  const servers = json(await call(t.app, 'GET', '/v2/servers', { key: c.key }));
  assert.deepEqual(servers.data.map((s: { id: string }) => s.id), [created.id]);
  const withdrawals = json(await call(t.app, 'GET', '/v2/billing/transactions', { key: c.key, query: { type: 'withdraw' } }));
  assert.equal(withdrawals.meta.pagination.total, 1);
  assert.equal(json(await call(t.app, 'GET', '/v2/billing/balance', { key: c.key })).data.balance.amount, '15.00');

  // Without a key (idempotencyKey: false) a lost POST is not repeated: it might charge twice.
  const once: Sent[] = [];
  const bare = new Hostcloud({ baseUrl, token: c.key, fetch: recordingFetch(once, async () => { throw new TypeError('fetch failed'); }) });
  await assert.rejects(bare.servers.create(serverBody(), { idempotencyKey: false }), (e: unknown) => e instanceof HostcloudError && e.code === 'NETWORK_ERROR' && e.status === 0);
  assert.equal(once.length, 1);
  assert.equal(once[0]!.idempotencyKey, null);
});
