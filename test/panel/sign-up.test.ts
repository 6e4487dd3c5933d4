// Self sign-up (PANEL_SIGNUP=open) and the page itself.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { up as forgetUnconfirmedPasswords } from '../../src/db/migrations/0085_panel_sign_up_without_password.ts';
import { hashPassword } from '../../src/core/sub-users/password.ts';
import { call, createCustomer, json, startApp } from '../helpers/app.ts';
import { PASSWORD, PanelClient, panelNotices, signedInOwner, signedInSubUser, tokenOf } from '../helpers/panel.ts';

const t = await startApp({ panelSessionIdleS: 600, panelSessionMaxS: 3600 });

const ADMIN = { authorization: `Bearer ${t.adminToken}` };

test('sign-up: closed by default (404); open → 202 with email and name only, a mailed link where the password is chosen; a taken email gets a notice', async () => {
  const closed = new PanelClient(t);
  await closed.me();
  const off = await closed.request('POST', '/panel/api/sign-up', { email: 'new@example.com', name: 'New' });
  assert.equal(off.statusCode, 404);
  assert.equal((await closed.me()).sign_up_open, false);

  const open = await startApp({ panelSignup: 'open' });
  const admin = { authorization: `Bearer ${open.adminToken}` };
  const b = new PanelClient(open);
  assert.equal((await b.me()).sign_up_open, true);
  const bad = await b.request('POST', '/panel/api/sign-up', { email: 'not-an-email', name: ' ' });
  assert.equal(bad.statusCode, 422);
  assert.deepEqual(json(bad).error.errors.map((e: { field: string }) => e.field).sort(), ['email', 'name']);
  const withPassword = await b.request('POST', '/panel/api/sign-up', { email: 'fresh@example.com', name: 'Fresh', password: PASSWORD });
  assert.equal(withPassword.statusCode, 422, 'the password is chosen at the mailed link, not here');
  assert.equal(json(withPassword).error.errors[0].field, 'password');
  const res = await b.request('POST', '/panel/api/sign-up', { email: 'Fresh@Example.com', name: 'Fresh Start' });
  assert.equal(res.statusCode, 202, res.body);
  assert.equal((await b.request('POST', '/panel/api/sign-in', { email: 'fresh@example.com', password: PASSWORD })).statusCode, 401, 'no password yet');
  const accounts = json(await call(open.app, 'GET', '/admin/v1/accounts?email=fresh@example.com', { headers: admin })).data;
  assert.equal(accounts.length, 1);
  assert.equal(accounts[0].balance.amount, '0.00');
  const mail = json(await call(open.app, 'GET', `/admin/v1/notifications?account_id=${accounts[0].id}&kind=panel.sign_up`, { headers: admin })).data;
  assert.equal(mail.length, 1);
  assert.equal(mail[0].to_email, 'Fresh@Example.com');
  const url = /http:\/\/api\.test\/panel\/invitation\/\S+/.exec(mail[0].body)![0];
  assert.equal(json(await b.request('GET', `/panel/api/links/${tokenOf(url)}`)).data.kind, 'invitation');
  assert.equal((await b.request('POST', `/panel/api/links/${tokenOf(url)}/password`, { password: PASSWORD })).statusCode, 200);
  assert.equal((await b.signIn('fresh@example.com')).statusCode, 200);
  assert.equal(json(await b.request('GET', '/v2/account')).data.name, 'Fresh Start');

  // The same email again: the same 202, no second account, a notice without any link to the owner.
  const again = new PanelClient(open);
  await again.me();
  assert.equal((await again.request('POST', '/panel/api/sign-up', { email: 'fresh@example.com', name: 'Impostor' })).statusCode, 202);
  const repeated = json(await call(open.app, 'GET', `/admin/v1/notifications?account_id=${accounts[0].id}&kind=panel.sign_up_repeated`, { headers: admin })).data;
  assert.equal(repeated.length, 1);
  assert.doesNotMatch(repeated[0].body, /\/panel\/(invitation|reset-password|verify-email)\//);
  assert.equal(json(await b.request('GET', '/v2/account')).data.name, 'Fresh Start');
});

test('pre-hijack: whoever signs up first with someone else\'s email holds nothing; the mailbox\'s owner chooses the password', async () => {
  const open = await startApp({ panelSignup: 'open' });
  const admin = { authorization: `Bearer ${open.adminToken}` };
  const attacker = new PanelClient(open, '203.0.113.7');
  await attacker.me();
  assert.equal((await attacker.request('POST', '/panel/api/sign-up', { email: 'victim@example.com', name: 'Attacker Ltd' })).statusCode, 202);
  // The victim signs up too (or just opens the mail): every link goes to the victim's mailbox only.
  const victim = new PanelClient(open, '192.0.2.50');
  await victim.me();
  assert.equal((await victim.request('POST', '/panel/api/sign-up', { email: 'victim@example.com', name: 'Victim' })).statusCode, 202);
  const accountId = json(await call(open.app, 'GET', '/admin/v1/accounts?email=victim@example.com', { headers: admin })).data[0].id;
  const mails = json(await call(open.app, 'GET', `/admin/v1/notifications?account_id=${accountId}&kind=panel.sign_up`, { headers: admin })).data as { to_email: string; body: string }[];
  assert.equal(mails.length, 2);
  assert.ok(mails.every((m) => m.to_email === 'victim@example.com'));
  const [newest, oldest] = mails.map((m) => tokenOf(/http:\/\/api\.test\/panel\/invitation\/\S+/.exec(m.body)![0]));
  assert.equal((await victim.request('POST', `/panel/api/links/${oldest}/password`, { password: 'attacker chosen password' })).statusCode, 409, 'a newer link retired it');
  assert.equal((await victim.request('POST', `/panel/api/links/${newest}/password`, { password: PASSWORD })).statusCode, 200);
  for (const password of ['attacker chosen password', 'another password here']) {
    assert.equal((await attacker.request('POST', '/panel/api/sign-in', { email: 'victim@example.com', password })).statusCode, 401);
  }
  assert.equal((await victim.signIn('victim@example.com')).statusCode, 200);
  // A sign-up for an email an operator-made account already has sends that mailbox a notice, no link.
  const made = json(await call(open.app, 'POST', '/admin/v1/accounts', { headers: admin, body: { email: 'opened@example.com', name: 'Opened by operator' } }));
  assert.equal((await attacker.request('POST', '/panel/api/sign-up', { email: 'opened@example.com', name: 'Attacker' })).statusCode, 202);
  const notes = json(await call(open.app, 'GET', `/admin/v1/notifications?account_id=${made.data.id}`, { headers: admin })).data as { kind: string; body: string }[];
  assert.ok(notes.every((n) => !/\/panel\/(invitation|reset-password|verify-email)\//.test(n.body) || n.kind !== 'panel.sign_up_repeated'));
  assert.equal(json(await call(open.app, 'GET', `/admin/v1/accounts/${made.data.id}`, { headers: admin })).data.name, 'Opened by operator', 'a sign-up renames nobody');
});

test('upgrading: a password a sign-up stored before its email was confirmed is forgotten, and its confirmation link retired', async () => {
  const db = t.database.db;
  const account = json(await call(t.app, 'POST', '/admin/v1/accounts', { headers: ADMIN, body: { email: 'old-signup@example.com', name: 'Old' } })).data;
  const hash = await hashPassword('attacker chosen password');
  const user = (await sql<{ id: number }>`INSERT INTO panel_users (account_id, sub_user_id, email, password_hash) VALUES (${account.id}, NULL, 'old-signup@example.com', ${hash}) RETURNING id`.execute(db)).rows[0]!;
  await sql`INSERT INTO panel_links (token_hash, kind, user_id, expires_at) VALUES ('x'::text || ${String(user.id)}, 'email_verification', ${user.id}, now() + interval '1 day')`.execute(db);
  const confirmed = await signedInOwner(t);
  await forgetUnconfirmedPasswords(db as unknown as Kysely<unknown>);
  const row = (await sql<{ password_hash: string | null }>`SELECT password_hash FROM panel_users WHERE id = ${user.id}`.execute(db)).rows[0]!;
  assert.equal(row.password_hash, null);
  const link = (await sql<{ used_at: Date | null }>`SELECT used_at FROM panel_links WHERE user_id = ${user.id}`.execute(db)).rows[0]!;
  assert.notEqual(link.used_at, null);
  assert.equal((await new PanelClient(t).signIn(confirmed.email)).statusCode, 200, 'a confirmed owner keeps its password');
});

test('a password reset may revoke the account\'s API keys: the owner\'s choice on the reset page', async () => {
  const o = await signedInOwner(t);
  const sub = await signedInSubUser(o, ['servers:read']);
  const subKey = json(await sub.client.request('POST', '/panel/api/api-keys', { name: 'sub', ip_allowlist: ['127.0.0.1'] })).data.key;
  const reset = async (email: string, accountId: string, revoke?: boolean) => {
    const anon = new PanelClient(t);
    await anon.me();
    assert.equal((await anon.request('POST', '/panel/api/password-reset', { email })).statusCode, 202);
    const mail = await panelNotices(t, accountId, 'panel.password_reset');
    const url = /http:\/\/api\.test\/panel\/reset-password\/\S+/.exec(mail[0]!.body)![0];
    const res = await anon.request('POST', `/panel/api/links/${tokenOf(url)}/password`, revoke === undefined ? { password: PASSWORD } : { password: PASSWORD, revoke_api_keys: revoke });
    assert.equal(res.statusCode, 200, res.body);
    return json(res).data;
  };
  // Without asking, the keys stay.
  assert.equal((await reset(o.email, o.accountId)).revoked_api_keys, 0);
  assert.equal((await call(t.app, 'GET', '/v2/billing/balance', { key: o.key })).statusCode, 200);
  // A sub-user's reset revokes its own keys only.
  assert.equal((await reset(sub.email, o.accountId, true)).revoked_api_keys, 1);
  assert.equal((await call(t.app, 'GET', '/v2/servers', { key: subKey })).statusCode, 401);
  assert.equal((await call(t.app, 'GET', '/v2/billing/balance', { key: o.key })).statusCode, 200);
  // The owner's: every key of the account.
  assert.ok((await reset(o.email, o.accountId, true)).revoked_api_keys >= 1);
  assert.equal((await call(t.app, 'GET', '/v2/billing/balance', { key: o.key })).statusCode, 401);
  // An invitation does not offer it.
  const other = await createCustomer(t);
  const inv = json(await call(t.app, 'POST', `/admin/v1/accounts/${other.accountId}/panel-invitation`, { headers: ADMIN })).data;
  const anon = new PanelClient(t);
  await anon.me();
  const refused = await anon.request('POST', `/panel/api/links/${tokenOf(inv.url)}/password`, { password: PASSWORD, revoke_api_keys: true });
  assert.equal(refused.statusCode, 422);
  assert.equal(json(refused).error.errors[0].field, 'revoke_api_keys');
  assert.equal((await call(t.app, 'GET', '/v2/billing/balance', { key: other.key })).statusCode, 200);
});

test('the page: /panel and any page path answer the document with a strict CSP; assets are served; unknown /panel/api paths are API 404s', async () => {
  for (const url of ['/panel', '/panel/', '/panel/servers/srv_x', '/panel/invitation/abc']) {
    const res = await call(t.app, 'GET', url);
    assert.equal(res.statusCode, 200, url);
    assert.match(res.headers['content-type'] as string, /^text\/html/);
    assert.match(res.headers['content-security-policy'] as string, /script-src 'self'/);
    assert.equal(res.headers['referrer-policy'], 'no-referrer');
    assert.equal(res.headers['x-frame-options'], 'DENY');
    assert.match(res.body, /<div id="app">/);
  }
  const page = await call(t.app, 'GET', '/panel');
  const js = /src="(\/panel\/assets\/app\.js\?v=[^"]+)"/.exec(page.body)![1]!;
  const css = /href="(\/panel\/assets\/app\.css\?v=[^"]+)"/.exec(page.body)![1]!;
  const script = await call(t.app, 'GET', js.split('?')[0]!);
  assert.equal(script.statusCode, 200);
  assert.match(script.headers['content-type'] as string, /javascript/);
  assert.match(script.headers['cache-control'] as string, /immutable/);
  assert.ok(!/https?:\/\/(?!www\.w3\.org)[a-z]/i.test(script.body.replace(/https?:\/\/(preactjs|github|reactjs)\.[a-z]+[^"'`\s]*/g, '').replace(/https:\/\/([a-z-]+\.)*example\.com\b[^"'`\s]*/g, '')), 'the script loads nothing from elsewhere (example.com, reserved for examples, appears in a hint)');
  assert.equal((await call(t.app, 'GET', css.split('?')[0]!)).statusCode, 200);
  const api404 = await call(t.app, 'GET', '/panel/api/nothing-here');
  assert.equal(api404.statusCode, 404);
  assert.equal(json(api404).error.code, 'ENDPOINT_NOT_FOUND');
  const me = await call(t.app, 'GET', '/panel/api/me');
  assert.equal(json(me).data.signed_in, false);
  assert.equal(me.headers['cache-control'], 'no-store');
});
