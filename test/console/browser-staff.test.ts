// The console's staff and audit pages in Chromium: an owner invites a member (the set-password link
// is shown once), disables it behind a confirmation dialog that holds the keyboard's focus, and
// finds both writes in the audit log filtered by the member's id (a link to share). Skipped,
// saying why, without Chromium.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adminCall, json } from '../helpers/app.ts';
import { browser, control, evidence, fill, heading, newPage, origin, press, skip, t, useBrowser } from '../helpers/panel-browser.ts';
import { consoleShot, invitedMember, navLabels } from '../helpers/console-browser.ts';

// What the functions run in the page use (this project is type-checked without the DOM's types).
interface El { textContent: string | null; value: string; closest(s: string): El | null }
declare const document: { activeElement: El | null; querySelector(s: string): El | null; querySelectorAll(s: string): ArrayLike<El> & Iterable<El> };

useBrowser();

test('owner: invite a member (link shown once), disable it behind a dialog, find both in the audit log', { skip, timeout: 180_000 }, async () => {
  const context = await browser.createBrowserContext();
  const page = await newPage(context);
  await invitedMember(page, 'owner', 'Olga Owner');
  const nav = await navLabels(page);
  assert.ok(nav.includes('Staff') && nav.includes('Audit log'), nav.join());

  await page.goto(`${origin}/admin/staff`);
  await heading(page, 'Staff');
  const email = `new-${Date.now()}@staff.test`;
  await fill(page, 'Email', email);
  await fill(page, 'Name', 'Nina New');
  await press(page, 'Invite');
  const link = await control(page, 'Set-password link').map((el) => (el as unknown as El).value).wait();
  assert.match(link, /\/admin\/set-password\/[^/]+$/);
  await page.waitForSelector(`table a[href^="/admin/staff/stf_"]`);
  const member = json(await adminCall(t, 'GET', '/admin/v1/staff?per_page=100')).data.find((m: { email: string }) => m.email === email);
  assert.ok(member);
  await consoleShot(page, 'staff-desktop');

  await page.goto(`${origin}/admin/staff/${member.id}`);
  await heading(page, 'Nina New');
  await press(page, 'Disable');
  await page.waitForSelector('dialog[open]');
  // The modal dialog holds the focus (Tab stays inside; Escape would close it).
  assert.ok(await page.evaluate(() => Boolean(document.activeElement?.closest('dialog[open]'))), 'focus is in the dialog');
  await evidence(page, 'confirm disable', () => page.locator('dialog[open] button.danger').click());
  await evidence(page, 'dialog closes', () => page.waitForFunction(() => !document.querySelector('dialog[open]')));
  assert.equal(json(await adminCall(t, 'GET', `/admin/v1/staff/${member.id}`)).data.status, 'disabled');

  // The audit log, filtered by the member's id through the address.
  await page.goto(`${origin}/admin/audit-log?target_id=${member.id}`);
  await heading(page, 'Audit log');
  await evidence(page, 'audit rows', () => page.waitForFunction(() => document.querySelectorAll('table tbody tr').length >= 1));
  const actions = await page.$$eval('table tbody tr td:nth-child(3)', (els) => els.map((e) => (e as unknown as El).textContent ?? ''));
  assert.ok(actions.some((a) => /updateStaffMember|PATCH/.test(a)), actions.join());
  assert.equal(await control(page, 'Target ID').map((el) => (el as unknown as El).value).wait(), member.id);
  await consoleShot(page, 'audit-log-desktop');
  await context.close();
});
