// What holds for every route of the panel's own API, found by walking the app's routes: a write
// without its CSRF token is 403, a route that needs a session answers 401 without one, and unknown
// body fields or query parameters are 422.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { routesOf } from '../../src/http/app.ts';
import { call, json, startApp } from '../helpers/app.ts';
import { PanelClient, signedInOwner } from '../helpers/panel.ts';

const t = await startApp({ panelSignup: 'open' });
const routes = routesOf(t.app).filter((r) => r.url.startsWith('/panel/api/') && !r.url.includes('*'));
const path = (url: string) => url.replace(':token', 'x'.repeat(43)).replace(':id', '1').replace(':month', new Date().toISOString().slice(0, 7));

test('the panel API has the routes this suite expects', () => {
  assert.ok(routes.length >= 25, `${routes.length} routes`);
});

const OPEN = new Set(['/panel/api/me', '/panel/api/sign-in', '/panel/api/sign-in/code', '/panel/api/sign-out', '/panel/api/sign-up', '/panel/api/password-reset',
  '/panel/api/links/:token', '/panel/api/links/:token/password', '/panel/api/links/:token/verify-email',
  // The hosting page of a used login link: its own session, not a panel one.
  '/panel/api/hosting-page/:id']);

test('every panel write without its CSRF token → 403 CSRF_TOKEN_INVALID before anything else (signed out: the routes that need no session)', async () => {
  const o = await signedInOwner(t);
  const anon = new PanelClient(t);
  await anon.me();
  for (const r of routes.filter((x) => x.method !== 'GET')) {
    for (const client of OPEN.has(r.url) ? [o.client, anon] : [o.client]) {
      const res = await client.request(r.method as 'POST', path(r.url), {}, { csrf: false });
      assert.equal(res.statusCode, 403, `${r.method} ${r.url}: ${res.body}`);
      assert.equal(json(res).error.code, 'CSRF_TOKEN_INVALID', `${r.method} ${r.url}`);
    }
  }
});

test('every route that needs a session answers 401 AUTH_REQUIRED without one (with a valid signed-out token)', async () => {
  const anon = new PanelClient(t);
  await anon.me();
  for (const r of routes.filter((x) => !OPEN.has(x.url))) {
    const res = await anon.request(r.method as 'GET', path(r.url), r.method === 'GET' ? undefined : {});
    assert.equal(res.statusCode, 401, `${r.method} ${r.url}: ${res.body}`);
    assert.equal(json(res).error.code, 'AUTH_REQUIRED', `${r.method} ${r.url}`);
  }
  // The code step of a sign-in is not a session either.
  const code = await anon.request('POST', '/panel/api/sign-in/code', { code: '123456' });
  assert.equal(code.statusCode, 401);
});

test('unknown body fields and query parameters → 422 naming them', async () => {
  const o = await signedInOwner(t);
  for (const r of routes.filter((x) => !x.bodySchema)) {
    const q = await o.client.request(r.method as 'GET', `${path(r.url)}?nonsense=1`, r.method === 'GET' ? undefined : {});
    assert.equal(q.statusCode, 422, `${r.method} ${r.url}?nonsense=1: ${q.body}`);
    assert.ok(json(q).error.errors.some((e: { field: string }) => e.field === 'nonsense'), `${r.url}: ${q.body}`);
  }
  for (const r of routes.filter((x) => x.bodySchema)) {
    const res = await o.client.request(r.method as 'POST', path(r.url), { surprise: true });
    assert.equal(res.statusCode, 422, `${r.method} ${r.url}: ${res.body}`);
    assert.ok(json(res).error.errors.some((e: { field: string }) => e.field === 'surprise'), `${r.url}: ${res.body}`);
  }
  // Bodies are JSON only, as everywhere.
  const form = await t.app.inject({ method: 'POST', url: '/panel/api/sign-in', payload: 'email=a&password=b', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: [...o.client.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': o.client.csrf } });
  assert.equal(form.statusCode, 415);
  assert.equal((await call(t.app, 'GET', '/panel/api/me')).statusCode, 200);
});
