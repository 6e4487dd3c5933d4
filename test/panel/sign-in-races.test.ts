// The sign-in throttle under parallel attempts: an attempt is taken (counted) before its password
// or code is checked, in one statement that also refuses past the limit, so a burst of parallel
// guesses gets no more checks than a sequence would. And an email of any allowed length is counted.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { totpCode } from '../../src/core/panel/totp.ts';
import { SIGN_IN_LIMITS } from '../../src/core/panel/throttle.ts';
import { json, startApp } from '../helpers/app.ts';
import { PASSWORD, PanelClient, signedInOwner } from '../helpers/panel.ts';

const t = await startApp({ panelSessionIdleS: 600, panelSessionMaxS: 3600 });

function tally(answers: LightMyRequestResponse[]): Record<number, number> {
  const by: Record<number, number> = {};
  for (const a of answers) by[a.statusCode] = (by[a.statusCode] ?? 0) + 1;
  return by;
}

test('100 parallel sign-ins for one email, the right password among them: at most the limit are checked; then even the right one waits', async () => {
  const o = await signedInOwner(t);
  const b = new PanelClient(t, '198.51.100.31');
  await b.me();
  const passwords = Array.from({ length: 100 }, (_, i) => (i === 60 ? PASSWORD : `wrong password number ${i}`));
  const answers = await Promise.all(passwords.map((password) => b.request('POST', '/panel/api/sign-in', { email: o.email, password })));
  const by = tally(answers);
  const checked = (by[401] ?? 0) + (by[200] ?? 0);
  console.log(`# parallel sign-ins: ${checked} of 100 checked (limit ${SIGN_IN_LIMITS.perEmail}); answers ${JSON.stringify(by)}`);
  assert.ok(checked <= SIGN_IN_LIMITS.perEmail, `${checked} passwords checked, limit ${SIGN_IN_LIMITS.perEmail}: ${JSON.stringify(by)}`);
  assert.equal(checked + (by[429] ?? 0), 100, JSON.stringify(by));
  if (answers[60]!.statusCode === 200) assert.ok((by[401] ?? 0) < SIGN_IN_LIMITS.perEmail, 'the right one got in only as one of the first attempts');
  // The limit is spent: the right password, alone, waits too.
  const after = new PanelClient(t, '198.51.100.32');
  await after.me();
  const right = await after.request('POST', '/panel/api/sign-in', { email: o.email, password: PASSWORD });
  assert.equal(right.statusCode, 429, right.body);
});

test('60 parallel wrong TOTP codes: at most the limit are checked', async () => {
  const o = await signedInOwner(t);
  const enrol = json(await o.client.request('POST', '/panel/api/two-factor/enrolment')).data;
  assert.equal((await o.client.request('POST', '/panel/api/two-factor', { code: totpCode(enrol.secret, new Date()) })).statusCode, 200);
  const b = new PanelClient(t, '198.51.100.33');
  await b.me();
  assert.equal(json(await b.request('POST', '/panel/api/sign-in', { email: o.email, password: PASSWORD })).data.next, 'totp');
  await b.me();
  const good = new Set([-1, 0, 1].map((s) => totpCode(enrol.secret, new Date(Date.now() + s * 30_000))));
  const codes: string[] = [];
  for (let n = 100_000; codes.length < 60; n += 7919) if (!good.has(String(n))) codes.push(String(n));
  const answers = await Promise.all(codes.map((code) => b.request('POST', '/panel/api/sign-in/code', { code })));
  const by = tally(answers);
  const checked = by[422] ?? 0;
  console.log(`# parallel TOTP codes: ${checked} of 60 checked (limit ${SIGN_IN_LIMITS.perPersonCodes}); answers ${JSON.stringify(by)}`);
  assert.ok(checked <= SIGN_IN_LIMITS.perPersonCodes, `${checked} codes checked, limit ${SIGN_IN_LIMITS.perPersonCodes}: ${JSON.stringify(by)}`);
  assert.equal(checked + (by[429] ?? 0), 60, JSON.stringify(by));
});

test('parallel wrong codes where a signed-in person confirms two-factor: at most the limit are checked', async () => {
  const o = await signedInOwner(t);
  await o.client.request('POST', '/panel/api/two-factor/enrolment');
  const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => o.client.request('POST', '/panel/api/two-factor', { code: `9${String(i).padStart(5, '0')}` })));
  const by = tally(answers);
  assert.ok((by[422] ?? 0) <= SIGN_IN_LIMITS.perPersonCodes, JSON.stringify(by));
  assert.equal((by[422] ?? 0) + (by[429] ?? 0), 30, JSON.stringify(by));
});

test('parallel wrong current passwords at a password change: at most the limit are checked', async () => {
  const o = await signedInOwner(t);
  const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => o.client.request('POST', '/panel/api/password', { current_password: `not it ${i} at all`, new_password: 'a brand new password' })));
  const by = tally(answers);
  assert.ok((by[422] ?? 0) <= SIGN_IN_LIMITS.perPersonCodes, JSON.stringify(by));
  assert.equal((by[422] ?? 0) + (by[429] ?? 0), 30, JSON.stringify(by));
});

test('an email of 251 characters: a wrong password is 401 and counts (the limit applies), not 503', async () => {
  const email = `${'a'.repeat(64)}@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.com`;
  assert.equal(email.length, 251);
  const b = new PanelClient(t, '198.51.100.34');
  await b.me();
  for (let i = 0; i < SIGN_IN_LIMITS.perEmail; i++) {
    const res = await b.request('POST', '/panel/api/sign-in', { email, password: `wrong password ${i}` });
    assert.equal(res.statusCode, 401, res.body);
  }
  const blocked = await b.request('POST', '/panel/api/sign-in', { email, password: 'wrong password again' });
  assert.equal(blocked.statusCode, 429, blocked.body);
  // The same email in other letter case is the same counter.
  const upper = await b.request('POST', '/panel/api/sign-in', { email: email.toUpperCase(), password: 'wrong password again' });
  assert.equal(upper.statusCode, 429, upper.body);
  // A reset request for another such email is answered, not 503.
  const reset = new PanelClient(t, '198.51.100.35');
  await reset.me();
  assert.equal((await reset.request('POST', '/panel/api/password-reset', { email: email.replace('a@', 'e@') })).statusCode, 202);
});

test('a success does not reopen the door: the failures before it still count; a success itself is not counted', async () => {
  const o = await signedInOwner(t);
  const b = new PanelClient(t, '198.51.100.36');
  await b.me();
  for (let i = 0; i < 3; i++) assert.equal((await b.request('POST', '/panel/api/sign-in', { email: o.email, password: `wrong password ${i}` })).statusCode, 401);
  for (let i = 0; i < 10; i++) assert.equal((await new PanelClient(t, '198.51.100.36').signIn(o.email)).statusCode, 200, 'successes do not spend the budget');
  for (let i = 3; i < SIGN_IN_LIMITS.perEmail; i++) assert.equal((await b.request('POST', '/panel/api/sign-in', { email: o.email, password: `wrong password ${i}` })).statusCode, 401);
  assert.equal((await b.request('POST', '/panel/api/sign-in', { email: o.email, password: PASSWORD })).statusCode, 429);
});
