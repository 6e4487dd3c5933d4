// Sub-users in the panel: invitations (email, names, permissions), accepting, what a sub-user's
// session may do (its permissions, on the panel and on v2), deactivation and deletion.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { issueLink } from '../../src/core/panel/links.ts';
import { findPanelUserByEmail } from '../../src/db/queries/panel-users.ts';
import { call, json, startApp } from '../helpers/app.ts';
import { PASSWORD, PanelClient, panelNotices, signedInOwner, signedInSubUser, tokenOf } from '../helpers/panel.ts';

const t = await startApp();

test('invite: a pending sub-user with its permissions and a link (also mailed); accepting makes it active; the list says who signs in', async () => {
  const o = await signedInOwner(t);
  const res = await o.client.request('POST', '/panel/api/sub-users', { email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee', permissions: ['tickets:read', 'servers:read', 'servers:read'] });
  assert.equal(res.statusCode, 201, res.body);
  const inv = json(res).data;
  assert.equal(inv.sub_user.status, 'pending');
  assert.deepEqual(inv.sub_user.permissions, ['servers:read', 'tickets:read']);
  assert.match(inv.url, /\/panel\/invitation\//);
  assert.equal(res.headers.location, `http://api.test/v2/sub-users/${inv.sub_user.id}`);
  const mail = await panelNotices(t, o.accountId, 'panel.invitation');
  assert.equal(mail[0]!.to_email, 'ann@example.com');
  assert.match(mail[0]!.body, new RegExp(`${o.email} invited you`));

  let list = json(await o.client.request('GET', '/panel/api/sub-users')).data;
  assert.deepEqual(list[0].panel, { invited: true, signed_up: false, two_factor: false });
  const b = new PanelClient(t);
  await b.me();
  assert.equal((await b.request('POST', `/panel/api/links/${tokenOf(inv.url)}/password`, { password: PASSWORD })).statusCode, 200);
  list = json(await o.client.request('GET', '/panel/api/sub-users')).data;
  assert.equal(list[0].status, 'active');
  assert.deepEqual(list[0].panel, { invited: true, signed_up: true, two_factor: false });
  assert.equal((await b.signIn('ann@example.com')).statusCode, 200);
  const me = await b.me();
  assert.equal(me.user.role, 'sub_user');
  assert.deepEqual(me.user.permissions, ['servers:read', 'tickets:read']);
});

test('invite: field errors (email, names, unknown permission), a taken email, CSRF 403, and a sub-user cannot hand out what it lacks', async () => {
  const o = await signedInOwner(t);
  const bad = await o.client.request('POST', '/panel/api/sub-users', { email: 'nope', first_name: ' ', last_name: 'X', permissions: ['servers:fly'] });
  assert.equal(bad.statusCode, 422);
  assert.deepEqual(json(bad).error.errors.map((e: { field: string }) => e.field), ['email', 'first_name', 'permissions[0]']);
  assert.equal((await o.client.request('POST', '/panel/api/sub-users', { email: 'a@example.com', first_name: 'A', last_name: 'B' })).statusCode, 422, 'permissions required (may be empty)');
  assert.equal((await o.client.request('POST', '/panel/api/sub-users', { email: 'a@example.com', first_name: 'A', last_name: 'B', permissions: [] }, { csrf: false })).statusCode, 403);
  // An email that already signs in to the panel (this owner's) cannot be a sub-user's login.
  const taken = await o.client.request('POST', '/panel/api/sub-users', { email: o.email, first_name: 'A', last_name: 'B', permissions: [] });
  assert.equal(taken.statusCode, 422);
  assert.match(json(taken).error.errors[0].message, /already signs in/);
  assert.equal(json(await o.client.request('GET', '/panel/api/sub-users')).data.length, 0, 'nothing half-made');

  const manager = await signedInSubUser(o, ['sub_users:read', 'sub_users:write', 'servers:read']);
  const beyond = await manager.client.request('POST', '/panel/api/sub-users', { email: 'b@example.com', first_name: 'B', last_name: 'C', permissions: ['billing:read'] });
  assert.equal(beyond.statusCode, 403);
  assert.equal(json(beyond).error.code, 'AUTH_SCOPE_INSUFFICIENT');
  assert.equal((await manager.client.request('POST', '/panel/api/sub-users', { email: 'b@example.com', first_name: 'B', last_name: 'C', permissions: ['servers:read'] })).statusCode, 201);
  const reader = await signedInSubUser(o, ['servers:read']);
  const refused = await reader.client.request('POST', '/panel/api/sub-users', { email: 'c@example.com', first_name: 'C', last_name: 'D', permissions: [] });
  assert.equal(refused.statusCode, 403);
  assert.equal((await reader.client.request('GET', '/panel/api/sub-users')).statusCode, 403);
});

test('a sub-user\'s session does what its permissions allow, on v2 and the panel, and nothing more; another account\'s ids are 404', async () => {
  const o = await signedInOwner(t);
  const sub = await signedInSubUser(o, ['servers:read']);
  assert.equal((await sub.client.request('GET', '/v2/servers')).statusCode, 200);
  const write = await sub.client.request('POST', '/v2/ssh-keys', { name: 'k', public_key: 'ssh-ed25519 AAAA' });
  assert.equal(write.statusCode, 403);
  assert.equal(json(write).error.code, 'AUTH_SCOPE_INSUFFICIENT');
  assert.equal((await sub.client.request('GET', '/v2/billing/balance')).statusCode, 403);
  assert.equal((await sub.client.request('PATCH', '/panel/api/profile', { name: 'Mine now' })).statusCode, 403);
  assert.equal((await sub.client.request('GET', '/panel/api/servers/srv_x/delete-preview')).statusCode, 403, 'a delete needs servers:write');
  const stranger = await signedInOwner(t);
  const list = json(await stranger.client.request('GET', '/v2/servers')).data;
  assert.deepEqual(list, []);
  assert.equal((await stranger.client.request('POST', `/panel/api/sub-users/${sub.id}/invitation`)).statusCode, 404);
  assert.equal((await stranger.client.request('PATCH', `/v2/sub-users/${sub.id}`, { status: 'inactive' })).statusCode, 404);
});

test('deactivate: its session stops at once (403) and it cannot sign in; activate again; no new invitation for it (it has its password)', async () => {
  const o = await signedInOwner(t);
  const sub = await signedInSubUser(o, ['servers:read']);
  assert.equal((await o.client.request('PATCH', `/v2/sub-users/${sub.id}`, { status: 'inactive' })).statusCode, 200);
  const refused = await sub.client.request('GET', '/v2/servers');
  assert.equal(refused.statusCode, 403);
  assert.equal(json(refused).error.code, 'ACCOUNT_INACTIVE');
  assert.equal((await sub.client.me()).signed_in, false);
  const b = new PanelClient(t);
  await b.me();
  const signIn = await b.request('POST', '/panel/api/sign-in', { email: sub.email, password: PASSWORD });
  assert.equal(signIn.statusCode, 403);
  assert.match(json(signIn).error.message, /deactivated/);
  assert.equal((await o.client.request('POST', `/panel/api/sub-users/${sub.id}/invitation`)).statusCode, 409, 'inactive: activate first');
  assert.equal((await o.client.request('PATCH', `/v2/sub-users/${sub.id}`, { status: 'active' })).statusCode, 200);
  assert.equal((await sub.client.request('GET', '/v2/servers')).statusCode, 200);
  // It has set its password: a new invitation is not for it ("Forgot password" is, mailed to it).
  const again = await o.client.request('POST', `/panel/api/sub-users/${sub.id}/invitation`);
  assert.equal(again.statusCode, 409);
  assert.equal(json(again).data, undefined);
});

test('takeover: a sub-user manager cannot re-invite an active sub-user (no link), nor a pending one holding more than it does; a set-password link never overwrites an active password', async () => {
  const o = await signedInOwner(t);
  const biller = await signedInSubUser(o, ['billing:read', 'billing:write']);
  const manager = await signedInSubUser(o, ['sub_users:read', 'sub_users:write']);
  const res = await manager.client.request('POST', `/panel/api/sub-users/${biller.id}/invitation`);
  assert.equal(res.statusCode, 409, res.body);
  assert.doesNotMatch(res.body, /\/panel\/(invitation|reset-password)\//, 'no link in the answer');
  assert.match(json(res).error.message, /already set|Forgot password/i);
  // The owner cannot either: a set password is changed only by its holder (or through its mailbox).
  assert.equal((await o.client.request('POST', `/panel/api/sub-users/${biller.id}/invitation`)).statusCode, 409);
  assert.equal((await new PanelClient(t).signIn(biller.email)).statusCode, 200, 'the biller still signs in with its own password');

  // A pending sub-user with billing rights: re-inviting it needs those rights too.
  const pending = json(await o.client.request('POST', '/panel/api/sub-users', { email: 'pend@example.com', first_name: 'P', last_name: 'B', permissions: ['billing:read'] })).data;
  const beyond = await manager.client.request('POST', `/panel/api/sub-users/${pending.sub_user.id}/invitation`);
  assert.equal(beyond.statusCode, 403, beyond.body);
  assert.equal(json(beyond).error.code, 'AUTH_SCOPE_INSUFFICIENT');
  const noRights = await signedInSubUser(o, ['sub_users:read']);
  assert.equal((await noRights.client.request('POST', `/panel/api/sub-users/${pending.sub_user.id}/invitation`)).statusCode, 403);
  const plain = json(await o.client.request('POST', '/panel/api/sub-users', { email: 'plain@example.com', first_name: 'P', last_name: 'L', permissions: [] })).data;
  const ok = await manager.client.request('POST', `/panel/api/sub-users/${plain.sub_user.id}/invitation`);
  assert.equal(ok.statusCode, 200, ok.body);
  assert.match(json(ok).data.url, /\/panel\/invitation\//);

  // An invitation link still live from before the password was set (as earlier versions handed
  // out) does nothing to it.
  const leftover = await issueLink(t.database.db, (await findPanelUserByEmail(t.database.db, biller.email))!, 'invitation', 'http://api.test/panel', new Date());
  const stale = new PanelClient(t);
  await stale.me();
  const overwrite = await stale.request('POST', `/panel/api/links/${tokenOf(leftover.url)}/password`, { password: 'the attacker password' });
  assert.equal(overwrite.statusCode, 409, overwrite.body);
  assert.equal((await new PanelClient(t).signIn(biller.email, 'the attacker password')).statusCode, 401);
  assert.equal((await new PanelClient(t).signIn(biller.email)).statusCode, 200);
});

test('an invitation link never sets the password of a person who already has one (the operator\'s invitation of an owner who signs in is 409)', async () => {
  const o = await signedInOwner(t);
  const again = await call(t.app, 'POST', `/admin/v1/accounts/${o.accountId}/panel-invitation`, { headers: { authorization: `Bearer ${t.adminToken}` } });
  assert.equal(again.statusCode, 409, again.body);
  assert.match(json(again).error.message, /Forgot password/);
  assert.equal((await new PanelClient(t).signIn(o.email)).statusCode, 200);
});

test('delete: its keys are revoked and its panel login and sessions go with it', async () => {
  const o = await signedInOwner(t);
  const sub = await signedInSubUser(o, ['servers:read']);
  const key = json(await sub.client.request('POST', '/panel/api/api-keys', { name: 'k', ip_allowlist: ['127.0.0.1'] })).data;
  assert.equal((await call(t.app, 'GET', '/v2/servers', { key: key.key })).statusCode, 200);
  const del = await o.client.request('DELETE', `/v2/sub-users/${sub.id}`);
  assert.equal(del.statusCode, 200, del.body);
  assert.equal((await call(t.app, 'GET', '/v2/servers', { key: key.key })).statusCode, 401);
  assert.equal((await sub.client.request('GET', '/v2/servers')).statusCode, 401);
  const b = new PanelClient(t);
  await b.me();
  assert.equal((await b.request('POST', '/panel/api/sign-in', { email: sub.email, password: PASSWORD })).statusCode, 401);
  // Its email is free again, for a new invitation.
  assert.equal((await o.client.request('POST', '/panel/api/sub-users', { email: sub.email, first_name: 'Re', last_name: 'Turn', permissions: [] })).statusCode, 201);
});

test('an operator-invited sub-user (no panel login yet) gets one with its first panel invitation', async () => {
  const o = await signedInOwner(t);
  const made = await call(t.app, 'POST', `/admin/v1/accounts/${o.accountId}/sub-users`, { headers: { authorization: `Bearer ${t.adminToken}` }, body: { email: 'op@example.com', first_name: 'Op', last_name: 'Made' } });
  const id = json(made).data.id;
  assert.deepEqual(json(await o.client.request('GET', '/panel/api/sub-users')).data[0].panel, { invited: false, signed_up: false, two_factor: false });
  const inv = await o.client.request('POST', `/panel/api/sub-users/${id}/invitation`);
  assert.equal(inv.statusCode, 200, inv.body);
  const b = new PanelClient(t);
  await b.me();
  assert.equal((await b.request('POST', `/panel/api/links/${tokenOf(json(inv).data.url)}/password`, { password: PASSWORD })).statusCode, 200);
  assert.equal((await b.signIn('op@example.com')).statusCode, 200);
  assert.deepEqual((await b.me()).user.permissions, []);
  assert.equal((await b.request('GET', '/v2/servers')).statusCode, 403, 'no permission yet');
});
