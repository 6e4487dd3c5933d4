// The operator's invitation and the single-use links it (and resets) send.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { PASSWORD, PanelClient, panelNotices, tokenOf } from '../helpers/panel.ts';

const t = await startApp({ panelSessionIdleS: 600, panelSessionMaxS: 3600 });

test('operator invitation: 201 {url, expires_at, email} and a queued notice; unknown account 404; the CLI prints the link', async () => {
  const c = await createCustomer(t);
  const res = await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/panel-invitation`);
  assert.equal(res.statusCode, 201, res.body);
  const inv = json(res).data;
  assert.match(inv.url, /^http:\/\/api\.test\/panel\/invitation\/[A-Za-z0-9_-]{43}$/);
  const hours = (Date.parse(inv.expires_at) - Date.now()) / 3_600_000;
  assert.ok(hours > 71.9 && hours <= 72, `72 h, got ${hours}`);
  assert.equal(res.headers.location, `http://api.test/admin/v1/accounts/${c.accountId}`);
  const mail = await panelNotices(t, c.accountId, 'panel.invitation');
  assert.equal(mail.length, 1);
  assert.ok(mail[0]!.body.includes(inv.url));
  assert.equal(mail[0]!.to_email, inv.email);

  const missing = await adminCall(t, 'POST', '/admin/v1/accounts/acc_nope/panel-invitation');
  assert.equal(missing.statusCode, 404);
  assert.equal(json(missing).error.code, 'RESOURCE_NOT_FOUND');
  const noToken = await call(t.app, 'POST', `/admin/v1/accounts/${c.accountId}/panel-invitation`);
  assert.equal(noToken.statusCode, 401);
});

test('links: read without spending, set a password once; unknown 404, used or expired 409, weak password 422 on the field', async () => {
  const c = await createCustomer(t);
  const inv = json(await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/panel-invitation`)).data;
  const token = tokenOf(inv.url);
  const b = new PanelClient(t);
  await b.me();
  const read = await b.request('GET', `/panel/api/links/${token}`);
  assert.equal(read.statusCode, 200, read.body);
  assert.deepEqual({ kind: json(read).data.kind, email: json(read).data.email }, { kind: 'invitation', email: inv.email });
  assert.equal(read.headers['cache-control'], 'no-store');

  const weak = await b.request('POST', `/panel/api/links/${token}/password`, { password: 'short' });
  assert.equal(weak.statusCode, 422);
  assert.deepEqual(json(weak).error.errors, [{ field: 'password', code: 'INVALID', message: 'must be at least 10 characters' }]);
  const same = await b.request('POST', `/panel/api/links/${token}/password`, { password: inv.email });
  assert.equal(json(same).error.errors[0].message, 'must not be your email address');
  const extra = await b.request('POST', `/panel/api/links/${token}/password`, { password: PASSWORD, admin: true });
  assert.equal(extra.statusCode, 422);

  const set = await b.request('POST', `/panel/api/links/${token}/password`, { password: PASSWORD });
  assert.equal(set.statusCode, 200, set.body);
  assert.equal(json(set).data.email, inv.email);
  const again = await b.request('POST', `/panel/api/links/${token}/password`, { password: PASSWORD });
  assert.equal(again.statusCode, 409);
  assert.match(json(again).error.message, /already used/);
  assert.equal((await b.request('GET', `/panel/api/links/${token}`)).statusCode, 409);
  assert.equal((await b.request('GET', '/panel/api/links/not-a-real-token-but-long-enough')).statusCode, 404);

  // The owner has a password now: the operator gets no link that would replace it.
  const replace = await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/panel-invitation`);
  assert.equal(replace.statusCode, 409, replace.body);
  // A new invitation retires the previous link; an expired one says so.
  const d = await createCustomer(t);
  const second = json(await adminCall(t, 'POST', `/admin/v1/accounts/${d.accountId}/panel-invitation`)).data;
  const third = json(await adminCall(t, 'POST', `/admin/v1/accounts/${d.accountId}/panel-invitation`)).data;
  assert.equal((await b.request('POST', `/panel/api/links/${tokenOf(second.url)}/password`, { password: PASSWORD })).statusCode, 409);
  await sql`UPDATE panel_links SET expires_at = now() - interval '1 second' WHERE used_at IS NULL`.execute(t.database.db);
  const expired = await b.request('POST', `/panel/api/links/${tokenOf(third.url)}/password`, { password: PASSWORD });
  assert.equal(expired.statusCode, 409);
  assert.match(json(expired).error.message, /expired/);
});
