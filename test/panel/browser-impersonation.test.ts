// A staff member signed in as the customer, in a real browser (test/helpers/panel-browser.ts): an
// owner opens the link POST /admin/v1/accounts/{id}/impersonation gave — from the console's account
// page ("Sign in as the customer", a reason, a new tab), and from the API — the banner says who and
// why on every page, the customer's own Security page lists the session as done by staff, the
// audit log has the start, and "End" ends it (audited). Skipped, saying why, without Chromium.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adminCall, call, json } from '../helpers/app.ts';
import { createStaff } from '../helpers/staff.ts';
import type { Page } from 'puppeteer-core';
import { browser, control, evidence, fill, heading, invitedOwner, newPage, origin, press, shot, signIn, skip, t, useBrowser } from '../helpers/panel-browser.ts';
import { consoleShot, invitedMember } from '../helpers/console-browser.ts';

// What the functions run in the page use (this project is type-checked without the DOM's types).
interface El { textContent: string | null }
declare const document: { querySelector(s: string): El | null; body: { innerText: string } };

useBrowser();

const REASON = 'Ticket 1234: the customer asks why the DNS page is empty';

test('an owner signs in as the customer with a reason: banner on every page, listed to the customer, audited, End ends it', { skip, timeout: 180_000 }, async () => {
  const customerContext = await browser.createBrowserContext();
  const customerPage = await newPage(customerContext);
  const customer = await invitedOwner(customerPage);
  await signIn(customerPage, customer.email);

  const member = await createStaff(t, 'owner');
  const started = await call(t.app, 'POST', `/admin/v1/accounts/${customer.accountId}/impersonation`, { key: member.token, body: { reason: REASON } });
  assert.equal(started.statusCode, 201, started.body);
  const { url, read_only: readOnly } = json(started).data as { url: string; read_only: boolean };
  assert.equal(readOnly, false);
  assert.ok(url.startsWith(`${origin}/panel/impersonation/`), url);

  // The staff member's own browser: the link lands on the panel, signed in as the customer.
  const staffContext = await browser.createBrowserContext();
  const page = await newPage(staffContext);
  await page.goto(url);
  await heading(page, 'Welcome');
  const banner = async () => evidence(page, 'the banner', async () => {
    await page.waitForSelector('.impersonation');
    return page.evaluate(() => document.querySelector('.impersonation')?.textContent ?? '');
  });
  const text = await banner();
  assert.match(text, /Staff \d+ \(staff\) is signed in as this customer\./);
  assert.ok(text.includes(`Reason: ${REASON}`), text);
  await shot(page, 'impersonation-banner-desktop');
  // On every page.
  await page.goto(`${origin}/panel/dns`);
  await heading(page, 'DNS');
  assert.ok((await banner()).includes(REASON));

  // The customer's own Security page lists it, as done by staff.
  await customerPage.goto(`${origin}/panel/security`);
  await heading(customerPage, 'Security');
  await evidence(customerPage, 'the staff session listed', () => customerPage.waitForFunction(
    (r) => document.body.innerText.includes(`by staff Staff`) && document.body.innerText.includes(r), {}, REASON));
  await shot(customerPage, 'impersonation-customer-sessions');

  const audit = async (action: string) => json(await adminCall(t, 'GET', `/admin/v1/audit-log?action=${action}&target_id=${customer.accountId}`)).data as
    { actor: { id: string }; changes: Record<string, unknown> }[];
  const [start] = await audit('startImpersonation');
  assert.equal(start!.actor.id, member.id);
  assert.equal(start!.changes.reason, REASON);

  await press(page, 'End');
  await heading(page, 'Sign in');
  const [end] = await audit('endImpersonation');
  assert.equal(end!.actor.id, member.id);
  assert.equal(end!.changes.reason, REASON);
  // Gone from the customer's list.
  await customerPage.reload();
  await heading(customerPage, 'Security');
  await evidence(customerPage, 'the staff session gone', () => customerPage.waitForFunction(() => !document.body.innerText.includes('by staff')));

  await staffContext.close();
  await customerContext.close();
});

test('from the console: an owner presses "Sign in as the customer" on the account page, types a reason, and the panel opens in a new tab with the banner', { skip, timeout: 240_000 }, async () => {
  const customerContext = await browser.createBrowserContext();
  const customerPage = await newPage(customerContext);
  const customer = await invitedOwner(customerPage);
  await signIn(customerPage, customer.email);

  const staffContext = await browser.createBrowserContext();
  const page = await newPage(staffContext);
  const member = await invitedMember(page, 'owner', 'Olive Owner');
  await page.goto(`${origin}/admin/accounts/${customer.accountId}`);
  await evidence(page, 'the account page', () => page.waitForSelector('dl.facts'));
  await press(page, 'Sign in as the customer');
  await page.waitForSelector('dialog[open]');
  // Too short: said in the dialog, nothing started.
  await fill(page, 'Reason', 'no');
  await press(page, 'Open the customer panel');
  await evidence(page, 'the reason refused', () => page.waitForFunction(() => document.querySelector('dialog[open] .form-error')?.textContent?.includes('3 to 500 characters')));
  await fill(page, 'Reason', REASON);
  await consoleShot(page, 'impersonation-dialog');
  const opened = browser.waitForTarget((target) => target.url().startsWith(`${origin}/panel`) && target.browserContext() === staffContext);
  await press(page, 'Open the customer panel');
  const tab = await (await opened).page() as Page;
  const errors: string[] = [];
  tab.on('pageerror', (e) => errors.push(String(e)));
  tab.on('request', (r) => { if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) errors.push(`offsite: ${r.url()}`); });
  await heading(tab, 'Welcome');
  const text = await evidence(tab, 'the banner', async () => {
    await tab.waitForSelector('.impersonation');
    return tab.evaluate(() => document.querySelector('.impersonation')?.textContent ?? '');
  });
  assert.ok(text.startsWith('Olive Owner (staff) is signed in as this customer.'), text);
  assert.ok(text.includes(REASON), text);
  await shot(tab, 'impersonation-from-console');

  await customerPage.goto(`${origin}/panel/security`);
  await heading(customerPage, 'Security');
  await evidence(customerPage, 'the staff session listed', () => customerPage.waitForFunction(
    (r) => document.body.innerText.includes(`by staff Olive Owner: ${r}`), {}, REASON));

  const audit = async (action: string) => json(await adminCall(t, 'GET', `/admin/v1/audit-log?action=${action}&target_id=${customer.accountId}`)).data as
    { actor: { id: string }; changes: Record<string, unknown> }[];
  assert.equal((await audit('startImpersonation'))[0]?.actor.id, member.id);
  await control(tab, 'End', 'button').click();
  await heading(tab, 'Sign in');
  const [end] = await audit('endImpersonation');
  assert.equal(end?.actor.id, member.id);
  assert.equal(end?.changes.reason, REASON);
  assert.deepEqual(errors, []);
  await staffContext.close();
  await customerContext.close();
});
