// Sign-up and password reset in a real browser (test/helpers/panel-browser.ts), with PANEL_SIGNUP=open:
// the sign-up form asks a name and an email only, the mailed link is where the password is chosen;
// the reset page offers to revoke the account's API keys, and doing so stops the key. Skipped,
// saying why, without Chromium.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adminCall, json } from '../helpers/app.ts';
import { PASSWORD, acceptInvitation, browser, control, fill, heading, invitedOwner, newPage, origin, press, shot, signIn, skip, t, useBrowser } from '../helpers/panel-browser.ts';

// What the functions run in the page use (this project is type-checked without the DOM's types).
declare const document: { body: { innerText: string } };

useBrowser({ panelSignup: 'open' });

/** The panel link in the newest mail of this kind to the account. */
async function mailedLink(accountId: string, kind: string): Promise<string> {
  const mail = json(await adminCall(t, 'GET', `/admin/v1/notifications?account_id=${accountId}&kind=${kind}`)).data as { body: string }[];
  return /http:\/\/\S+\/panel\/\S+/.exec(mail[0]!.body)![0];
}

test('sign-up: name and email only → "Check your email" → the mailed link sets the password → sign in', { skip, timeout: 180_000 }, async () => {
  const context = await browser.createBrowserContext();
  const page = await newPage(context);
  await page.goto(`${origin}/panel/sign-in`);
  await control(page, 'Create an account', 'link').click();
  await heading(page, 'Create an account');
  assert.equal(await control(page, 'Password').setTimeout(300).wait().then(() => true, () => false), false, 'no password field on sign-up');
  await fill(page, 'Name', 'Grace Hopper');
  await fill(page, 'Email', 'grace@example.com');
  await shot(page, 'sign-up-desktop');
  await press(page, 'Create account');
  await heading(page, 'Check your email');
  const accountId = json(await adminCall(t, 'GET', '/admin/v1/accounts?email=grace@example.com')).data[0].id as string;
  await acceptInvitation(page, await mailedLink(accountId, 'panel.sign_up'));
  await signIn(page, 'grace@example.com');
  await heading(page, 'Welcome');
  await context.close();
});

test('reset: "Also revoke API keys" on the reset page revokes the account\'s key', { skip, timeout: 180_000 }, async () => {
  const context = await browser.createBrowserContext();
  const page = await newPage(context);
  const owner = await invitedOwner(page);
  const balance = () => fetch(`${origin}/v2/billing/balance`, { headers: { authorization: `Bearer ${owner.key}` } }).then((r) => r.status);
  assert.equal(await balance(), 200);
  await page.goto(`${origin}/panel/forgot-password`);
  await heading(page, 'Reset your password');
  await fill(page, 'Email', owner.email);
  await press(page, 'Send me a link');
  await page.waitForFunction(() => document.body.innerText.includes('on its way'));
  await page.goto(await mailedLink(owner.accountId, 'panel.password_reset'));
  await heading(page, 'Set a new password');
  await fill(page, 'New password', PASSWORD);
  await fill(page, 'Confirm password', PASSWORD);
  await control(page, 'Also revoke API keys', 'checkbox').click();
  await shot(page, 'reset-password-desktop');
  await press(page, 'Set password');
  await heading(page, 'Password set');
  await page.waitForFunction(() => document.body.innerText.includes('API key is revoked'));
  assert.equal(await balance(), 401);
  await context.close();
});
