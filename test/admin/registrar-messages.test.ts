// The registry's messages for the operator: GET /admin/v1/registrar-messages (newest first, paged,
// filtered) and `hostcloud admin registrar messages`. Rows are recorded as the worker's poll does.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { runAdmin } from '../../src/cli/admin.ts';
import { recordRegistrarMessage } from '../../src/db/queries/registrar-messages.ts';
import { adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { assertError } from '../helpers/domains.ts';

const t = await startApp();
const db = t.database.db;
let since = '';

before(async () => {
  const rows = [
    { msgId: '101', domain: 'moved-in.com', kind: 'transfer' as const, text: 'Transfer approved', detail: { state: 'completed', gaining: 'hostcloud', losing: 'otherreg', ours: true } },
    { msgId: '102', domain: null, kind: 'notice' as const, text: 'Scheduled maintenance on Sunday', detail: {} },
    { msgId: '103', domain: 'xn--bcher-kva.com', kind: 'transfer' as const, text: 'Transfer rejected', detail: { state: 'rejected', gaining: 'hostcloud', losing: 'otherreg', ours: true } },
  ];
  for (const r of rows) await recordRegistrarMessage(db, { registrar: 'EPP', queuedAt: new Date('2026-11-20T10:00:00Z'), ...r });
  // One from before: it is older than `since` below.
  await db.updateTable('registrar_messages').set({ received_at: new Date('2026-01-01T00:00:00Z') }).where('msg_id', '=', '101').execute();
  since = '2026-06-01T00:00:00Z';
  // The same message read twice (its acknowledgement lost) is one row.
  await recordRegistrarMessage(db, { registrar: 'EPP', msgId: '102', queuedAt: null, domain: null, kind: 'notice', text: 'again', detail: {} });
});

test('newest first, paged, with every field', async () => {
  const res = await adminCall(t, 'GET', '/admin/v1/registrar-messages');
  assert.equal(res.statusCode, 200, res.body);
  const body = json(res);
  assert.deepEqual(body.data.map((m: { msg_id: string }) => m.msg_id), ['103', '102', '101']);
  assert.deepEqual(body.meta.pagination, { page: 1, per_page: 25, total: 3, total_pages: 1 });
  const transfer = body.data[0];
  assert.deepEqual({ ...transfer, id: undefined, received_at: undefined }, {
    id: undefined, registrar: 'EPP', msg_id: '103', kind: 'transfer', domain: 'xn--bcher-kva.com', text: 'Transfer rejected',
    detail: { state: 'rejected', gaining: 'hostcloud', losing: 'otherreg', ours: true }, queued_at: '2026-11-20T10:00:00Z', received_at: undefined,
  });
  assert.match(transfer.received_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.equal(body.data[1].text, 'Scheduled maintenance on Sunday', 'the first reading stands');
  const second = json(await adminCall(t, 'GET', '/admin/v1/registrar-messages?per_page=2&page=2'));
  assert.deepEqual(second.data.map((m: { msg_id: string }) => m.msg_id), ['101']);
  assert.equal(second.meta.pagination.total_pages, 2);
});

test('filters: kind, domain (IDN or punycode, any case), registrar, since', async () => {
  const ids = async (q: string) => json(await adminCall(t, 'GET', `/admin/v1/registrar-messages?${q}`)).data.map((m: { msg_id: string }) => m.msg_id);
  assert.deepEqual(await ids('kind=notice'), ['102']);
  assert.deepEqual(await ids('kind=transfer'), ['103', '101']);
  assert.deepEqual(await ids(`domain=${encodeURIComponent('Bücher.com.')}`), ['103']);
  assert.deepEqual(await ids('domain=MOVED-IN.com'), ['101']);
  assert.deepEqual(await ids('registrar=EPP&kind=transfer&domain=moved-in.com'), ['101']);
  assert.deepEqual(await ids('registrar=other'), []);
  assert.deepEqual(await ids(`since=${since}`), ['103', '102']);
});

test('bad input is 422 naming the field', async () => {
  assertError(await adminCall(t, 'GET', '/admin/v1/registrar-messages?kind=urgent'), 422, 'VALIDATION_FAILED', ['kind']);
  assertError(await adminCall(t, 'GET', '/admin/v1/registrar-messages?since=yesterday'), 422, 'VALIDATION_FAILED', ['since']);
  assertError(await adminCall(t, 'GET', '/admin/v1/registrar-messages?per_page=0'), 422, 'VALIDATION_FAILED', ['per_page']);
  assertError(await adminCall(t, 'GET', '/admin/v1/registrar-messages?page=0'), 422, 'VALIDATION_FAILED', ['page']);
  assertError(await adminCall(t, 'GET', '/admin/v1/registrar-messages?domain=localhost'), 422, 'VALIDATION_FAILED', ['domain']);
  assertError(await adminCall(t, 'GET', '/admin/v1/registrar-messages?colour=red'), 422, 'VALIDATION_FAILED', ['colour']);
});

test('the admin token is required: none 401, a customer key 401', async () => {
  assertError(await call(t.app, 'GET', '/admin/v1/registrar-messages'), 401, 'AUTH_REQUIRED');
  const c = await createCustomer(t);
  assertError(await call(t.app, 'GET', '/admin/v1/registrar-messages', { key: c.key }), 401, 'AUTH_INVALID');
  assertError(await call(t.app, 'GET', '/admin/v1/registrar-messages', { headers: { authorization: 'Bearer wrong-token' } }), 401, 'AUTH_INVALID');
});

test('hostcloud admin registrar messages', async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  const cli = async (args: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runAdmin(['--url', `http://127.0.0.1:${port}`, '--token', t.adminToken, ...args], {
      stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; },
    });
    return { code, stdout, stderr };
  };
  const table = await cli(['registrar', 'messages']);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /^RECEIVED_AT +KIND +DOMAIN +MSG_ID +TEXT/m);
  assert.match(table.stdout, /transfer +xn--bcher-kva\.com +103 +Transfer rejected/);
  const notices = await cli(['registrar', 'messages', '--kind', 'notice', '--json']);
  assert.equal(notices.code, 0, notices.stderr);
  assert.deepEqual(JSON.parse(notices.stdout).data.map((m: { msg_id: string }) => m.msg_id), ['102']);
  const byDomain = await cli(['registrar', 'messages', '--domain', 'moved-in.com', '--since', '2025-01-01T00:00:00Z']);
  assert.match(byDomain.stdout, /Transfer approved/);
  const bad = await cli(['registrar', 'messages', '--kind', 'urgent', '--since', 'soon']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--kind must be one of transfer, notice/);
  assert.match(bad.stderr, /--since must be a date and time/);
  const badPage = await cli(['registrar', 'messages', '--per-page', '1000']);
  assert.equal(badPage.code, 2);
  assert.match(badPage.stderr, /--per-page must be a whole number from 1 to 100/);
  const help = await cli(['help']);
  assert.match(help.stdout, /registrar messages \[--kind transfer\|notice\]/);
});
