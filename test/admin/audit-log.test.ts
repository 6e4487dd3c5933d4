// The audit log: every admin write with its actor, target and changed fields (secrets redacted),
// written with the write; immutable in the database; GET /admin/v1/audit-log filters and pages.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { redact } from '../../src/core/staff/audit.ts';
import { adminCall, call, json, startApp } from '../helpers/app.ts';
import { createStaff } from '../helpers/staff.ts';

const t = await startApp();

async function entries(query: string) {
  const res = await adminCall(t, 'GET', `/admin/v1/audit-log?${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data;
}

test('writes by ADMIN_TOKEN and by a staff token are audited with their actor, target and changes; secrets redacted', async () => {
  const opened = await adminCall(t, 'POST', '/admin/v1/accounts', { email: 'audit@hostcloud.test', name: 'Audit', api_key: { ip_allowlist: ['127.0.0.1'] } });
  assert.equal(opened.statusCode, 201, opened.body);
  const accountId = json(opened).data.id;
  const billing = await createStaff(t, 'billing');
  const patch = await call(t.app, 'PATCH', `/admin/v1/accounts/${accountId}`, { key: billing.token, body: { name: 'Audited', country: 'DE' } });
  assert.equal(patch.statusCode, 200, patch.body);

  // Newest first: the change, then the create (which names the account it made).
  const rows = await entries(`target_type=account&target_id=${accountId}`);
  assert.deepEqual(rows.map((r: { action: string }) => r.action), ['PATCH /accounts/:id', 'createAccount']);
  const [p] = rows;
  assert.equal(p.action, 'PATCH /accounts/:id');
  assert.deepEqual(p.actor, { type: 'staff', id: billing.id, email: billing.email });
  assert.deepEqual(p.changes, { name: 'Audited', country: 'DE' });
  assert.equal(p.request_id, patch.headers['x-request-id']);
  assert.equal(p.ip, '127.0.0.1');

  const created = (await entries('action=createAccount&actor=admin_token'))[0];
  assert.equal(created.actor.type, 'admin_token');
  assert.equal(created.changes.api_key, '[redacted]');
  assert.equal(created.changes.email, 'audit@hostcloud.test');

  // A create names what it made: the token, not the member it belongs to.
  const staffRows = await entries(`action=createStaffToken&target_type=staff_token&target_id=${billing.tokenId}`);
  assert.equal(staffRows.length, 1);
  assert.ok(!JSON.stringify(staffRows).includes(billing.token), 'no token secret in the audit log');
  assert.ok(!JSON.stringify(await entries('per_page=100')).includes('hc_staff_'), 'no staff token anywhere in the log');
});

test('an owner resetting two-factor is audited; a refused or failed write leaves no row', async () => {
  const m = await createStaff(t, 'support');
  await adminCall(t, 'POST', `/admin/v1/staff/${m.id}/two-factor/reset`);
  const reset = await entries(`action=resetStaffTwoFactor&target_id=${m.id}`);
  assert.equal(reset.length, 1);
  assert.equal(reset[0].target.type, 'staff');

  const before = (await entries('per_page=1'))[0].id;
  assert.equal((await adminCall(t, 'PATCH', '/admin/v1/accounts/acc_missing', { name: 'x' })).statusCode, 404);
  assert.equal((await adminCall(t, 'POST', '/admin/v1/staff', { email: 'bad', name: 'x', role: 'admin' })).statusCode, 422);
  assert.equal((await call(t.app, 'POST', '/admin/v1/plans', { key: m.token, body: {} })).statusCode, 403);
  assert.equal((await entries('per_page=1'))[0].id, before);
});

test('the database refuses UPDATE, DELETE and TRUNCATE on the audit log', async () => {
  await adminCall(t, 'POST', '/admin/v1/staff', { email: 'imm@hostcloud.test', name: 'Imm', role: 'readonly' });
  const db = t.database.db;
  await assert.rejects(sql`UPDATE audit_log SET action = 'forged'`.execute(db), /append-only/);
  await assert.rejects(sql`DELETE FROM audit_log`.execute(db), /append-only/);
  await assert.rejects(sql`TRUNCATE audit_log`.execute(db), /append-only/);
  const n = await sql<{ n: number }>`SELECT count(*)::int AS n FROM audit_log WHERE action = 'forged'`.execute(db);
  assert.equal(n.rows[0]!.n, 0);
});

test('GET /admin/v1/audit-log: newest first, paged, filtered by time; bad filters 422; roles', async () => {
  const all = await entries('per_page=100');
  for (let i = 1; i < all.length; i++) assert.ok(all[i - 1].id > all[i].id);
  const p1 = json(await adminCall(t, 'GET', '/admin/v1/audit-log?per_page=1&page=2'));
  assert.equal(p1.data[0].id, all[1].id);
  assert.equal(p1.meta.pagination.total, all.length);
  assert.equal((await entries('until=2000-01-01T00:00:00Z')).length, 0);
  assert.equal((await entries(`since=${new Date(Date.now() - 3600_000).toISOString()}`)).length, all.length);
  assert.equal((await adminCall(t, 'GET', '/admin/v1/audit-log?since=yesterday')).statusCode, 422);
  assert.equal((await adminCall(t, 'GET', '/admin/v1/audit-log?who=x')).statusCode, 422);
  const support = await createStaff(t, 'support');
  assert.equal((await call(t.app, 'GET', '/admin/v1/audit-log', { key: support.token })).statusCode, 403);
  const ro = await createStaff(t, 'readonly');
  assert.equal((await call(t.app, 'GET', '/admin/v1/audit-log', { key: ro.token })).statusCode, 200);
});

test('redact: secrets at any depth', () => {
  assert.deepEqual(redact({ name: 'x', password: 'p', nested: { api_key: 'k', token: 't', list: [{ secret: 's', ok: 1 }] }, auth_code: 'c' }),
    { name: 'x', password: '[redacted]', nested: { api_key: '[redacted]', token: '[redacted]', list: [{ secret: '[redacted]', ok: 1 }] }, auth_code: '[redacted]' });
});

test('hostcloud admin with a staff token (--token): its writes are audited as that member; audit-log lists them', async () => {
  const { runAdmin } = await import('../../src/cli/admin.ts');
  const member = await createStaff(t, 'billing');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  const cli = async (token: string, ...args: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runAdmin(['--url', `http://127.0.0.1:${port}`, '--token', token, '--json', ...args], { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; } });
    return { code, out: stdout ? JSON.parse(stdout) : null, stderr };
  };
  const made = await cli(member.token, 'accounts', 'create', '--email', 'cli-audit@hostcloud.test', '--name', 'CLI Audit');
  assert.equal(made.code, 0, made.stderr);
  const rows = await entries(`actor=${member.id}&action=createAccount`);
  assert.equal(rows.length, 1);
  assert.equal(rows[0].actor.email, member.email);
  const listed = await cli(member.token, 'audit-log', '--actor', member.id);
  // billing may not read the audit log; an owner's token may.
  assert.notEqual(listed.code, 0);
  assert.match(listed.stderr, /AUTH_SCOPE_INSUFFICIENT/);
  const owner = await createStaff(t, 'owner');
  const mine = await cli(owner.token, 'audit-log', '--actor', member.id, '--action', 'createAccount');
  assert.equal(mine.code, 0, mine.stderr);
  const list = Array.isArray(mine.out) ? mine.out : mine.out.data;
  assert.equal(list.length, 1, JSON.stringify(mine.out));
  assert.equal(list[0].actor.id, member.id);
});
