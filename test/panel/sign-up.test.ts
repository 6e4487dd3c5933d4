// Self sign-up (PANEL_SIGNUP=open) and the page itself.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, json, startApp } from '../helpers/app.ts';
import { PASSWORD, PanelClient, tokenOf } from '../helpers/panel.ts';

const t = await startApp({ panelSessionIdleS: 600, panelSessionMaxS: 3600 });

test('sign-up: closed by default (404); open → 202, a verification link, sign-in only once confirmed; a taken email gets a notice', async () => {
  const closed = new PanelClient(t);
  await closed.me();
  const off = await closed.request('POST', '/panel/api/sign-up', { email: 'new@example.com', name: 'New', password: PASSWORD });
  assert.equal(off.statusCode, 404);
  assert.equal((await closed.me()).sign_up_open, false);

  const open = await startApp({ panelSignup: 'open' });
  const b = new PanelClient(open);
  assert.equal((await b.me()).sign_up_open, true);
  const bad = await b.request('POST', '/panel/api/sign-up', { email: 'not-an-email', name: ' ', password: 'short' });
  assert.equal(bad.statusCode, 422);
  assert.deepEqual(json(bad).error.errors.map((e: { field: string }) => e.field).sort(), ['email', 'name', 'password']);
  const res = await b.request('POST', '/panel/api/sign-up', { email: 'Fresh@Example.com', name: 'Fresh Start', password: PASSWORD });
  assert.equal(res.statusCode, 202, res.body);
  const early = await b.request('POST', '/panel/api/sign-in', { email: 'fresh@example.com', password: PASSWORD });
  assert.equal(early.statusCode, 401);
  assert.match(json(early).error.message, /Confirm your email/);
  const accounts = json(await call(open.app, 'GET', '/admin/v1/accounts?email=fresh@example.com', { headers: { authorization: `Bearer ${open.adminToken}` } })).data;
  assert.equal(accounts.length, 1);
  assert.equal(accounts[0].balance.amount, '0.00');
  const mail = json(await call(open.app, 'GET', `/admin/v1/notifications?account_id=${accounts[0].id}&kind=panel.email_verification`, { headers: { authorization: `Bearer ${open.adminToken}` } })).data;
  const url = /http:\/\/api\.test\/panel\/verify-email\/\S+/.exec(mail[0].body)![0];
  assert.equal((await b.request('POST', `/panel/api/links/${tokenOf(url)}/verify-email`)).statusCode, 200);
  assert.equal((await b.signIn('fresh@example.com')).statusCode, 200);
  assert.equal(json(await b.request('GET', '/v2/account')).data.name, 'Fresh Start');

  // The same email again: the same 202, no second account, a notice to the owner instead.
  const again = new PanelClient(open);
  await again.me();
  assert.equal((await again.request('POST', '/panel/api/sign-up', { email: 'fresh@example.com', name: 'Impostor', password: 'another password here' })).statusCode, 202);
  const repeated = json(await call(open.app, 'GET', `/admin/v1/notifications?account_id=${accounts[0].id}&kind=panel.sign_up_repeated`, { headers: { authorization: `Bearer ${open.adminToken}` } })).data;
  assert.equal(repeated.length, 1);
  assert.equal((await again.signIn('fresh@example.com', 'another password here')).statusCode, 401);
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
