// The operator's operations: GET /admin/v1/operations (filters, paging), GET …/{id}, POST …/cancel
// of a queued or stuck operation (failed at once with the refund and clean-up), the refusals of
// cancel and retry, and `hostcloud admin operations`. A running operation's cancel and a retry that
// runs: operations-run.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { adminCli } from '../helpers/admin-cli.ts';
import { FRA, serverBody } from '../helpers/servers.ts';

// No worker: operations stay queued.
const t = await startApp({ worker: 'off' });
const db = t.database.db;
await t.app.listen({ port: 0, host: '127.0.0.1' });
const url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;

const balanceOf = async (key: string) => json(await call(t.app, 'GET', '/v2/billing/balance', { key })).data.balance.amount as string;

async function queuedCreate(deposit = '50.00') {
  const c = await createCustomer(t, { deposit });
  const res = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody() });
  assert.equal(res.statusCode, 201, res.body);
  return { c, serverId: json(res).data.id as string, opId: json(res).data.operation.id as string };
}

function assertError(res: Awaited<ReturnType<typeof call>>, status: number, code: string) {
  assert.equal(res.statusCode, status, res.body);
  assert.equal(json(res).error.code, code, res.body);
}


test('list: every account\'s operations newest first, each filter, paging; get; bad input and auth', async () => {
  const a = await queuedCreate();
  const b = await queuedCreate();
  const all = await adminCall(t, 'GET', '/admin/v1/operations?per_page=2');
  assert.equal(all.statusCode, 200, all.body);
  const body = json(all);
  assert.deepEqual(body.data.map((o: { id: string }) => o.id), [b.opId, a.opId], 'newest first');
  assert.ok(body.meta.pagination.total >= 2);
  assert.equal(body.meta.pagination.per_page, 2);
  const first = body.data[0];
  assert.deepEqual(Object.keys(first).sort(), ['account_id', 'attempts', 'cancel_requested_at', 'created_at', 'detail', 'finished_at', 'id', 'last_error',
    'lease_until', 'resource', 'retryable', 'status', 'stuck', 'type', 'updated_at'].sort());
  assert.equal(first.account_id, b.c.accountId);
  assert.equal(first.type, 'server.create');
  assert.equal(first.status, 'queued');
  assert.deepEqual(first.resource, { type: 'server', id: b.serverId });
  assert.equal(first.attempts, 0);
  assert.equal(first.stuck, false);
  assert.equal(first.retryable, false, 'a create charged: the customer starts it again');

  const ids = async (query: string) => {
    const res = await adminCall(t, 'GET', `/admin/v1/operations?${query}`);
    assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
    return (json(res).data as { id: string }[]).map((o) => o.id);
  };
  assert.deepEqual(await ids(`account_id=${a.c.accountId}`), [a.opId]);
  assert.deepEqual(await ids(`resource_id=${b.serverId}`), [b.opId]);
  assert.ok((await ids('status=queued&type=server.create&per_page=100')).includes(a.opId));
  assert.deepEqual(await ids(`status=completed&account_id=${a.c.accountId}`), []);
  assert.deepEqual(await ids(`since=2999-01-01T00:00:00Z`), []);
  assert.deepEqual(await ids(`since=2000-01-01T00:00:00Z&account_id=${a.c.accountId}`), [a.opId]);
  const node = await db.selectFrom('servers').select('node_id').where('id', '=', a.serverId).executeTakeFirstOrThrow();
  assert.ok((await ids(`node_id=${node.node_id}&per_page=100`)).includes(a.opId));
  const other = await db.selectFrom('nodes').select('id').where('id', '!=', node.node_id!).where('location_id', '!=', FRA).executeTakeFirstOrThrow();
  assert.ok(!(await ids(`node_id=${other.id}&per_page=100`)).includes(a.opId));

  for (const [query, field] of [['status=bogus', 'status'], ['type=server.explode', 'type'], ['node_id=abc', 'node_id'], ['since=yesterday', 'since'], ['per_page=1000', 'per_page'], ['colour=red', 'colour']]) {
    const res = await adminCall(t, 'GET', `/admin/v1/operations?${query}`);
    assertError(res, 422, 'VALIDATION_FAILED');
    assert.ok(JSON.stringify(json(res).error.errors).includes(field!), `${query} names ${field}: ${res.body}`);
  }

  const one = await adminCall(t, 'GET', `/admin/v1/operations/${a.opId}`);
  assert.equal(one.statusCode, 200, one.body);
  assert.equal(json(one).data.id, a.opId);
  assertError(await adminCall(t, 'GET', '/admin/v1/operations/op_nope'), 404, 'RESOURCE_NOT_FOUND');

  // Staff only: no token, or a customer's key, is refused.
  assertError(await call(t.app, 'GET', '/admin/v1/operations'), 401, 'AUTH_REQUIRED');
  const customer = await call(t.app, 'GET', '/admin/v1/operations', { key: a.c.key });
  assert.equal(customer.statusCode, 401, customer.body);
  const cust = await call(t.app, 'POST', `/admin/v1/operations/${a.opId}/cancel`, { key: a.c.key });
  assert.equal(cust.statusCode, 401, cust.body);
});

