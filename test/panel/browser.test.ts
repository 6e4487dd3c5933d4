// The customer panel in a real browser: Debian's Chromium driven by puppeteer-core, every control
// found by its accessible name (as DESIGN's labels promise clients), against the real app with its
// worker, talking only to 127.0.0.1. Screenshots of the main pages at desktop and phone width go
// to test-output/panel/ (kept by CI as artifacts). Skipped, saying why, without Chromium.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import { totpCode } from '../../src/core/panel/totp.ts';
import { type Customer, type TestApp, adminCall, createCustomer, json, startApp } from '../helpers/app.ts';
import { openSshKey } from '../helpers/ssh-keys.ts';
import { BIG_POOL, setPool } from '../helpers/vdc.ts';

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
type HTMLInputElement = El;

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const found = existsSync(CHROMIUM);
const skip = found ? false : `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
const SHOTS = path.resolve('test-output/panel');
const PASSWORD = 'a long and lovely passphrase';
const DESKTOP = { width: 1280, height: 860 };
const PHONE = { width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

let t: TestApp;
let origin: string;
let browser: Browser;
const pageErrors: string[] = [];
const offsite: string[] = [];

before(async () => {
  if (!found) return;
  t = await startApp({ worker: 'embedded' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
  });
  await fs.mkdir(SHOTS, { recursive: true });
}, { timeout: 60_000 });

after(async () => {
  await browser?.close();
  assert.deepEqual(pageErrors, [], 'no script errors on any page');
  assert.deepEqual(offsite, [], 'no request left 127.0.0.1');
});

async function newPage(context: BrowserContext, viewport = DESKTOP): Promise<Page> {
  const page = await context.newPage();
  await page.setViewport(viewport);
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('request', (r) => { if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) offsite.push(r.url()); });
  page.setDefaultTimeout(20_000);
  return page;
}

/** The control with this accessible name (and role). */
function control(page: Page, name: string, role = 'textbox') {
  return page.locator(`::-p-aria([name="${name}"][role="${role}"])`);
}

/** On a failure, what the page showed: a screenshot and its text, in test-output/panel/. */
async function evidence<T>(page: Page, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    const name = `failed-${what.replace(/\W+/g, '-').slice(0, 40)}`;
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`) }).catch(() => {});
    const text = await page.evaluate(() => document.body.innerText).catch(() => '(no text)');
    throw new Error(`${what}: ${e instanceof Error ? e.message : String(e)}\n--- page ${page.url()} ---\n${text.slice(0, 1500)}`);
  }
}

async function fill(page: Page, label: string, value: string, role = 'textbox'): Promise<void> {
  const h = await evidence(page, `find "${label}"`, () => control(page, label, role).waitHandle());
  await h.click({ count: 3 });
  await h.evaluate((el) => { (el as HTMLInputElement).value = ''; });
  await h.type(value);
}

async function press(page: Page, name: string): Promise<void> {
  await evidence(page, `press "${name}"`, () => control(page, name, 'button').click());
}

