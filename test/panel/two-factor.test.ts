// Two-factor authentication: enrolment, sign-in with a code, recovery codes, turning it off.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { totpCode } from '../../src/core/panel/totp.ts';
import { json, startApp } from '../helpers/app.ts';
import { PASSWORD, PanelClient, signedInOwner } from '../helpers/panel.ts';

const t = await startApp({ panelSessionIdleS: 600, panelSessionMaxS: 3600 });

test('two-factor: enrol (QR + key), confirm with a code (recovery codes once); sign-in then needs a code; a code works once; recovery codes; off with a code', async () => {
  const o = await signedInOwner(t);
  const c = o.client;
  assert.deepEqual(json(await c.request('GET', '/panel/api/two-factor')).data, { enabled: false, recovery_codes_left: 0 });
  assert.equal((await c.request('POST', '/panel/api/two-factor', { code: '123456' })).statusCode, 409, 'no enrolment yet');
  const enrol = json(await c.request('POST', '/panel/api/two-factor/enrolment')).data;
  assert.match(enrol.secret, /^[A-Z2-7]{32}$/);
  assert.match(enrol.otpauth_uri, /^otpauth:\/\/totp\/Hostcloud:.+\?.*secret=/);
  assert.match(enrol.qr_svg, /^<svg/);
  const wrong = await c.request('POST', '/panel/api/two-factor', { code: '000000' });
  assert.equal(wrong.statusCode, 422);
  assert.equal(json(wrong).error.errors[0].field, 'code');
  // The step the confirmation spends: the sign-in below must find this step's code refused even
  // when the clock has moved on to the next step meanwhile (a 30 s boundary, or a slow machine).
  const enrolledAt = new Date();
  const on = await c.request('POST', '/panel/api/two-factor', { code: totpCode(enrol.secret, enrolledAt) });
  assert.equal(on.statusCode, 200, on.body);
  const codes = json(on).data.recovery_codes as string[];
  assert.equal(codes.length, 10);
  assert.equal(new Set(codes).size, 10);
  assert.equal((await c.request('POST', '/panel/api/two-factor/enrolment')).statusCode, 409, 'already on');
  assert.equal((await c.me()).user.two_factor, true);

  // Sign-in: the password opens only the code step.
  const b = new PanelClient(t);
  await b.me();
  const first = await b.request('POST', '/panel/api/sign-in', { email: o.email, password: PASSWORD });
  assert.equal(json(first).data.next, 'totp');
  const half = await b.me();
  assert.equal(half.signed_in, false);
  assert.equal(half.stage, 'totp');
  assert.equal((await b.request('GET', '/v2/billing/balance')).statusCode, 401, 'the code step cannot use the API');
  // The code of the step the enrolment spent is refused; the next step's works, once.
  const spent = await b.request('POST', '/panel/api/sign-in/code', { code: totpCode(enrol.secret, enrolledAt) });
  assert.equal(spent.statusCode, 422);
  const nextCode = totpCode(enrol.secret, new Date(Date.now() + 30_000));
  const ok = await b.request('POST', '/panel/api/sign-in/code', { code: nextCode });
  assert.equal(ok.statusCode, 200, ok.body);
  assert.equal((await b.me()).signed_in, true);
  assert.equal((await b.request('GET', '/v2/billing/balance')).statusCode, 200);

  // A recovery code signs in once.
  const r = new PanelClient(t);
  await r.me();
  await r.request('POST', '/panel/api/sign-in', { email: o.email, password: PASSWORD });
  await r.me();
  assert.equal((await r.request('POST', '/panel/api/sign-in/code', { code: codes[0]!.toUpperCase() })).statusCode, 200);
  const r2 = new PanelClient(t);
  await r2.me();
  await r2.request('POST', '/panel/api/sign-in', { email: o.email, password: PASSWORD });
  await r2.me();
  assert.equal((await r2.request('POST', '/panel/api/sign-in/code', { code: codes[0]! })).statusCode, 422, 'spent');
  assert.equal(json(await c.request('GET', '/panel/api/two-factor')).data.recovery_codes_left, 9);

  // New recovery codes, then off — each needs a code.
  assert.equal((await c.request('POST', '/panel/api/two-factor/recovery-codes', { code: '111111' })).statusCode, 422);
  const fresh = await c.request('POST', '/panel/api/two-factor/recovery-codes', { code: codes[1]! });
  assert.equal(json(fresh).data.recovery_codes.length, 10);
  assert.equal((await c.request('POST', '/panel/api/two-factor/disable', { code: codes[2]! })).statusCode, 422, 'old codes stopped working');
  assert.equal((await c.request('POST', '/panel/api/two-factor/disable', { code: json(fresh).data.recovery_codes[0] })).statusCode, 200);
  assert.deepEqual(json(await c.request('GET', '/panel/api/two-factor')).data, { enabled: false, recovery_codes_left: 0 });
  const plain = new PanelClient(t);
  assert.equal(json(await plain.signIn(o.email)).data.next, 'done');
});
