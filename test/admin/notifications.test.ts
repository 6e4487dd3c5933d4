// The notifications outbox: queueNotification (inside the caller's transaction, nothing in the
// sandbox), the rows it writes, and the operator's list over the admin API and the CLI.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { runAdmin } from '../../src/cli/admin.ts';
import { ApiError } from '../../src/core/errors.ts';
import { queueNotification } from '../../src/core/notifications/queue.ts';
import type { Notification } from '../../src/db/schema.ts';
import { withCtx } from '../../src/http/core-call.ts';
import { servicesFor } from '../../src/runtime.ts';
import { adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';

const t = await startApp();
const db = t.database.db;
const alice = await createCustomer(t, { email: 'alice@example.com' });
const bob = await createCustomer(t, { email: 'bob@example.com' });

type Res = Awaited<ReturnType<typeof call>>;

function assertInvalid(res: Res, fields: string[]) {
  assert.equal(res.statusCode, 422, res.body);
  assert.equal(json(res).error.code, 'VALIDATION_FAILED');
  assert.deepEqual((json(res).error.errors as { field: string }[]).map((e) => e.field).sort(), [...fields].sort(), res.body);
}

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const count = async () => Number((await db.selectFrom('notifications').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);

test('queueNotification: a queued row to the account\'s email, every column as documented', async () => {
  const n = await queueNotification(db, { accountId: alice.accountId, kind: 'hosting.cancelled', subject: 'Your hosting for example.com was cancelled', body: 'Hello,\n\nIt is gone.\n' });
  const row = await db.selectFrom('notifications').selectAll().where('id', '=', n.id).executeTakeFirstOrThrow();
  assert.deepEqual(row, n);
  assert.equal(typeof row.id, 'number');
  assert.equal(row.account_id, alice.accountId);
  assert.equal(row.kind, 'hosting.cancelled');
  assert.equal(row.to_email, 'alice@example.com');
  assert.equal(row.subject, 'Your hosting for example.com was cancelled');
  assert.equal(row.body, 'Hello,\n\nIt is gone.\n');
  assert.equal(row.status, 'queued');
  assert.equal(row.attempts, 0);
  assert.equal(row.last_error, null);
  assert.equal(row.sent_at, null);
  assert.ok(Math.abs(row.created_at.getTime() - Date.now()) < 60_000);
  assert.ok(row.next_attempt_at.getTime() <= Date.now() + 1000, 'due at once');

  const other = await queueNotification(db, { accountId: alice.accountId, kind: 'ticket.answered', subject: 'Re: help', body: '', toEmail: 'billing@alice.example' });
  assert.equal(other.to_email, 'billing@alice.example', 'an explicit address wins');
  assert.equal(other.body, '', 'an empty body is allowed');
});

test('queueNotification: customer text is made storable, never a reason for the change to fail', async () => {
  const n = await queueNotification(db, {
    accountId: alice.accountId, kind: 'ticket.answered',
    subject: `  Re:\r\nBcc: evil@example.com\t${'x'.repeat(300)}`, body: `a\u0000b\n${'y'.repeat(100_010)}`,
  });
  assert.equal(n.subject.length, 200);
  assert.ok(n.subject.startsWith('Re: Bcc: evil@example.com x'), n.subject.slice(0, 40));
  assert.ok(n.subject.endsWith('…'));
  assert.ok(!/[\r\n]/.test(n.subject), 'a subject is one line: no header can be injected');
  assert.equal(n.body.length, 100_000);
  assert.ok(n.body.startsWith('ab\ny'), 'NUL removed');
});

test('queueNotification: programming errors are refused, and nothing is written', async () => {
  const before = await count();
  const ok = { accountId: alice.accountId, kind: 'service.suspended', subject: 's', body: 'b' };
  for (const kind of ['', 'suspended', 'Service.Suspended', 'service.', '.service', 'service suspended', `a.${'b'.repeat(63)}`]) {
    await assert.rejects(queueNotification(db, { ...ok, kind }), /kind/, kind);
  }
  await assert.rejects(queueNotification(db, { ...ok, subject: ' \r\n ' }), /subject/);
  await assert.rejects(queueNotification(db, { ...ok, toEmail: 'not an address' }), /email address/);
  await assert.rejects(queueNotification(db, { ...ok, toEmail: `${'a'.repeat(250)}@b.cd` }), /email address/);
  await assert.rejects(queueNotification(db, { ...ok, accountId: 'acc_missing' }), (e) => e instanceof ApiError && e.code === 'RESOURCE_NOT_FOUND');
  assert.equal(await count(), before);
});

test('queueNotification joins the caller\'s transaction: it commits or rolls back with the change', async () => {
  const before = await count();
  await assert.rejects(db.transaction().execute(async (trx) => {
    await queueNotification(trx, { accountId: alice.accountId, kind: 'service.suspended', subject: 'Suspended', body: 'b' });
    throw new Error('the change failed');
  }), /the change failed/);
  assert.equal(await count(), before, 'rolled back with the change');
  const kept = await db.transaction().execute((trx) => queueNotification(trx, { accountId: alice.accountId, kind: 'service.suspended', subject: 'Suspended', body: 'b' }));
  assert.equal((await db.selectFrom('notifications').select('id').where('id', '=', kept.id).execute()).length, 1);
});

test('sandbox: a notice queued by a test-key request exists inside it and nowhere after', async () => {
  const before = await count();
  const deps = { db, config: t.config, now: () => new Date(), services: servicesFor(t.config, db) };
  const request = { headers: {}, caller: { accountId: bob.accountId, keyId: bob.keyId, scopes: null, sandbox: true } } as unknown as FastifyRequest;
  const seen = await withCtx(deps, request, async (ctx) => {
    assert.equal(ctx.sandbox, true);
    const n = await queueNotification(ctx.db, { accountId: ctx.accountId, kind: 'hosting.cancelled', subject: 'Sandbox', body: 'b' });
    const inside = await ctx.db.selectFrom('notifications').select('id').where('id', '=', n.id).execute();
    return { n, inside: inside.length };
  });
  assert.equal(seen.inside, 1, 'the row was written in the sandbox transaction');
  assert.equal(seen.n.to_email, 'bob@example.com');
  assert.equal(await count(), before, 'and rolled back with it');
  assert.equal((await db.selectFrom('notifications').select('id').where('account_id', '=', bob.accountId).execute()).length, 0);
});

test('GET /admin/v1/notifications: newest first, every field, paged, filtered', async () => {
  const carol = await createCustomer(t, { email: 'carol@example.com' });
  const made: Notification[] = [];
  for (const [i, kind] of ['hosting.cancelled', 'ticket.answered', 'hosting.cancelled', 'service.suspended', 'hosting.cancelled'].entries()) {
    made.push(await queueNotification(db, { accountId: carol.accountId, kind, subject: `Notice ${i}`, body: `Body ${i}` }));
  }
  // As a sender would leave them: one sent, one failed.
  await db.updateTable('notifications').set({ status: 'sent', sent_at: new Date(), attempts: 1 }).where('id', '=', made[1]!.id).execute();
  await db.updateTable('notifications').set({ status: 'failed', attempts: 5, last_error: '550 no such user' }).where('id', '=', made[3]!.id).execute();

  const all = await adminCall(t, 'GET', `/admin/v1/notifications?account_id=${carol.accountId}`);
  assert.equal(all.statusCode, 200, all.body);
  const body = json(all);
  assert.deepEqual(body.meta.pagination, { page: 1, per_page: 25, total: 5, total_pages: 1 });
  assert.equal(body.meta.version, '2.0.0');
  assert.deepEqual(body.data.map((n: { id: number }) => n.id), made.map((n) => n.id).reverse(), 'newest first');
  const [newest] = body.data;
  assert.deepEqual(Object.keys(newest).sort(), [
    'account_id', 'attempts', 'body', 'created_at', 'id', 'kind', 'last_error', 'next_attempt_at', 'sent_at', 'status', 'subject', 'to_email',
  ]);
  assert.equal(newest.id, made[4]!.id);
  assert.equal(newest.account_id, carol.accountId);
  assert.equal(newest.kind, 'hosting.cancelled');
  assert.equal(newest.to_email, 'carol@example.com');
  assert.equal(newest.subject, 'Notice 4');
  assert.equal(newest.body, 'Body 4');
  assert.equal(newest.status, 'queued');
  assert.equal(newest.attempts, 0);
  assert.equal(newest.last_error, null);
  assert.match(newest.created_at, TIMESTAMP);
  assert.match(newest.next_attempt_at, TIMESTAMP);
  assert.equal(newest.sent_at, null);
  const sent = body.data.find((n: { id: number }) => n.id === made[1]!.id);
  assert.equal(sent.status, 'sent');
  assert.match(sent.sent_at, TIMESTAMP);
  assert.equal(sent.next_attempt_at, null);
  const failed = body.data.find((n: { id: number }) => n.id === made[3]!.id);
  assert.deepEqual([failed.status, failed.attempts, failed.last_error, failed.next_attempt_at, failed.sent_at], ['failed', 5, '550 no such user', null, null]);

  const ids = async (q: string) => json(await adminCall(t, 'GET', `/admin/v1/notifications?account_id=${carol.accountId}&${q}`)).data.map((n: { id: number }) => n.id);
  assert.deepEqual(await ids('status=queued'), [made[4]!.id, made[2]!.id, made[0]!.id]);
  assert.deepEqual(await ids('status=sent'), [made[1]!.id]);
  assert.deepEqual(await ids('status=failed'), [made[3]!.id]);
  assert.deepEqual(await ids('kind=hosting.cancelled'), [made[4]!.id, made[2]!.id, made[0]!.id]);
  assert.deepEqual(await ids('kind=hosting.cancelled&status=queued&per_page=2&page=2'), [made[0]!.id]);
  assert.deepEqual(await ids('kind=domain.expiring'), []);
  const p2 = json(await adminCall(t, 'GET', `/admin/v1/notifications?account_id=${carol.accountId}&per_page=2&page=2`));
  assert.deepEqual(p2.meta.pagination, { page: 2, per_page: 2, total: 5, total_pages: 3 });
  assert.deepEqual(p2.data.map((n: { id: number }) => n.id), [made[2]!.id, made[1]!.id]);
  const past = json(await adminCall(t, 'GET', `/admin/v1/notifications?account_id=${carol.accountId}&page=9`));
  assert.deepEqual([past.data, past.meta.pagination.total], [[], 5], 'a page past the end still counts');

  // Without filters: everyone's, newest first; other accounts are in the list too.
  const everyone = json(await adminCall(t, 'GET', '/admin/v1/notifications?per_page=100'));
  assert.equal(everyone.data[0].id, made[4]!.id);
  assert.ok(everyone.data.some((n: { account_id: string }) => n.account_id === alice.accountId));
  assert.equal(everyone.meta.pagination.total, await count());
  assert.deepEqual(json(await adminCall(t, 'GET', '/admin/v1/notifications?account_id=acc_nobody')).data, []);
});

test('GET /admin/v1/notifications: bad filters are 422 naming the parameter; the admin token is required', async () => {
  const url = '/admin/v1/notifications';
  assertInvalid(await adminCall(t, 'GET', `${url}?status=pending`), ['status']);
  assertInvalid(await adminCall(t, 'GET', `${url}?kind=Hosting`), ['kind']);
  assertInvalid(await adminCall(t, 'GET', `${url}?kind=${'a.'.repeat(40)}b`), ['kind']);
  assertInvalid(await adminCall(t, 'GET', `${url}?account_id=${'a'.repeat(65)}`), ['account_id']);
  assertInvalid(await adminCall(t, 'GET', `${url}?account_id=`), ['account_id']);
  assertInvalid(await adminCall(t, 'GET', `${url}?account_id=acc%00x`), ['account_id']);
  assertInvalid(await adminCall(t, 'GET', `${url}?per_page=101`), ['per_page']);
  assertInvalid(await adminCall(t, 'GET', `${url}?page=0`), ['page']);
  assertInvalid(await adminCall(t, 'GET', `${url}?page=x`), ['page']);
  const anon = await call(t.app, 'GET', url);
  assert.equal(anon.statusCode, 401);
  assert.equal(json(anon).error.code, 'AUTH_REQUIRED');
  const customer = await call(t.app, 'GET', url, { key: alice.key });
  assert.equal(customer.statusCode, 401, 'a customer key is not an admin token');
  assert.equal(json(customer).error.code, 'AUTH_INVALID');
});

test('hostcloud admin notifications list [--account] [--status] [--kind]', async () => {
  const dave = await createCustomer(t, { email: 'dave@example.com' });
  const a = await queueNotification(db, { accountId: dave.accountId, kind: 'domain.expiring', subject: 'example.org expires soon', body: 'Renew it.' });
  const b = await queueNotification(db, { accountId: dave.accountId, kind: 'service.suspended', subject: 'Suspended', body: '.' });
  await db.updateTable('notifications').set({ status: 'failed', attempts: 5, last_error: 'refused' }).where('id', '=', b.id).execute();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  const cli = async (...args: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runAdmin(['--url', `http://127.0.0.1:${port}`, '--token', t.adminToken, '--json', ...args], {
      stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; },
    });
    // With --json an error is one JSON object on stderr; its message is what a person would read.
    return { code, out: stdout ? JSON.parse(stdout) : null, stderr: stderr ? (JSON.parse(stderr) as { error: { message: string } }).error.message : '' };
  };
  const mine = await cli('notifications', 'list', '--account', dave.accountId);
  assert.equal(mine.code, 0, mine.stderr);
  assert.deepEqual(mine.out.data.map((n: { id: number }) => n.id), [b.id, a.id]);
  assert.equal(mine.out.meta.pagination.per_page, 100);
  assert.equal(mine.out.data[1].subject, 'example.org expires soon');
  const failed = await cli('notifications', 'list', '--account', dave.accountId, '--status', 'failed');
  assert.deepEqual(failed.out.data.map((n: { id: number; last_error: string }) => [n.id, n.last_error]), [[b.id, 'refused']]);
  const kind = await cli('notifications', 'list', '--kind', 'domain.expiring', '--account', dave.accountId);
  assert.deepEqual(kind.out.data.map((n: { id: number }) => n.id), [a.id]);
  const all = await cli('notifications', 'list');
  assert.equal(all.out.meta.pagination.total, await count());
  const bad = await cli('notifications', 'list', '--status', 'lost');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /422 VALIDATION_FAILED[\s\S]*status:/);
  assert.equal((await cli('notifications', 'list', '--colour', 'red')).code, 2, 'an unknown option is an error');
  const help = await runAdmin(['help'], { stdout: (s) => { assert.match(s, /notifications list \[--account ID\] \[--status queued\|sent\|failed\]/); }, stderr: () => {} });
  assert.equal(help, 0);
});
