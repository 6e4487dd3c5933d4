// Sessions: list, revoke, idle and absolute expiry; password change and reset.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { sweepPanel } from '../../src/core/panel/sweep.ts';
import { json, startApp } from '../helpers/app.ts';
import { PASSWORD, PanelClient, panelNotices, signedInOwner, tokenOf } from '../helpers/panel.ts';

const t = await startApp({ panelSessionIdleS: 600, panelSessionMaxS: 3600 });

test('sessions: listed with this one marked; another is ended by id (another person\'s id 404); idle and absolute limits end them', async () => {
  const o = await signedInOwner(t);
  const second = new PanelClient(t, '203.0.113.5');
  await second.signIn(o.email);
  const list = json(await o.client.request('GET', '/panel/api/sessions')).data as { id: string; current: boolean; ip: string }[];
  assert.equal(list.length, 2);
  assert.equal(list.filter((s) => s.current).length, 1);
  const theirs = list.find((s) => !s.current)!;
  assert.equal(theirs.ip, '203.0.113.5');

  const stranger = await signedInOwner(t);
  assert.equal((await stranger.client.request('DELETE', `/panel/api/sessions/${theirs.id}`)).statusCode, 404);
  assert.equal((await o.client.request('DELETE', `/panel/api/sessions/${theirs.id}`)).statusCode, 200);
  assert.equal((await second.request('GET', '/v2/billing/balance')).statusCode, 401);
  assert.equal((await o.client.request('GET', '/v2/billing/balance')).statusCode, 200);

  // Idle: unused for longer than PANEL_SESSION_IDLE_S (600 s here).
  await sql`UPDATE panel_sessions SET last_seen_at = now() - interval '601 seconds' WHERE revoked_at IS NULL AND user_id = (SELECT id FROM panel_users WHERE lower(email) = lower(${o.email}))`.execute(t.database.db);
  const idle = await o.client.request('GET', '/v2/billing/balance');
  assert.equal(idle.statusCode, 401);
  assert.equal(json(idle).error.code, 'AUTH_REQUIRED');
  // Absolute: however active, past PANEL_SESSION_MAX_S after sign-in.
  await o.client.signIn(o.email);
  await sql`UPDATE panel_sessions SET expires_at = now() - interval '1 second' WHERE revoked_at IS NULL AND user_id = (SELECT id FROM panel_users WHERE lower(email) = lower(${o.email}))`.execute(t.database.db);
  assert.equal((await o.client.request('GET', '/panel/api/sessions')).statusCode, 401);
});

test('password: change with the current one (others signed out); reset by link (202 whatever the email; sessions end)', async () => {
  const o = await signedInOwner(t);
  const other = new PanelClient(t);
  await other.signIn(o.email);
  const wrong = await o.client.request('POST', '/panel/api/password', { current_password: 'nope nope nope', new_password: 'another good passphrase' });
  assert.equal(wrong.statusCode, 422);
  assert.equal(json(wrong).error.errors[0].field, 'current_password');
  const weak = await o.client.request('POST', '/panel/api/password', { current_password: PASSWORD, new_password: 'aaaaaaaaaaaa' });
  assert.equal(json(weak).error.errors[0].field, 'new_password');
  assert.equal((await o.client.request('POST', '/panel/api/password', { current_password: PASSWORD, new_password: 'another good passphrase' })).statusCode, 200);
  assert.equal((await other.request('GET', '/v2/billing/balance')).statusCode, 401, 'other sessions ended');
  assert.equal((await o.client.request('GET', '/v2/billing/balance')).statusCode, 200, 'this one stays');

  const anon = new PanelClient(t);
  await anon.me();
  const unknown = await anon.request('POST', '/panel/api/password-reset', { email: 'nobody-here@example.com' });
  assert.equal(unknown.statusCode, 202);
  const res = await anon.request('POST', '/panel/api/password-reset', { email: o.email });
  assert.equal(res.statusCode, 202);
  assert.equal(json(res).data.message, json(unknown).data.message.replace('nobody-here@example.com', o.email));
  const mail = await panelNotices(t, o.accountId, 'panel.password_reset');
  assert.equal(mail.length, 1);
  const url = /http:\/\/api\.test\/panel\/reset-password\/\S+/.exec(mail[0]!.body)![0];
  assert.equal(json(await anon.request('GET', `/panel/api/links/${tokenOf(url)}`)).data.kind, 'password_reset');
  assert.equal((await anon.request('POST', `/panel/api/links/${tokenOf(url)}/password`, { password: PASSWORD })).statusCode, 200);
  assert.equal((await o.client.request('GET', '/v2/billing/balance')).statusCode, 401, 'a reset ends every session');
  assert.equal((await anon.signIn(o.email)).statusCode, 200);
});

test('the hourly sweep removes sessions and links that ended more than 30 days ago, and nothing live', async () => {
  const o = await signedInOwner(t);
  const other = new PanelClient(t);
  await other.signIn(o.email);
  await other.request('POST', '/panel/api/sign-out');
  const count = async (table: 'panel_sessions' | 'panel_links') => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)}`.execute(t.database.db)).rows[0]!.n;
  const [sessions, links] = [await count('panel_sessions'), await count('panel_links')];
  assert.deepEqual(await sweepPanel(t.database.db, new Date()), { sessions: 0, links: 0, limits: 0 }, 'nothing ended 30 days ago yet');
  const later = await sweepPanel(t.database.db, new Date(Date.now() + 31 * 86_400_000));
  assert.ok(later.sessions >= 1 && later.links >= 1, JSON.stringify(later));
  assert.ok(await count('panel_sessions') < sessions && await count('panel_links') < links);
});
