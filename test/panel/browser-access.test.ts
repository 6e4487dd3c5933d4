// The customer panel in a real browser (test/helpers/panel-browser.ts): an owner's way in —
// invitation, password, two-factor, an API key that works and then does not — and a sub-user who
// sees only what its permissions allow. Skipped, saying why, without Chromium.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { totpCode } from '../../src/core/panel/totp.ts';
import { activeServer } from '../helpers/servers.ts';
import { acceptInvitation, browser, control, evidence, fill, heading, invitedOwner, newPage, origin, press, shot, signIn, skip, t, useBrowser } from '../helpers/panel-browser.ts';


// What the functions run in the page use (this project is type-checked without the DOM's types).
interface El { textContent: string | null; value: string }
declare const document: {
  activeElement: (El & { tagName: string; getAttribute(n: string): string | null }) | null;
  querySelector(s: string): El | null;
  querySelectorAll(s: string): ArrayLike<El> & Iterable<El>;
  documentElement: { scrollWidth: number };
  body: { innerText: string };
};
type HTMLInputElement = El;

useBrowser();

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

test('a sub-user invited with servers:read sees servers and no billing', { skip, timeout: 180_000 }, async () => {
  const context = await browser.createBrowserContext();
  const page = await newPage(context);
  const owner = await invitedOwner(page);
  const server = await activeServer(t, owner);
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
  await evidence(subPage, 'the server listed', () => subPage.waitForFunction((name) => document.querySelector('table')?.textContent?.includes(name), {}, server.name));
  assert.equal(await control(subPage, 'Create server', 'link').setTimeout(500).wait().then(() => true, () => false), false, 'no create for servers:read');
  await subPage.goto(`${origin}/panel/billing`);
  await heading(subPage, 'Not available');
  await subPage.goto(`${origin}/panel/billing/statement`);
  await heading(subPage, 'Not available');
  // And the API agrees: its session cannot read the balance.
  const cookies = await sub.cookies();
  const session = cookies.find((c) => c.name === 'hc_session')!;
  const res = await fetch(`${origin}/v2/billing/balance`, { headers: { cookie: `hc_session=${session.value}` } });
  assert.equal(res.status, 403);
  await sub.close();
});
