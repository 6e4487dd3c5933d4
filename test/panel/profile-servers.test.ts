// The profile (the operator's updateAccount and rules) and a server's delete preview.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, json, startApp } from '../helpers/app.ts';
import { signedInOwner, signedInSubUser } from '../helpers/panel.ts';
import { activeServer } from '../helpers/servers.ts';

const t = await startApp({ worker: 'embedded' });

test('profile: saved through the admin API\'s core function; its rules and messages; empty optional fields clear; status is not the customer\'s', async () => {
  const o = await signedInOwner(t);
  const res = await o.client.request('PATCH', '/panel/api/profile', { name: 'Ada Ltd', company: 'Ada', phone: '+31 20 123 4567', country: 'nl', email: 'billing@ada.example' });
  assert.equal(res.statusCode, 200, res.body);
  const a = json(res).data;
  assert.deepEqual([a.name, a.company, a.phone, a.country, a.email], ['Ada Ltd', 'Ada', '+31 20 123 4567', 'NL', 'billing@ada.example']);
  assert.equal((await o.client.signIn(o.email)).statusCode, 200, 'the sign-in email is not the contact email');
  const cleared = json(await o.client.request('PATCH', '/panel/api/profile', { company: '' })).data;
  assert.equal(cleared.company, null);
  const bad = await o.client.request('PATCH', '/panel/api/profile', { country: 'Netherlands', phone: 'x', email: 'nope', name: ' ' });
  assert.equal(bad.statusCode, 422);
  assert.deepEqual(json(bad).error.errors.map((e: { field: string; message: string }) => `${e.field}: ${e.message}`), [
    'email: must be an email address like you@example.com',
    'name: must not be blank',
    'phone: must be a phone number of digits, spaces, ( ) and -, with an optional leading +',
    'country: must be a two-letter country code like NL',
  ]);
  assert.equal((await o.client.request('PATCH', '/panel/api/profile', { status: 'active' })).statusCode, 422);
  assert.equal((await o.client.request('PATCH', '/panel/api/profile', {})).statusCode, 422);
  const other = await signedInOwner(t);
  const taken = await o.client.request('PATCH', '/panel/api/profile', { email: json(await call(t.app, 'GET', '/v2/account', { key: other.key })).data.email });
  assert.equal(taken.statusCode, 422);
  assert.equal(json(taken).error.errors[0].message, 'an account with this email already exists');
  const writer = await signedInSubUser(o, ['account:read', 'account:write']);
  assert.equal((await writer.client.request('PATCH', '/panel/api/profile', { name: 'By a sub-user' })).statusCode, 200);
});

test('delete preview: the refund the delete then makes; another account\'s server 404; a deleted one 404', async () => {
  const o = await signedInOwner(t);
  const server = await activeServer(t, o);
  const res = await o.client.request('GET', `/panel/api/servers/${server.id}/delete-preview`);
  assert.equal(res.statusCode, 200, res.body);
  const p = json(res).data;
  assert.equal(p.id, server.id);
  assert.ok(p.unused_hours > 0 && p.unused_hours <= p.period_hours);
  const stranger = await signedInOwner(t);
  assert.equal((await stranger.client.request('GET', `/panel/api/servers/${server.id}/delete-preview`)).statusCode, 404);
  const del = await o.client.request('DELETE', `/v2/servers/${server.id}`);
  assert.equal(del.statusCode, 200, del.body);
  assert.equal(json(del).data.refund.amount, p.refund.amount);
  assert.equal((await o.client.request('GET', `/panel/api/servers/${server.id}/delete-preview`)).statusCode, 404);
});
