// Staff members, their tokens and their console sign-in (password, forced TOTP enrolment,
// recovery codes, sessions), and an owner's reset of another member's two-factor.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { totpCode } from '../../src/core/panel/totp.ts';
import { adminCall, call, json, startApp } from '../helpers/app.ts';
import { PASSWORD } from '../helpers/panel.ts';
import { ConsoleClient, createStaff } from '../helpers/staff.ts';

const t = await startApp();

test('POST /admin/v1/staff → 201 with the set-password link (72 h), queued as a notice', async () => {
  const res = await adminCall(t, 'POST', '/admin/v1/staff', { email: 'Ada@Hostcloud.test', name: 'Ada', role: 'support' });
  assert.equal(res.statusCode, 201, res.body);
  const d = json(res).data;
  assert.match(d.id, /^stf_/);
  assert.equal(d.email, 'Ada@Hostcloud.test');
  assert.equal(d.role, 'support');
  assert.equal(d.status, 'active');
  assert.equal(d.password_set, false);
  assert.equal(d.two_factor_enabled, false);
  assert.match(d.url, /^http:\/\/api\.test\/admin\/set-password\/[A-Za-z0-9_-]{43}$/);
  const hours = (Date.parse(d.expires_at) - Date.now()) / 3600_000;
  assert.ok(hours > 71.9 && hours <= 72, String(hours));
  assert.equal(res.headers.location, `http://api.test/admin/v1/staff/${d.id}`);
  const notices = json(await adminCall(t, 'GET', '/admin/v1/notifications?kind=staff.invitation')).data;
  const mine = notices.find((n: { to_email: string }) => n.to_email === 'Ada@Hostcloud.test');
  assert.ok(mine, 'notice queued');
  assert.equal(mine.account_id, null);
  assert.ok(mine.body.includes(d.url));

  const again = await adminCall(t, 'POST', '/admin/v1/staff', { email: 'ada@hostcloud.test', name: 'Ada 2', role: 'admin' });
  assert.equal(again.statusCode, 422);
  assert.equal(json(again).error.errors[0].field, 'email');
});

test('staff input is validated: role, email, unknown fields', async () => {
  for (const body of [
    { email: 'x@hostcloud.test', name: 'X', role: 'god' },
    { email: 'not-an-email', name: 'X', role: 'admin' },
    { email: 'x@hostcloud.test', name: '', role: 'admin' },
    { email: 'x@hostcloud.test', name: 'X', role: 'admin', extra: 1 },
  ]) {
    const res = await adminCall(t, 'POST', '/admin/v1/staff', body);
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(json(res).error.code, 'VALIDATION_FAILED');
  }
});

test('list, get, change role, disable (sessions end, tokens stop working)', async () => {
  const m = await createStaff(t, 'readonly');
  const list = json(await adminCall(t, 'GET', '/admin/v1/staff?role=readonly')).data;
  assert.ok(list.some((s: { id: string }) => s.id === m.id));
  assert.equal(json(await adminCall(t, 'GET', `/admin/v1/staff/${m.id}`)).data.email, m.email);
  assert.equal((await adminCall(t, 'GET', '/admin/v1/staff/stf_missing')).statusCode, 404);

  // readonly cannot write an account; as billing it can.
  const acc = json(await adminCall(t, 'POST', '/admin/v1/accounts', { email: 'walk@hostcloud.test', name: 'Walk' })).data;
  assert.equal((await call(t.app, 'PATCH', `/admin/v1/accounts/${acc.id}`, { key: m.token, body: { name: 'W' } })).statusCode, 403);
  const up = await adminCall(t, 'PATCH', `/admin/v1/staff/${m.id}`, { role: 'billing' });
  assert.equal(up.statusCode, 200, up.body);
  assert.equal(json(up).data.role, 'billing');
  assert.equal((await call(t.app, 'PATCH', `/admin/v1/accounts/${acc.id}`, { key: m.token, body: { name: 'W' } })).statusCode, 200);

  assert.equal((await adminCall(t, 'PATCH', `/admin/v1/staff/${m.id}`, {})).statusCode, 422);
  assert.equal((await adminCall(t, 'PATCH', `/admin/v1/staff/${m.id}`, { role: 'root' })).statusCode, 422);
  const off = await adminCall(t, 'PATCH', `/admin/v1/staff/${m.id}`, { status: 'disabled' });
  assert.equal(json(off).data.status, 'disabled');
  const refused = await call(t.app, 'GET', '/admin/v1/accounts', { key: m.token });
  assert.equal(refused.statusCode, 401);
  assert.equal(json(refused).error.code, 'AUTH_INVALID');
});