test('cancel a queued or a stuck operation: failed at once with its refund; a finished one is 409; an unknown one 404', async () => {
  const q = await queuedCreate();
  assert.notEqual(await balanceOf(q.c.key), '50.00');
  const res = await adminCall(t, 'POST', `/admin/v1/operations/${q.opId}/cancel`);
  assert.equal(res.statusCode, 200, res.body);
  const op = json(res).data;
  assert.equal(op.status, 'failed');
  assert.equal(op.detail, 'Cancelled by the operator; anything charged for it was refunded');
  assert.ok(op.finished_at);
  assert.equal(await balanceOf(q.c.key), '50.00', 'refunded');
  assert.equal(json(await call(t.app, 'GET', `/v2/servers/${q.serverId}`, { key: q.c.key })).data.status, 'cancelled');
  // The customer reads the same end.
  assert.equal(json(await call(t.app, 'GET', `/v2/operations/${q.opId}`, { key: q.c.key })).data.status, 'failed');
  assertError(await adminCall(t, 'POST', `/admin/v1/operations/${q.opId}/cancel`), 409, 'STATE_CONFLICT');
  assertError(await adminCall(t, 'POST', '/admin/v1/operations/op_nope/cancel'), 404, 'RESOURCE_NOT_FOUND');

  // Stuck: running, its lease lapsed (a worker that died) — or none (waiting for a retry).
  for (const lease of [new Date(Date.now() - 60_000), null]) {
    const s = await queuedCreate();
    await db.updateTable('operations').set({ status: 'running', attempts: 1, lease_until: lease }).where('id', '=', s.opId).execute();
    const listed = json(await adminCall(t, 'GET', `/admin/v1/operations?status=stuck&account_id=${s.c.accountId}`)).data;
    assert.deepEqual(listed.map((o: { id: string; stuck: boolean }) => [o.id, o.stuck]), [[s.opId, true]]);
    const cancelled = await adminCall(t, 'POST', `/admin/v1/operations/${s.opId}/cancel`);
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    assert.equal(json(cancelled).data.status, 'failed');
    assert.equal(await balanceOf(s.c.key), '50.00');
  }
});

test('hostcloud admin operations list|get|cancel|retry, input checked before anything is sent', async () => {
  const q = await queuedCreate();
  const list = await adminCli(t, url, ['operations', 'list', '--account', q.c.accountId]);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /ID\s+TYPE\s+STATUS\s+ACCOUNT_ID\s+RESOURCE\s+ATTEMPTS/);
  assert.match(list.stdout, new RegExp(`${q.opId}\\s+server\\.create\\s+queued\\s+${q.c.accountId}\\s+${q.serverId}`));
  assert.match(list.stdout, /page 1 of 1 \(1 operation\)/);
  const asJson = await adminCli(t, url, ['operations', 'list', '--status', 'queued', '--type', 'server.create', '--since', '2000-01-01', '--json', '--per-page', '100']);
  assert.equal(asJson.code, 0, asJson.stderr);
  assert.ok(JSON.parse(asJson.stdout).data.some((o: { id: string }) => o.id === q.opId));

  const got = await adminCli(t, url, ['operations', 'get', q.opId]);
  assert.equal(got.code, 0, got.stderr);
  assert.match(got.stdout, new RegExp(`Operation ${q.opId} \\(server\\.create\\)`));
  assert.match(got.stdout, new RegExp(`resource\\s+server ${q.serverId}`));

  const cancelled = await adminCli(t, url, ['operations', 'cancel', q.opId]);
  assert.equal(cancelled.code, 0, cancelled.stderr);
  assert.match(cancelled.stdout, new RegExp(`Operation ${q.opId} cancelled: it is failed, and anything charged for it was refunded`));
  assert.equal(await balanceOf(q.c.key), '50.00');
  const again = await adminCli(t, url, ['operations', 'cancel', q.opId]);
  assert.notEqual(again.code, 0);
  assert.match(again.stderr, /already failed/);
  const retry = await adminCli(t, url, ['operations', 'retry', q.opId]);
  assert.notEqual(retry.code, 0);
  assert.match(retry.stderr, /cannot be retried/);

  for (const [args, message] of [
    [['operations', 'list', '--status', 'bogus'], /--status must be one of queued, running, completed, failed, stuck/],
    [['operations', 'list', '--type', 'server.explode'], /--type must be an operation type/],
    [['operations', 'list', '--node', 'x'], /--node must be a node id/],
    [['operations', 'list', '--since', 'yesterday'], /--since must be a date and time/],
    [['operations', 'get'], /OPERATION_ID is missing/],
    [['operations', 'cancel', 'a', 'b'], /unexpected argument "b"/],
  ] as const) {
    const run = await adminCli(t, url, [...args]);
    assert.notEqual(run.code, 0, args.join(' '));
    assert.match(run.stderr, message);
  }
  const help = await adminCli(t, url, ['operations', 'cancel', '--help']);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /hostcloud admin operations cancel OPERATION_ID/);
  assert.match(help.stdout, /hostcloud admin operations cancel op_4Kq9vX2mLp8RtY1z/);
});
