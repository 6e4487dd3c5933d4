// The customer panel in a real browser (test/helpers/panel-browser.ts): a server created, stopped,
// snapshotted and deleted (its refund shown first), the profile, a keyboard-only sign-in and the
// main pages at desktop and phone width. Skipped, saying why, without Chromium.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Customer } from '../helpers/app.ts';
import { PASSWORD, PHONE, browser, control, evidence, fill, heading, invitedOwner, newPage, origin, press, shot, signIn, skip, useBrowser } from '../helpers/panel-browser.ts';


// What the functions run in the page use (this project is type-checked without the DOM's types).
interface El { textContent: string | null; value: string }
declare const document: {
  activeElement: (El & { tagName: string; getAttribute(n: string): string | null }) | null;
  querySelector(s: string): El | null;
  querySelectorAll(s: string): ArrayLike<El> & Iterable<El>;
  documentElement: { scrollWidth: number };
  body: { innerText: string };
};
declare const window: { innerWidth: number };

useBrowser();

/** The account of the server test, whose owner then invites a sub-user. */
let owner: Customer & { email: string };

test('a server created and stopped from the panel', { skip, timeout: 180_000 }, async () => {
  const context = await browser.createBrowserContext();
  const page = await newPage(context);
  owner = await invitedOwner(page);
  // Signed in with the keyboard alone: Tab to each field, Enter to submit.
  await page.goto(`${origin}/panel/sign-in`);
  await heading(page, 'Sign in');
  const focused = () => page.evaluate(() => { const el = document.activeElement; return el ? `${el.tagName}:${el.getAttribute('name') ?? el.textContent}` : ''; });
  for (let i = 0; i < 10 && (await focused()) !== 'INPUT:email'; i++) await page.keyboard.press('Tab');
  assert.equal(await focused(), 'INPUT:email');
  await page.keyboard.type(owner.email);
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'INPUT:password');
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForSelector('nav[aria-label="Main"]');
  // Each page puts the focus on its heading, so the keyboard starts at the content, not the menu.
  await evidence(page, 'wait: document.activeElement?.tagName === H1', () => page.waitForFunction(() => document.activeElement?.tagName === 'H1'));
  // The cards load after the heading takes the focus: wait for the balance (and, the account being
  // new, its first steps) before reading them.
  await evidence(page, 'balance loaded', () => page.waitForFunction(() => [...document.querySelectorAll('main a')].some((a) => a.textContent?.includes('USD'))));
  await evidence(page, 'first steps', () => page.waitForFunction(() => document.querySelector('#first-steps') !== null));
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'A:Top up your balanceServers and domains are paid from it.', 'the next stop is the first card: a new account\'s first step');
  await page.goto(`${origin}/panel/servers`);
  await heading(page, 'Servers');
  await control(page, 'Create server', 'link').click();
  await heading(page, 'Create server');
  await fill(page, 'Name', 'web-1.example.com');
  await fill(page, 'Root password', 'Str0ng!Passw0rd');
  await shot(page, 'server-create-desktop');
  await press(page, 'Create server');
  await press(page, 'Confirm and pay');
  await heading(page, 'web-1.example.com');
  // The creation's progress shows without a reload; the server becomes active and running.
  await evidence(page, 'running', () => page.waitForFunction(() => document.querySelector('[aria-label="Power state"]')?.textContent === 'running', { timeout: 90_000 }));
  await press(page, 'Stop');
  await evidence(page, 'stopped', () => page.waitForFunction(() => document.querySelector('[aria-label="Power state"]')?.textContent === 'stopped', { timeout: 90_000 }));
  await shot(page, 'server-desktop');

  const list = (await (await fetch(`${origin}/v2/servers`, { headers: { authorization: `Bearer ${owner.key}` } })).json() as { data: { id: string; name: string }[] }).data;
  assert.deepEqual(list.map((s) => s.name), ['web-1.example.com']);
  const server = await (await fetch(`${origin}/v2/servers/${list[0]!.id}`, { headers: { authorization: `Bearer ${owner.key}` } })).json() as { data: { status: string; power_state: string } };
  assert.deepEqual([server.data.status, server.data.power_state], ['active', 'stopped']);

  // A snapshot, followed to the end; the profile saved.
  await fill(page, 'Snapshot name', 'before-upgrade');
  await press(page, 'Take snapshot');
  await press(page, 'Confirm and pay');
  await evidence(page, 'snapshot available', () => page.waitForFunction(() => [...document.querySelectorAll('table')].some((tb) => tb.textContent?.includes('before-upgrade') && tb.textContent.includes('available')), { timeout: 90_000 }));
  await page.goto(`${origin}/panel/profile`);
  await heading(page, 'Profile');
  await fill(page, 'Company', 'Example Ltd');
  await fill(page, 'Country', 'XX1');
  await press(page, 'Save profile');
  await evidence(page, 'wait: document.querySelector([aria-invalid="t', () => page.waitForFunction(() => document.querySelector('[aria-invalid="true"]') !== null));
  assert.match(await page.evaluate(() => document.body.innerText), /must be a two-letter country code like NL/, 'the error sits by its field');
  await fill(page, 'Country', 'NL');
  await press(page, 'Save profile');
  await evidence(page, 'wait: document.body.innerText.includes(Saved.', () => page.waitForFunction(() => document.body.innerText.includes('Saved.')));
  await shot(page, 'profile-desktop');

  // The main pages at desktop and phone width.
  for (const [name, url] of [['overview', '/panel'], ['servers', '/panel/servers'], ['billing', '/panel/billing'], ['api-keys', '/panel/api-keys'], ['sub-users', '/panel/sub-users'], ['tickets', '/panel/tickets'], ['security', '/panel/security']] as const) {
    await page.goto(`${origin}${url}`);
    await page.waitForSelector('#page-title');
    await evidence(page, 'wait: !document.querySelector([role="status"]', () => page.waitForFunction(() => !document.querySelector('[role="status"].muted')));
    await shot(page, `${name}-desktop`);
  }
  const phone = await newPage(context, PHONE);
  for (const [name, url] of [['overview', '/panel'], ['servers', '/panel/servers'], ['api-keys', '/panel/api-keys'], ['billing', '/panel/billing']] as const) {
    await phone.goto(`${origin}${url}`);
    await phone.waitForSelector('#page-title');
    await phone.waitForFunction(() => !document.querySelector('[role="status"].muted'));
    await shot(phone, `${name}-phone`);
    // Nothing wider than the phone: tables scroll inside their own box.
    assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), `${name} fits a phone`);
  }
  await press(phone, 'Menu');
  await shot(phone, 'menu-phone');
  await context.close();
});

