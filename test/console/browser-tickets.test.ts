// Tickets in the console, in Chromium: a support member finds a customer's ticket in the queue
// (department + status + nobody's, from the address), assigns it to itself, writes an internal
// note and a reply picked from a canned reply; the customer, signed in to the panel, reads the
// reply and not the note. Bulk close behind a confirmation; a billing member reads tickets but
// sees no way to write. Screenshots at desktop and phone width under test-output/.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'puppeteer-core';
import { consoleShot, invitedMember } from '../helpers/console-browser.ts';
import { PHONE, browser, evidence, fill, heading, invitedOwner, newPage, origin, press, shot, signIn, skip, t, useBrowser } from '../helpers/panel-browser.ts';
import { adminCall, call, json } from '../helpers/app.ts';

useBrowser();

// What the functions run in the page use (this project is type-checked without the DOM's types).
interface El { textContent: string | null; className: string; value: string }
declare const document: { querySelector(s: string): El | null; querySelectorAll(s: string): El[]; body: { innerText: string } };

const NOTE = 'Internal: checked the hypervisor log, disk controller reset at 08:02';
const CANNED = 'We found the cause and fixed it; please check again and tell us if anything is still wrong.';

async function text(page: Page, what: string, wanted: string): Promise<void> {
  await evidence(page, what, () => page.waitForFunction((w) => document.body.innerText.includes(w), {}, wanted));
}

async function confirmDialog(page: Page, what: string): Promise<void> {
  await evidence(page, what, async () => {
    await page.waitForSelector('dialog[open] button.btn:not(.plain)');
    await page.click('dialog[open] button.btn:not(.plain)');
    await page.waitForFunction(() => document.querySelector('dialog[open]') === null);
  });
}

async function openTicket(key: string, subject: string, department = 1): Promise<string> {
  const res = await call(t.app, 'POST', '/v2/tickets', { key, body: { subject, message: 'My server does not answer since this morning, please have a look.', department_id: department } });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data.id as string;
}