async function heading(page: Page, text: string): Promise<void> {
  await evidence(page, `heading "${text}"`, () => page.waitForFunction((t) => document.querySelector('h1')?.textContent?.includes(t), {}, text));
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** A panel link of a mail, on this test's origin (links carry PUBLIC_URL). */
const local = (url: string) => url.replace(t.config.publicUrl, origin);

async function signIn(page: Page, email: string, code?: () => string): Promise<void> {
  await page.goto(`${origin}/panel/sign-in`);
  await fill(page, 'Email', email);
  await fill(page, 'Password', PASSWORD);
  await press(page, 'Sign in');
  if (code) {
    await heading(page, 'Two-factor code');
    await fill(page, 'Code', code());
    await press(page, 'Sign in');
  }
  await page.waitForSelector('nav[aria-label="Main"]');
}

async function acceptInvitation(page: Page, url: string): Promise<void> {
  await page.goto(local(url));
  await fill(page, 'New password', PASSWORD);
  await fill(page, 'Confirm password', PASSWORD);
  await press(page, 'Set password');
  await heading(page, 'Password set');
  await control(page, 'Sign in', 'link').click();
  await heading(page, 'Sign in');
}

/** An account whose owner was invited by the operator and accepted in this browser context. */
async function invitedOwner(page: Page): Promise<Customer & { email: string }> {
  const c = await createCustomer(t, { deposit: '200.00' });
  const email = json(await adminCall(t, 'GET', `/admin/v1/accounts/${c.accountId}`)).data.email as string;
  const inv = json(await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/panel-invitation`)).data;
  await acceptInvitation(page, inv.url);
  return { ...c, email };
}

/** The account of the server test, whose owner then invites a sub-user. */
let owner: Customer & { email: string };

test('owner: invitation → password → sign in → two-factor → sign out → sign in with a code → API key that works → revoked → 401', { skip, timeout: 180_000 }, async () => {
  const context = await browser.createBrowserContext();
  const page = await newPage(context);
  const { email } = await invitedOwner(page);
  await shot(page, 'sign-in-desktop');
  await signIn(page, email);
  await heading(page, 'Welcome');

  // Two-factor: the key shown beside the QR code is what an authenticator app would read.
  await page.goto(`${origin}/panel/security`);
  await heading(page, 'Security');
  await press(page, 'Set up two-factor');
  await page.waitForSelector('img.qr');
  const totpSecret = await control(page, 'Key').map((el) => (el as HTMLInputElement).value).wait();
  await fill(page, 'Code', totpCode(totpSecret, new Date()));
  await press(page, 'Turn on two-factor');
  await page.waitForSelector('ul[aria-label="Recovery codes"] li');
  assert.equal((await page.$$('ul[aria-label="Recovery codes"] li')).length, 10);
  await shot(page, 'security-desktop');

  await press(page, 'Sign out');
  await heading(page, 'Sign in');
  // The enrolment spent this time step's code: the app's next one signs in.
  await signIn(page, email, () => totpCode(totpSecret, new Date(Date.now() + 30_000)));

  // An API key, its secret shown once in the element labelled Secret.
  await page.goto(`${origin}/panel/api-keys`);
  await heading(page, 'API keys');
  await fill(page, 'Name', 'deploy');
  await fill(page, 'Allowed IPs', '127.0.0.1\n::1');
  await press(page, 'Create API key');
  const secret = await control(page, 'Secret').map((el) => (el as HTMLInputElement).value).wait();
  assert.match(secret, /^hc_live_/);
  await shot(page, 'api-keys-desktop');

  const balance = await fetch(`${origin}/v2/billing/balance`, { headers: { authorization: `Bearer ${secret}` } });
  assert.equal(balance.status, 200);
  assert.equal((await balance.json() as { data: { balance: { amount: string } } }).data.balance.amount, '200.00');

  await press(page, 'Revoke deploy');
  await press(page, 'Confirm revoke');
  await page.waitForFunction(() => [...document.querySelectorAll('td .badge')].some((b) => b.textContent === 'revoked'));
  const after = await fetch(`${origin}/v2/billing/balance`, { headers: { authorization: `Bearer ${secret}` } });
  assert.equal(after.status, 401);
  await context.close();
});

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
  await page.waitForFunction(() => document.activeElement?.tagName === 'H1');
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'A:Balance200.00 USD', 'the next stop is the first card');
  await page.goto(`${origin}/panel/servers`);
  await heading(page, 'Servers');
  await control(page, 'Create server', 'link').click();
  await heading(page, 'Create server');
  await fill(page, 'Name', 'web-1.example.com');
  await fill(page, 'Root password', 'Str0ng!Passw0rd');
  await shot(page, 'server-create-desktop');
  await press(page, 'Create server');
  await heading(page, 'web-1.example.com');
  // The creation's progress shows without a reload; the server becomes active and running.
  await page.waitForFunction(() => document.querySelector('[aria-label="Power state"]')?.textContent === 'running', { timeout: 60_000 });
  await press(page, 'Stop');
  await page.waitForFunction(() => document.querySelector('[aria-label="Power state"]')?.textContent === 'stopped', { timeout: 60_000 });
  await shot(page, 'server-desktop');

  const list = (await (await fetch(`${origin}/v2/servers`, { headers: { authorization: `Bearer ${owner.key}` } })).json() as { data: { id: string; name: string }[] }).data;
  assert.deepEqual(list.map((s) => s.name), ['web-1.example.com']);
  const server = await (await fetch(`${origin}/v2/servers/${list[0]!.id}`, { headers: { authorization: `Bearer ${owner.key}` } })).json() as { data: { status: string; power_state: string } };
  assert.deepEqual([server.data.status, server.data.power_state], ['active', 'stopped']);

  // The main pages at desktop and phone width.
  for (const [name, url] of [['overview', '/panel'], ['servers', '/panel/servers'], ['billing', '/panel/billing'], ['api-keys', '/panel/api-keys'], ['sub-users', '/panel/sub-users'], ['tickets', '/panel/tickets'], ['security', '/panel/security']] as const) {
    await page.goto(`${origin}${url}`);
    await page.waitForSelector('#page-title');
    await page.waitForFunction(() => !document.querySelector('[role="status"].muted'));
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

test('a sub-user invited with servers:read sees servers and no billing', { skip, timeout: 180_000 }, async () => {
  assert.ok(owner, 'the server test ran first (its account has the server)');
  const context = await browser.createBrowserContext();
  const page = await newPage(context);
  await signIn(page, owner.email);
  await page.goto(`${origin}/panel/sub-users`);
  await heading(page, 'Sub-users');
  await fill(page, 'Email', 'ops@example.com');
  await fill(page, 'First name', 'Olly');
  await fill(page, 'Last name', 'Ops');
  await control(page, 'Servers read', 'checkbox').click();
  await press(page, 'Invite sub-user');
  const url = await control(page, 'Invitation link').map((el) => (el as HTMLInputElement).value).wait();
  await shot(page, 'sub-users-desktop');
  await context.close();

  const sub = await browser.createBrowserContext();
  const subPage = await newPage(sub);
  await acceptInvitation(subPage, url);
  await signIn(subPage, 'ops@example.com');
  const nav = await subPage.$$eval('nav[aria-label="Main"] a', (as) => as.map((a) => a.textContent));
  assert.ok(nav.includes('Servers'), `nav: ${nav.join(', ')}`);
  assert.ok(!nav.includes('Billing'), `nav: ${nav.join(', ')}`);
  await subPage.goto(`${origin}/panel/servers`);
  await subPage.waitForFunction(() => document.querySelector('table')?.textContent?.includes('web-1.example.com'));
  assert.equal(await control(subPage, 'Create server', 'link').setTimeout(500).wait().then(() => true, () => false), false, 'no create for servers:read');
  await subPage.goto(`${origin}/panel/billing`);
  await heading(subPage, 'Not available');
  // And the API agrees: its session cannot read the balance.
  const cookies = await sub.cookies();
  const session = cookies.find((c) => c.name === 'hc_session')!;
  const res = await fetch(`${origin}/v2/billing/balance`, { headers: { cookie: `hc_session=${session.value}` } });
  assert.equal(res.status, 403);
  await sub.close();
});

test('services from the panel: an SSH key, a ticket and its reply, a domain, web hosting and a VDC VM', { skip, timeout: 180_000 }, async () => {
  const context = await browser.createBrowserContext();
  const page = await newPage(context);
  const me = await invitedOwner(page);
  await setPool(t, me.accountId, BIG_POOL);
  await signIn(page, me.email);
  const api = async (url: string) => (await (await fetch(`${origin}/v2${url}`, { headers: { authorization: `Bearer ${me.key}` } })).json() as { data: unknown }).data;

  await page.goto(`${origin}/panel/ssh-keys`);
  await heading(page, 'SSH keys');
  await fill(page, 'Name', 'laptop');
  await fill(page, 'Public key', openSshKey('ed25519'));
  await press(page, 'Add SSH key');
  await evidence(page, 'wait 1', () => page.waitForFunction(() => document.querySelector('table')?.textContent?.includes('laptop')));
  await shot(page, 'ssh-keys-desktop');

  await page.goto(`${origin}/panel/tickets`);
  await heading(page, 'Tickets');
  await press(page, 'Open a ticket');
  await fill(page, 'Subject', 'Cannot reach my server');
  await fill(page, 'Message', 'Port 22 times out since this morning.');
  await press(page, 'Open ticket');
  await heading(page, 'Cannot reach my server');
  await fill(page, 'Reply', 'It works again after the reboot, thank you very much.');
  await press(page, 'Send reply');
  await evidence(page, 'wait 2', () => page.waitForFunction(() => document.querySelectorAll('ol[aria-label="Messages"] li').length === 2));
  await press(page, 'Close ticket');
  await evidence(page, 'wait 3', () => page.waitForFunction(() => document.querySelector('.badge')?.textContent === 'closed'));
  await shot(page, 'ticket-desktop');
  assert.deepEqual((await api('/tickets') as { status: string }[]).map((x) => x.status), ['closed']);

  const domain = `panel-${Date.now().toString(36)}.com`;
  await page.goto(`${origin}/panel/domains`);
  await heading(page, 'Domains');
  await fill(page, 'Domain name', domain);
  await press(page, 'Check');
  await press(page, `Register ${domain}`);
  await heading(page, domain);
  await shot(page, 'domain-desktop');
  assert.deepEqual((await api('/domains') as { domain: string }[]).map((d) => d.domain), [domain]);

  await page.goto(`${origin}/panel/web-hosting`);
  await heading(page, 'Web hosting');
  await fill(page, 'Domain', `site-${domain}`);
  await press(page, 'Order hosting');
  await evidence(page, 'wait 4', () => page.waitForFunction((d) => document.querySelector('table')?.textContent?.includes(d), {}, `site-${domain}`));
  await shot(page, 'web-hosting-desktop');

  await page.goto(`${origin}/panel/vdc`);
  await heading(page, 'VDC');
  await fill(page, 'Name', 'vm-1.example.com');
  await fill(page, 'Root password', 'Str0ng!Passw0rd');
  await press(page, 'Create VM');
  // The VM's creation is followed live; the list shows it active when it completes.
  await evidence(page, 'wait 5', () => page.waitForFunction(() => [...document.querySelectorAll('table')].some((tb) => tb.textContent?.includes('vm-1.example.com') && tb.textContent.includes('active')), { timeout: 60_000 }));
  await shot(page, 'vdc-desktop');
  await context.close();
});
