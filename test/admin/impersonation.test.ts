// Staff signing in as the customer: POST /admin/v1/accounts/{id}/impersonation, the single-use
// link, the marked panel session (read-only by role), its banner data, the customer's session
// list, "End", the audit trail of start and end, and what is never allowed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { auditEndedImpersonations } from '../../src/core/staff/impersonation.ts';
import { adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { PanelClient, signedInOwner } from '../helpers/panel.ts';
import { type TestStaff, createStaff } from '../helpers/staff.ts';

const t = await startApp();
const owner = await createStaff(t, 'owner');
const support = await createStaff(t, 'support');

function start(member: { token: string } | string, accountId: string, body: unknown = { reason: 'Ticket 42: the customer cannot find the DNS page' }) {
  return call(t.app, 'POST', `/admin/v1/accounts/${accountId}/impersonation`, { key: typeof member === 'string' ? member : member.token, body });
}

/** Opens a start's url as a browser would: the client holds the impersonation's cookie after. */
async function open(url: string, client = new PanelClient(t, '198.51.100.7')) {
  const path = url.replace(/^https?:\/\/[^/]+/, '');
  const res = await client.request('GET', path);
  return { res, client };
}

async function impersonate(member: TestStaff, accountId: string, reason = 'Ticket 42: the customer cannot find the DNS page') {
  const res = await start(member, accountId, { reason });
  assert.equal(res.statusCode, 201, res.body);
  const { res: opened, client } = await open(json(res).data.url);
  assert.equal(opened.statusCode, 302, opened.body);
  await client.me();
  return { client, data: json(res).data as { url: string; expires_at: string; read_only: boolean } };
}

async function audit(query: string) {
  const res = await adminCall(t, 'GET', `/admin/v1/audit-log?${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data as { action: string; actor: { type: string; id: string | null; email: string | null }; target: { type: string; id: string }; changes: Record<string, unknown> }[];
}

test('an owner signs in as the customer: link → panel session marked, listed to the customer, writes allowed, End audited', async () => {
  const customer = await signedInOwner(t);
  const res = await start(owner, customer.accountId);
  assert.equal(res.statusCode, 201, res.body);
  const data = json(res).data;
  assert.equal(data.read_only, false);
  assert.match(data.url, new RegExp(`^http://api.test/panel/impersonation/[A-Za-z0-9_-]+\\?expires=\\d+&signature=[0-9a-f]{64}$`));
  const ttl = Date.parse(data.expires_at) - Date.now();
  assert.ok(ttl > 250_000 && ttl <= 301_000, `${ttl}`);
  assert.equal(res.headers['cache-control'], 'no-store');

  const { res: opened, client } = await open(data.url);
  assert.equal(opened.statusCode, 302);
  assert.equal(opened.headers.location, '/panel');
  assert.equal(opened.headers['cache-control'], 'no-store');
  // Single use.
  assert.equal((await open(data.url)).res.statusCode, 409);

  const me = await client.me();
  assert.equal(me.signed_in, true);
  assert.equal(me.account.id, customer.accountId);
  assert.deepEqual(me.impersonation, { staff_name: 'Staff 1', reason: 'Ticket 42: the customer cannot find the DNS page', read_only: false });
  // The customer's own view has none.
  assert.equal((await customer.client.me()).impersonation, null);

  // The customer's session list shows it, as done by staff.
  const list = json(await customer.client.request('GET', '/panel/api/sessions')).data as { id: string; current: boolean; ip: string; impersonation: unknown }[];
  assert.equal(list.length, 2);
  const staffRow = list.find((s) => s.impersonation !== null)!;
  assert.deepEqual(staffRow.impersonation, { staff_name: 'Staff 1', reason: 'Ticket 42: the customer cannot find the DNS page', read_only: false });
  assert.equal(staffRow.ip, '198.51.100.7');
  assert.equal(list.find((s) => s.current)!.impersonation, null);

  // A write-capable session writes as the owner would…
  const patch = await client.request('PATCH', '/panel/api/profile', { name: 'Renamed by support' });
  assert.equal(patch.statusCode, 200, patch.body);
  assert.equal((await client.request('GET', '/v2/billing/balance')).statusCode, 200);
  // …but never the person's own password or two-factor.
  const pw = await client.request('POST', '/panel/api/password', { current_password: 'x', new_password: 'another good passphrase' });
  assert.equal(pw.statusCode, 403);
  assert.equal(json(pw).error.code, 'AUTH_SCOPE_INSUFFICIENT');
  assert.match(json(pw).error.message, /never change the person's own password or two-factor/);
  assert.equal((await client.request('POST', '/panel/api/two-factor/recovery-codes')).statusCode, 403);

  // Start audited: the member, the account, the reason, and no secret of the link.
  const [started] = await audit(`action=startImpersonation&target_id=${customer.accountId}`);
  assert.equal(started!.actor.type, 'staff');
  assert.equal(started!.actor.id, owner.id);
  assert.deepEqual(started!.target, { type: 'account', id: customer.accountId });
  assert.deepEqual(started!.changes, { reason: 'Ticket 42: the customer cannot find the DNS page' });
  const ticket = new URL(data.url).pathname.split('/').pop()!;
  const signature = new URL(data.url).searchParams.get('signature')!;
  const all = JSON.stringify(await audit(`target_id=${customer.accountId}`));
  assert.ok(!all.includes(ticket) && !all.includes(signature), 'no secret of the link in the audit log');

  // End: the session is over, its cookie cleared, the end audited with actor and reason.
  const end = await client.request('DELETE', '/panel/api/session');
  assert.equal(end.statusCode, 200, end.body);
  assert.equal((await client.me()).signed_in, false);
  const [ended] = await audit(`action=endImpersonation&target_id=${customer.accountId}`);
  assert.equal(ended!.actor.id, owner.id);
  assert.equal(ended!.actor.email, owner.email);
  assert.equal(ended!.changes.reason, 'Ticket 42: the customer cannot find the DNS page');
  assert.equal(ended!.changes.ended, 'by the staff member');
  assert.equal(ended!.changes.session, staffRow.id);
  const after = json(await customer.client.request('GET', '/panel/api/sessions')).data as unknown[];
  assert.equal(after.length, 1);
  // The sweep does not audit it twice.
  await auditEndedImpersonations(t.database.db, new Date());
  assert.equal((await audit(`action=endImpersonation&target_id=${customer.accountId}`)).length, 1);
});

test('a read-only session (support) reads, and any write is 403 in one place — panel API and /v2 alike; End still works', async () => {
  const customer = await signedInOwner(t);
  const { client, data } = await impersonate(support, customer.accountId, 'Checking the invoice the customer asked about');
  assert.equal(data.read_only, true);
  assert.equal((await client.me()).impersonation.read_only, true);
  assert.equal((await client.request('GET', '/v2/billing/balance')).statusCode, 200);
  assert.equal((await client.request('GET', '/panel/api/sessions')).statusCode, 200);
  for (const [method, url, body] of [
    ['PATCH', '/panel/api/profile', { name: 'Nope' }],
    ['POST', '/v2/ssh-keys', { name: 'k', public_key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq6n2S0E7rqfn6q6O4i0mUQ4f5j8b2V9v3JgK1x2y3z test' }],
    ['POST', '/panel/api/api-keys', { name: 'x', ip_allowlist: ['127.0.0.1'] }],
    // The panel's billing routes check the session on their own (billing-actor.ts): the same refusal.
    ['POST', '/panel/api/billing/top-ups', { amount: '10.00' }],
  ] as const) {
    const res = await client.request(method, url, body);
    assert.equal(res.statusCode, 403, `${method} ${url}: ${res.body}`);
    assert.equal(json(res).error.code, 'AUTH_SCOPE_INSUFFICIENT');
    assert.match(json(res).error.message, /^Read-only staff session: Staff 2 signed in as the customer/);
  }
  // Nothing was changed.
  const profile = json(await customer.client.request('GET', '/v2/account')).data;
  assert.notEqual(profile.name, 'Nope');
  assert.equal((await client.request('DELETE', '/panel/api/session')).statusCode, 200);
  assert.equal((await audit(`action=endImpersonation&target_id=${customer.accountId}`)).length, 1);
});

test('every role may start (accounts:read); owner and admin write, support, billing and readonly read only', async () => {
  const customer = await createCustomer(t);
  const expected = { owner: false, admin: false, support: true, billing: true, readonly: true } as const;
  for (const [role, readOnly] of Object.entries(expected)) {
    const member = await createStaff(t, role as keyof typeof expected);
    const res = await start(member, customer.accountId);
    assert.equal(res.statusCode, 201, `${role}: ${res.body}`);
    assert.equal(json(res).data.read_only, readOnly, role);
  }
});

test('refused: bad reason 422, unknown account 404, closed account 409, a staff member\'s account 403, ADMIN_TOKEN 403', async () => {
  const customer = await createCustomer(t);
  for (const body of [{}, { reason: 'ab' }, { reason: '   ab   ' }, { reason: 'x'.repeat(501) }, { reason: 42 }, { reason: 'fine reason', extra: 1 }]) {
    const res = await start(owner, customer.accountId, body);
    assert.equal(res.statusCode, 422, `${JSON.stringify(body)}: ${res.body}`);
    assert.equal(json(res).error.code, 'VALIDATION_FAILED');
  }
  const missing = await start(owner, 'acc_doesnotexist');
  assert.equal(missing.statusCode, 404);
  assert.equal(json(missing).error.code, 'RESOURCE_NOT_FOUND');

  const closed = await createCustomer(t);
  assert.equal((await adminCall(t, 'PATCH', `/admin/v1/accounts/${closed.accountId}`, { status: 'closed' })).statusCode, 200);
  const c = await start(owner, closed.accountId);
  assert.equal(c.statusCode, 409, c.body);
  assert.equal(json(c).error.code, 'STATE_CONFLICT');
  assert.match(json(c).error.message, /is closed/);

  // An account whose email is a staff member's (any case): nobody signs in as it.
  const staffOwned = await createCustomer(t, { email: support.email.toUpperCase() });
  const s = await start(owner, staffOwned.accountId);
  assert.equal(s.statusCode, 403, s.body);
  assert.equal(json(s).error.code, 'AUTH_SCOPE_INSUFFICIENT');
  assert.match(json(s).error.message, /staff member's own/);

  const byToken = await start(t.adminToken, customer.accountId);
  assert.equal(byToken.statusCode, 403);
  assert.match(json(byToken).error.message, /not ADMIN_TOKEN/);

  // None of these wrote an audit row or a link.
  assert.equal((await audit(`action=startImpersonation&target_id=${closed.accountId}`)).length, 0);
  assert.equal((await audit(`action=startImpersonation&target_id=${staffOwned.accountId}`)).length, 0);
});

test('the link: forged 404, expired 409, the account closed meanwhile 409; a disabled member\'s session ends', async () => {
  const customer = await signedInOwner(t);
  const url = json(await start(owner, customer.accountId)).data.url as string;
  const forged = url.replace(/signature=([0-9a-f])/, (_m, c: string) => `signature=${c === '0' ? '1' : '0'}`);
  assert.equal((await open(forged)).res.statusCode, 404);
  await sql`UPDATE impersonation_links SET expires_at = now() - interval '1 second'`.execute(t.database.db);
  assert.equal((await open(url)).res.statusCode, 409);

  const url2 = json(await start(owner, customer.accountId)).data.url as string;
  assert.equal((await adminCall(t, 'PATCH', `/admin/v1/accounts/${customer.accountId}`, { status: 'suspended' })).statusCode, 200);
  assert.equal((await open(url2)).res.statusCode, 409);
  assert.equal((await adminCall(t, 'PATCH', `/admin/v1/accounts/${customer.accountId}`, { status: 'active' })).statusCode, 200);

  const member = await createStaff(t, 'admin');
  const { client } = await impersonate(member, customer.accountId);
  assert.equal((await client.request('GET', '/v2/billing/balance')).statusCode, 200);
  assert.equal((await adminCall(t, 'PATCH', `/admin/v1/staff/${member.id}`, { status: 'disabled' })).statusCode, 200);
  assert.equal((await client.request('GET', '/v2/billing/balance')).statusCode, 401);
});

test('an impersonation that lapses or that the customer revokes: its end is audited once by the sweep', async () => {
  const customer = await signedInOwner(t);
  const a = await impersonate(owner, customer.accountId, 'First look at the servers page');
  const b = await impersonate(owner, customer.accountId, 'Second look at the servers page');
  const list = json(await customer.client.request('GET', '/panel/api/sessions')).data as { id: string; impersonation: { reason: string } | null }[];
  const second = list.find((s) => s.impersonation?.reason === 'Second look at the servers page')!;
  assert.equal((await customer.client.request('DELETE', `/panel/api/sessions/${second.id}`)).statusCode, 200);
  assert.equal((await b.client.request('GET', '/v2/billing/balance')).statusCode, 401);
  await sql`UPDATE panel_sessions SET expires_at = now() - interval '1 second' WHERE reason = 'First look at the servers page'`.execute(t.database.db);
  assert.equal((await a.client.request('GET', '/v2/billing/balance')).statusCode, 401);

  assert.ok((await auditEndedImpersonations(t.database.db, new Date())) >= 2);
  assert.equal(await auditEndedImpersonations(t.database.db, new Date()), 0);
  const ends = await audit(`action=endImpersonation&target_id=${customer.accountId}`);
  assert.equal(ends.length, 2);
  assert.deepEqual(ends.map((e) => [e.actor.type, e.changes.reason, e.changes.ended, e.changes.staff_id]).sort(), [
    ['system', 'First look at the servers page', 'expired', owner.id],
    ['system', 'Second look at the servers page', 'revoked', owner.id],
  ]);
});