test('a member does not change its own role; an owner token may change others', async () => {
  const owner = await createStaff(t, 'owner');
  const other = await createStaff(t, 'support');
  const self = await call(t.app, 'PATCH', `/admin/v1/staff/${owner.id}`, { key: owner.token, body: { role: 'readonly' } });
  assert.equal(self.statusCode, 409);
  const ok = await call(t.app, 'PATCH', `/admin/v1/staff/${other.id}`, { key: owner.token, body: { role: 'admin' } });
  assert.equal(ok.statusCode, 200);
});

test('staff tokens: shown once, listed without the secret, allowlist, only an owner makes them for others, revoke', async () => {
  const support = await createStaff(t, 'support');
  const billing = await createStaff(t, 'billing');
  const own = await call(t.app, 'POST', `/admin/v1/staff/${support.id}/tokens`, { key: support.token, body: { name: 'laptop', ip_allowlist: ['198.51.100.0/24'] } });
  assert.equal(own.statusCode, 201, own.body);
  const tok = json(own).data;
  assert.match(tok.token, /^hc_staff_[0-9A-Za-z]{40}$/);
  assert.deepEqual(tok.ip_allowlist, ['198.51.100.0/24']);
  assert.equal(own.headers.location, `http://api.test/admin/v1/staff-tokens/${tok.id}`);

  const list = json(await call(t.app, 'GET', `/admin/v1/staff/${support.id}/tokens`, { key: support.token })).data;
  assert.equal(list.length, 2);
  assert.ok(list.every((x: Record<string, unknown>) => !('token' in x)));

  // From outside the allowlist: 403 AUTH_IP_NOT_ALLOWED; from inside: the member's role.
  const outside = await call(t.app, 'GET', '/admin/v1/tickets', { key: tok.token });
  assert.equal(outside.statusCode, 403);
  assert.equal(json(outside).error.code, 'AUTH_IP_NOT_ALLOWED');
  assert.equal((await call(t.app, 'GET', '/admin/v1/tickets', { key: tok.token, ip: '198.51.100.7' })).statusCode, 200);

  // Another member's tokens: 403 for a non-owner (list, create), 404 on revoke.
  assert.equal((await call(t.app, 'POST', `/admin/v1/staff/${billing.id}/tokens`, { key: support.token, body: { name: 'x' } })).statusCode, 403);
  assert.equal((await call(t.app, 'GET', `/admin/v1/staff/${billing.id}/tokens`, { key: support.token })).statusCode, 403);
  assert.equal((await call(t.app, 'DELETE', `/admin/v1/staff-tokens/${billing.tokenId}`, { key: support.token })).statusCode, 404);

  const bad = await call(t.app, 'POST', `/admin/v1/staff/${support.id}/tokens`, { key: support.token, body: { name: 'x', ip_allowlist: ['nope'] } });
  assert.equal(bad.statusCode, 422);
  assert.equal(json(bad).error.errors[0].field, 'ip_allowlist[0]');
  assert.equal((await call(t.app, 'POST', `/admin/v1/staff/${support.id}/tokens`, { key: support.token, body: {} })).statusCode, 422);

  const del = await call(t.app, 'DELETE', `/admin/v1/staff-tokens/${tok.id}`, { key: support.token });
  assert.equal(del.statusCode, 200);
  assert.ok(json(del).data.revoked_at);
  const after = await call(t.app, 'GET', '/admin/v1/tickets', { key: tok.token, ip: '198.51.100.7' });
  assert.equal(after.statusCode, 401);
  assert.equal((await adminCall(t, 'DELETE', '/admin/v1/staff-tokens/stt_missing')).statusCode, 404);
});

