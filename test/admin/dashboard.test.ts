// GET /admin/v1/dashboard: the console's first page — every role reads it, money only for roles
// that read billing — and the console's page itself at /admin (never over /admin/v1).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { STAFF_ROLES, mayDo } from '../../src/core/staff/roles.ts';
import { adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { ConsoleClient, createStaff } from '../helpers/staff.ts';

const t = await startApp();
const db = t.database.db;

async function seed() {
  const a = await createCustomer(t, { deposit: '100.00' });
  const b = await createCustomer(t);
  await adminCall(t, 'PATCH', `/admin/v1/accounts/${b.accountId}`, { status: 'closed' });
  const dep = await sql<{ id: number }>`SELECT id FROM transactions WHERE account_id = ${a.accountId} AND type = 'deposit' LIMIT 1`.execute(db);
  await sql`INSERT INTO payments (id, account_id, provider, status, net_cents, tax_cents, gross_cents, tax_rate_bp, tax_label, deposit_id, settled_at)
    VALUES ('pay_dash1', ${a.accountId}, 'simulated', 'paid', 10000, 1900, 11900, 1900, 'VAT', ${dep.rows[0]!.id}, now())`.execute(db);
  await sql`INSERT INTO operations (id, account_id, type, status, resource_type, resource_id, finished_at) VALUES
    ('op_dash_failed', ${a.accountId}, 'server.reboot', 'failed', 'server', 'srv_x', now() - interval '1 hour'),
    ('op_dash_old', ${a.accountId}, 'server.reboot', 'failed', 'server', 'srv_x', now() - interval '3 days'),
    ('op_dash_queued', ${a.accountId}, 'server.reboot', 'queued', 'server', 'srv_x', NULL)`.execute(db);
  const dept = await sql<{ id: number }>`INSERT INTO departments (name, email) VALUES ('Dash support', 'dash@example.com') RETURNING id`.execute(db);
  await sql`INSERT INTO tickets (id, account_id, subject, department_id, status) VALUES
    ('990001', ${a.accountId}, 'a', ${dept.rows[0]!.id}, 'open'),
    ('990002', ${a.accountId}, 'b', ${dept.rows[0]!.id}, 'closed'),
    ('990003', ${a.accountId}, 'c', NULL, 'customer_reply')`.execute(db);
}

test('GET /admin/v1/dashboard: counts, revenue, node fill, open tickets by department', async () => {
  const before = json(await adminCall(t, 'GET', '/admin/v1/dashboard')).data;
  await seed();
  const res = await adminCall(t, 'GET', '/admin/v1/dashboard');
  assert.equal(res.statusCode, 200, res.body);
  const d = json(res).data;
  assert.equal(d.accounts, before.accounts + 1, 'the closed account is not counted');
  assert.equal(d.failed_operations_24h, before.failed_operations_24h + 1, 'only the last 24 hours');
  assert.equal(d.queue_depth, before.queue_depth + 1);
  assert.equal(d.revenue_month.net_cents, before.revenue_month.net_cents + 10000);
  assert.equal(d.payments_today.count, before.payments_today.count + 1);
  assert.equal(d.payments_today.gross_cents, before.payments_today.gross_cents + 11900);
  assert.match(d.revenue_month.since, /^\d{4}-\d{2}-01T00:00:00Z$/);
  assert.ok(Array.isArray(d.nodes));
  for (const n of d.nodes) {
    assert.equal(typeof n.cpu.used, 'number');
    assert.equal(typeof n.ram_mb.capacity, 'number');
  }
  const dash = d.open_tickets.find((r: { department: string | null }) => r.department === 'Dash support');
  assert.equal(dash.open, 1, 'the closed ticket is not counted');
  assert.ok(d.open_tickets.some((r: { department: string | null; open: number }) => r.department === null && r.open >= 1));
});

test('every role reads the dashboard; money only with billing:read', async () => {
  for (const role of STAFF_ROLES) {
    const m = await createStaff(t, role);
    const res = await call(t.app, 'GET', '/admin/v1/dashboard', { key: m.token });
    assert.equal(res.statusCode, 200, `${role}: ${res.body}`);
    const d = json(res).data;
    assert.equal(d.revenue_month === null, !mayDo(role, 'billing:read'), role);
    assert.equal(d.payments_today === null, !mayDo(role, 'billing:read'), role);
  }
  assert.equal((await call(t.app, 'GET', '/admin/v1/dashboard')).statusCode, 401);
  const bad = await adminCall(t, 'GET', '/admin/v1/dashboard?x=1');
  assert.equal(bad.statusCode, 422);
});

test('GET /admin/v1/session answers the member\'s rights once signed in', async () => {
  const m = await createStaff(t, 'support');
  const c = new ConsoleClient(t, '127.0.0.9');
  assert.deepEqual((await c.session()).rights, []);
  assert.equal((await c.setPassword(m.url)).statusCode, 200);
  assert.equal((await c.consoleSignIn(m.email)).res.statusCode, 200);
  const s = await c.session();
  assert.equal(s.stage, 'full');
  assert.ok(s.rights.includes('accounts:read'));
  assert.ok(s.rights.includes('tickets:write'));
  assert.ok(!s.rights.includes('billing:read'));
  assert.ok(!s.rights.includes('accounts:write'));
});

test('the console page: /admin and its client routes, hashed assets, CSP; /admin/v1 stays the API', async () => {
  for (const url of ['/admin', '/admin/', '/admin/accounts/acc_x', '/admin/set-password/abc']) {
    const res = await call(t.app, 'GET', url);
    assert.equal(res.statusCode, 200, url);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /<title>Hostcloud console<\/title>/);
    assert.match(String(res.headers['content-security-policy']), /script-src 'self'/);
    assert.equal(res.headers['x-frame-options'], 'DENY');
  }
  const html = (await call(t.app, 'GET', '/admin')).body;
  const js = /src="(\/admin\/assets\/app\.js\?v=[^"]+)"/.exec(html)?.[1];
  const css = /href="(\/admin\/assets\/app\.css\?v=[^"]+)"/.exec(html)?.[1];
  assert.ok(js && css, html);
  const jsRes = await call(t.app, 'GET', js);
  assert.equal(jsRes.statusCode, 200);
  assert.match(String(jsRes.headers['cache-control']), /immutable/);
  assert.equal((await call(t.app, 'GET', css)).statusCode, 200);
  assert.ok(!/https?:\/\/(?!127\.0\.0\.1)/.test(html), 'no CDN');

  const unknown = await call(t.app, 'GET', '/admin/v1/no-such-thing');
  assert.equal(unknown.statusCode, 404);
  assert.equal(json(unknown).error.code, 'ENDPOINT_NOT_FOUND');
  const unknownPost = await call(t.app, 'POST', '/admin/v1/no-such-thing', { body: {} });
  assert.equal(unknownPost.statusCode, 404, 'the page\'s GET is no method of the API');
  const wrongMethod = await call(t.app, 'GET', '/admin/v1/session/code');
  assert.equal(wrongMethod.statusCode, 405);
  assert.equal((await call(t.app, 'GET', '/admin/assets/nope.js')).statusCode, 404);
});
