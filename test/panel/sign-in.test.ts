// Signing in and out: the session cookie, CSRF on every write, throttling.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ALL_SCOPES } from '../../src/core/types.ts';
import { sql } from 'kysely';
import { SIGN_IN_LIMITS } from '../../src/core/panel/throttle.ts';
import { call, json, startApp } from '../helpers/app.ts';
import { PASSWORD, PanelClient, signedInOwner } from '../helpers/panel.ts';

const t = await startApp({ panelSessionIdleS: 600, panelSessionMaxS: 3600 });

test('sign-in: the session cookie (HttpOnly, SameSite=Lax, Path=/), /me; wrong password 401 and no cookie; sign-out ends it', async () => {
  const o = await signedInOwner(t);
  const me = await o.client.me();
  assert.equal(me.signed_in, true);
  assert.equal(me.user.role, 'owner');
  assert.equal(me.user.permissions.length, ALL_SCOPES.length);
  assert.equal(me.account.id, o.accountId);

  const b = new PanelClient(t);
  await b.me();
  const res = await b.request('POST', '/panel/api/sign-in', { email: o.email.toUpperCase(), password: PASSWORD });
  assert.equal(res.statusCode, 200, res.body);
  const cookie = String([res.headers['set-cookie']].flat().find((c) => String(c).startsWith('hc_session=')));
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Lax/);
  assert.match(cookie, /Path=\//);
  assert.doesNotMatch(cookie, /Secure/, 'plain http');

  const wrong = new PanelClient(t);
  await wrong.me();
  const bad = await wrong.request('POST', '/panel/api/sign-in', { email: o.email, password: 'not the password at all' });
  assert.equal(bad.statusCode, 401);
  assert.equal(json(bad).error.code, 'AUTH_INVALID');
  assert.equal(json(bad).error.message, 'The email or password is not right');
  assert.equal(wrong.cookies.has('hc_session'), false);
  const unknown = await wrong.request('POST', '/panel/api/sign-in', { email: 'nobody@example.com', password: PASSWORD });
  assert.equal(json(unknown).error.message, 'The email or password is not right', 'the same answer for an unknown email');
  const missing = await wrong.request('POST', '/panel/api/sign-in', { email: o.email });
  assert.equal(missing.statusCode, 422);

  await b.me();
  assert.equal((await b.request('POST', '/panel/api/sign-out')).statusCode, 200);
  assert.equal((await b.me()).signed_in, false);
  assert.equal((await b.request('GET', '/panel/api/sessions')).statusCode, 401);
});

test('CSRF: a panel write or a v2 write with a session but no token is 403 CSRF_TOKEN_INVALID; a token of another session too', async () => {
  const o = await signedInOwner(t);
  for (const [method, url, body] of [
    ['POST', '/panel/api/api-keys', { name: 'k', ip_allowlist: ['127.0.0.1'] }],
    ['POST', '/panel/api/sign-out', {}],
    ['POST', '/v2/ssh-keys', { name: 'k', public_key: 'ssh-ed25519 AAAA' }],
    ['DELETE', '/v2/servers/srv_x', undefined],
  ] as const) {
    const res = await o.client.request(method, url, body, { csrf: false });
    assert.equal(res.statusCode, 403, `${method} ${url}: ${res.body}`);
    assert.equal(json(res).error.code, 'CSRF_TOKEN_INVALID');
  }
  const other = await signedInOwner(t);
  const foreign = await o.client.request('POST', '/panel/api/sign-out', {}, { headers: { 'x-csrf-token': other.client.csrf } });
  assert.equal(foreign.statusCode, 403);
  // Signing in itself needs the signed-out token.
  const b = new PanelClient(t);
  const noToken = await b.request('POST', '/panel/api/sign-in', { email: o.email, password: PASSWORD });
  assert.equal(noToken.statusCode, 403);
  // Reads need none, and an API key never does.
  assert.equal((await o.client.request('GET', '/v2/billing/balance')).statusCode, 200);
  const key = await call(t.app, 'POST', '/v2/ssh-keys', { key: o.key, body: { name: 'x', public_key: 'not a key' } });
  assert.equal(key.statusCode, 422);
});

test('throttling: after the limit of failures for one email, even the right password waits (429 with Retry-After)', async () => {
  const o = await signedInOwner(t);
  const b = new PanelClient(t, '198.51.100.9');
  await b.me();
  for (let i = 0; i < SIGN_IN_LIMITS.perEmail; i++) {
    assert.equal((await b.request('POST', '/panel/api/sign-in', { email: o.email, password: `wrong password ${i}` })).statusCode, 401);
  }
  const blocked = await b.request('POST', '/panel/api/sign-in', { email: o.email, password: PASSWORD });
  assert.equal(blocked.statusCode, 429);
  assert.equal(json(blocked).error.code, 'RATE_LIMITED');
  assert.ok(Number(blocked.headers['retry-after']) > 0);
  // The counters are in PostgreSQL: shared by every API process.
  const rows = await sql<{ n: number }>`SELECT count(*)::int AS n FROM panel_sign_in_limits`.execute(t.database.db);
  assert.ok(rows.rows[0]!.n >= 2);
});