test('deleting a server shows its refund first, then refunds it', { skip, timeout: 120_000 }, async () => {
  assert.ok(owner, 'the server test ran first (its account has the server)');
  const context = await browser.createBrowserContext();
  const page = await newPage(context);
  await signIn(page, owner.email);
  await page.goto(`${origin}/panel/servers`);
  await control(page, 'web-1.example.com', 'link').click();
  await heading(page, 'web-1.example.com');
  await press(page, 'Delete server');
  const confirm = await evidence(page, 'refund shown', () => page.waitForSelector('[aria-label="Confirm delete"]'));
  const text = await confirm!.evaluate((el) => (el as unknown as { textContent: string }).textContent);
  const refund = /You get ([0-9.]+) USD back/.exec(text)?.[1];
  assert.ok(refund, text);
  await shot(page, 'server-delete-desktop');
  await press(page, 'Confirm delete');
  await heading(page, 'Servers');
  const tx = (await (await fetch(`${origin}/v2/billing/transactions`, { headers: { authorization: `Bearer ${owner.key}` } })).json() as { data: { type: string; amount: { amount: string } }[] }).data;
  assert.equal(tx[0]!.type, 'refund');
  assert.equal(tx[0]!.amount.amount, refund, 'the refund shown is the refund made');
  await context.close();
});