test('console sign-in: set password, forced TOTP enrolment with recovery codes, then password + code; sessions listed and revoked', async () => {
  const m = await createStaff(t, 'support');
  const c = new ConsoleClient(t);
  const weak = await c.setPassword(m.url, 'short');
  assert.equal(weak.statusCode, 422);
  const set = await c.setPassword(m.url);
  assert.equal(set.statusCode, 200, set.body);
  assert.equal((await c.setPassword(m.url)).statusCode, 409);

  // A wrong password: 401, counted.
  await c.session();
  const wrong = await c.request('POST', '/admin/v1/session', { email: m.email, password: 'not the password at all' });
  assert.equal(wrong.statusCode, 401);

  // Before the enrolment is finished the session acts on nothing.
  await c.session();
  const first = await c.request('POST', '/admin/v1/session', { email: m.email, password: PASSWORD });
  assert.equal(json(first).data.next, 'enrol');
  c.csrf = json(first).data.csrf_token;
  const early = await c.request('GET', '/admin/v1/tickets');
  assert.equal(early.statusCode, 401);
  assert.equal(json(early).error.code, 'AUTH_INVALID');
  const e = json(await c.request('POST', '/admin/v1/session/enrolment')).data;
  assert.match(e.uri, /^otpauth:\/\/totp\//);
  assert.match(e.qr_svg, /^<svg/);
  const badCode = await c.request('POST', '/admin/v1/session/enrolment/confirm', { code: '000000' });
  assert.equal(badCode.statusCode, 422);
  const done = await c.request('POST', '/admin/v1/session/enrolment/confirm', { code: totpCode(e.secret, new Date()) });
  assert.equal(done.statusCode, 200, done.body);
  const codes: string[] = json(done).data.recovery_codes;
  assert.equal(codes.length, 10);
  c.csrf = json(done).data.csrf_token;
  const me = await c.session();
  assert.equal(me.stage, 'full');
  assert.equal(me.member.two_factor_enabled, true);
  assert.equal((await c.request('GET', '/admin/v1/tickets')).statusCode, 200);
  // The support role: no money.
  const refund = await c.request('POST', '/admin/v1/deposits/1/refunds', {});
  assert.equal(refund.statusCode, 403);
  assert.equal(json(refund).error.code, 'AUTH_SCOPE_INSUFFICIENT');
  // A write without the CSRF token is refused.
  const noCsrf = await c.request('POST', `/admin/v1/staff/${m.id}/tokens`, { name: 'x' }, { csrf: false });
  assert.equal(noCsrf.statusCode, 403);
  assert.equal(json(noCsrf).error.code, 'CSRF_TOKEN_INVALID');

  // A second browser: password, then a TOTP code; then one with a recovery code (spent once).
  const c2 = new ConsoleClient(t, '127.0.0.2');
  const r2 = await c2.consoleSignIn(m.email, PASSWORD, e.secret);
  assert.equal(r2.res.statusCode, 200, r2.res.body);
  assert.equal((await c2.session()).stage, 'full');
  const c3 = new ConsoleClient(t, '127.0.0.3');
  await c3.session();
  c3.csrf = json(await c3.request('POST', '/admin/v1/session', { email: m.email, password: PASSWORD })).data.csrf_token;
  assert.equal((await c3.request('POST', '/admin/v1/session/code', { code: codes[0] })).statusCode, 200);
  const c4 = new ConsoleClient(t, '127.0.0.4');
  await c4.session();
  c4.csrf = json(await c4.request('POST', '/admin/v1/session', { email: m.email, password: PASSWORD })).data.csrf_token;
  assert.equal((await c4.request('POST', '/admin/v1/session/code', { code: codes[0] })).statusCode, 422);

  const sessions = json(await c.request('GET', `/admin/v1/staff/${m.id}/sessions`)).data;
  assert.equal(sessions.length, 3);
  const c2Session = sessions.find((s: { ip: string }) => s.ip === '127.0.0.2');
  await c.session();
  const revoked = await c.request('DELETE', `/admin/v1/staff/${m.id}/sessions/${c2Session.id}`);
  assert.equal(revoked.statusCode, 200, revoked.body);
  assert.equal((await c2.session()).stage, 'signed_out');
  assert.equal((await c.request('DELETE', `/admin/v1/staff/${m.id}/sessions/ses_missing`)).statusCode, 404);

  // An owner resets the member's two-factor: every session ends, the next sign-in enrols again.
  const reset = await adminCall(t, 'POST', `/admin/v1/staff/${m.id}/two-factor/reset`);
  assert.equal(reset.statusCode, 200, reset.body);
  assert.equal(json(reset).data.two_factor_enabled, false);
  assert.equal((await c.session()).stage, 'signed_out');
  const again = await new ConsoleClient(t, '127.0.0.5').consoleSignIn(m.email);
  assert.ok(again.secret, 'enrols again');
  assert.equal(again.res.statusCode, 200);

  // Support may not reset anyone's two-factor.
  assert.equal((await call(t.app, 'POST', `/admin/v1/staff/${m.id}/two-factor/reset`, { key: m.token })).statusCode, 403);
  // Sign out.
  await c3.session();
  assert.equal((await c3.request('DELETE', '/admin/v1/session')).statusCode, 200);
  assert.equal((await c3.session()).stage, 'signed_out');
});

test('console sign-in is throttled per email', async () => {
  const m = await createStaff(t, 'readonly');
  const c = new ConsoleClient(t, '127.0.0.9');
  await c.setPassword(m.url);
  let last = 0;
  for (let i = 0; i < 10; i++) {
    await c.session();
    last = (await c.request('POST', '/admin/v1/session', { email: m.email, password: `wrong password ${i}` })).statusCode;
  }
  assert.equal(last, 429);
});