test('support answers from the console with a note and a reply; the customer sees the reply, not the note', { skip, timeout: 240_000 }, async () => {
  // The customer, signed in to the panel in a context of its own.
  const customerContext = await browser.createBrowserContext();
  const customerPage = await newPage(customerContext);
  const customer = await invitedOwner(customerPage);
  const id = await openTicket(customer.key, 'Server web-1 unreachable');
  const other = await openTicket(customer.key, 'Old question about backups');
  const third = await openTicket(customer.key, 'Another old question');
  assert.equal((await adminCall(t, 'POST', '/admin/v1/canned-replies', { title: 'Fixed, please check', body: CANNED, department_id: 1 })).statusCode, 201);
  assert.equal((await adminCall(t, 'POST', '/admin/v1/canned-replies', { title: 'Sales only', body: 'Not for tech tickets.', department_id: 3 })).statusCode, 201);

  const staffContext = await browser.createBrowserContext();
  const page = await newPage(staffContext);
  const support = await invitedMember(page, 'support', 'Sam Support');

  // The queue: technical support, open, nobody's — straight from the address.
  await page.goto(`${origin}/admin/tickets?department_id=1&status=open&assignee=none`);
  await heading(page, 'Tickets');
  await text(page, 'the ticket queued', 'Server web-1 unreachable');
  assert.equal(await page.$eval('select[name="assignee"]', (el) => (el as unknown as El).value), 'none', 'the filter reads the address');
  await consoleShot(page, 'tickets-queue-desktop');
  // Search by subject, the address keeps it.
  await page.goto(`${origin}/admin/tickets?q=web-1`);
  await text(page, 'the search', `#${id}`);
  assert.ok(!(await page.evaluate(() => document.body.innerText)).includes('Old question about backups'));

  // The ticket.
  await evidence(page, 'open the ticket', () => page.locator(`::-p-aria([name="#${id}"][role="link"])`).click());
  await heading(page, `#${id} Server web-1 unreachable`);
  await evidence(page, 'assign to me', () => page.locator('::-p-aria([name="Assign to me"][role="button"])').click());
  await evidence(page, 'assigned', () => page.waitForFunction(() => (document.querySelector('select[name="assignee_id"]') as El | null)?.value !== ''));
  assert.equal(await page.$eval('select[name="assignee_id"]', (el) => (el as unknown as El).value), support.id);

  // The internal note.
  await evidence(page, 'type the note', async () => {
    await page.locator('::-p-aria([name="Note"][role="textbox"])').click();
    await page.keyboard.type(NOTE);
  });
  await evidence(page, 'add the note', () => page.locator('::-p-aria([name="Add internal note"][role="button"])').click());
  await text(page, 'the note in the thread', NOTE);

  // The reply, from the canned reply of the ticket's department (the sales one is not offered).
  const offered = await page.$$eval('select[name="canned"] option', (els) => els.map((e) => (e as unknown as El).textContent ?? ''));
  assert.ok(offered.includes('Fixed, please check') && !offered.includes('Sales only'), offered.join(', '));
  await page.select('select[name="canned"]', (await page.$$eval('select[name="canned"] option', (els) => els.map((e) => (e as unknown as El).value)))[1]!);
  await evidence(page, 'the canned text inserted', () => page.waitForFunction((w) => (document.querySelector('textarea[name="message"]') as El | null)?.value === w, {}, CANNED));
  await evidence(page, 'send the reply', () => page.locator('::-p-aria([name="Send reply"][role="button"])').click());
  await evidence(page, 'the reply in the thread', () => page.waitForFunction(() => document.querySelectorAll('ol.thread li').length === 3));
  const classes = await page.$$eval('ol.thread li', (els) => els.map((e) => (e as unknown as El).className));
  assert.deepEqual(classes, ['message customer', 'message staff note', 'message staff'], 'the note is set apart');
  await text(page, 'the note labelled', 'Internal note · not shown to the customer');
  await text(page, 'answered', 'answered');
  await consoleShot(page, 'ticket-desktop');

  // A canned reply saved from its page.
  await page.goto(`${origin}/admin/tickets/canned-replies`);
  await heading(page, 'Canned replies');
  await text(page, 'the saved ones', 'Fixed, please check');
  await fill(page, 'Title', 'Thanks for waiting');
  await fill(page, 'Text', 'Thank you for your patience while we looked into this.');
  await press(page, 'Save canned reply');
  await text(page, 'the new one listed', 'Thank you for your patience');
  await consoleShot(page, 'canned-replies-desktop');
  const saved = json(await adminCall(t, 'GET', '/admin/v1/canned-replies?per_page=100')).data.map((r: { title: string }) => r.title);
  assert.ok(saved.includes('Thanks for waiting'), saved.join(', '));

  // My tickets.
  await page.goto(`${origin}/admin/tickets?assignee=me`);
  await heading(page, 'Tickets');
  assert.equal(await page.$eval('nav[aria-label="Queues"] a[aria-current="page"]', (el) => (el as unknown as El).textContent), 'My tickets');
  await text(page, 'mine', 'Server web-1 unreachable');
  assert.ok(!(await page.evaluate(() => document.body.innerText)).includes('Old question about backups'));

  // Bulk close, confirmed.
  await page.goto(`${origin}/admin/tickets?q=old+question`);
  await text(page, 'the old ones', 'Another old question');
  for (const [tid, subject] of [[other, 'Old question about backups'], [third, 'Another old question']] as const) {
    await evidence(page, `select ${tid}`, () => page.locator(`::-p-aria([name="Select #${tid} ${subject}"][role="checkbox"])`).click());
  }
  await text(page, 'two chosen', '2 selected');
  await evidence(page, 'bulk close', () => page.locator('div[aria-label="Bulk actions"] ::-p-text(Close)').click());
  await text(page, 'the close dialog', 'Close: 2 selected');
  await consoleShot(page, 'tickets-bulk-close-desktop');
  await confirmDialog(page, 'confirm the close');
  await text(page, 'the close notice', 'Closed 2.');
  for (const tid of [other, third]) assert.equal(json(await adminCall(t, 'GET', `/admin/v1/tickets/${tid}`)).data.status, 'closed');

  // Phone width.
  const phone = await newPage(staffContext, PHONE);
  await phone.goto(`${origin}/admin/tickets?assignee=me`);
  await heading(phone, 'Tickets');
  await text(phone, 'mine on a phone', `#${id}`);
  await consoleShot(phone, 'tickets-queue-phone');
  await phone.goto(`${origin}/admin/tickets/${id}`);
  await heading(phone, `#${id}`);
  await text(phone, 'the thread on a phone', NOTE);
  await consoleShot(phone, 'ticket-phone');
  await staffContext.close();

  // The customer: the reply, not the note.
  await signIn(customerPage, customer.email);
  await customerPage.goto(`${origin}/panel/tickets/${id}`);
  await heading(customerPage, `#${id}`);
  await text(customerPage, 'the reply in the panel', CANNED);
  const seen = await customerPage.evaluate(() => document.body.innerText);
  assert.ok(!seen.includes(NOTE) && !seen.includes('hypervisor'), 'the note never reaches the panel');
  assert.ok(!seen.includes('Sam Support'), 'nor who is assigned');
  await shot(customerPage, 'ticket-customer-desktop');
  const customerPhone = await newPage(customerContext, PHONE);
  await customerPhone.goto(`${origin}/panel/tickets/${id}`);
  await text(customerPhone, 'the reply on a phone', CANNED);
  await shot(customerPhone, 'ticket-customer-phone');
  await customerContext.close();

  // A billing member reads the queue and a ticket, and has no way to write.
  const billingContext = await browser.createBrowserContext();
  const billingPage = await newPage(billingContext);
  await invitedMember(billingPage, 'billing', 'Bill Billing');
  await billingPage.goto(`${origin}/admin/tickets`);
  await heading(billingPage, 'Tickets');
  await text(billingPage, 'listed for billing', `#${id}`);
  assert.equal(await billingPage.$('div[aria-label="Bulk actions"]'), null, 'no bulk close');
  await billingPage.goto(`${origin}/admin/tickets/${id}`);
  await heading(billingPage, `#${id}`);
  await text(billingPage, 'the thread for billing', NOTE);
  for (const name of ['Send reply', 'Add internal note', 'Assign to me', 'Close ticket']) {
    assert.equal(await billingPage.$(`::-p-aria([name="${name}"][role="button"])`), null, name);
  }
  await billingContext.close();
});
