// The customer panel in a real browser (test/helpers/panel-browser.ts): a server created, stopped,
// snapshotted and deleted (its refund shown first), the profile, the main pages at desktop and
// phone width, and the other services. Skipped, saying why, without Chromium.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openSshKey } from '../helpers/ssh-keys.ts';
import { BIG_POOL, setPool } from '../helpers/vdc.ts';
import { browser, evidence, fill, heading, invitedOwner, newPage, origin, press, shot, signIn, skip, t, useBrowser } from '../helpers/panel-browser.ts';


// What the functions run in the page use (this project is type-checked without the DOM's types).
interface El { textContent: string | null; value: string }
declare const document: {
  activeElement: (El & { tagName: string; getAttribute(n: string): string | null }) | null;
  querySelector(s: string): El | null;
  querySelectorAll(s: string): ArrayLike<El> & Iterable<El>;
  documentElement: { scrollWidth: number };
  body: { innerText: string };
};

useBrowser();

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
  await press(page, 'Confirm and pay');
  await heading(page, domain);
  await shot(page, 'domain-desktop');
  assert.deepEqual((await api('/domains') as { domain: string }[]).map((d) => d.domain), [domain]);

  await page.goto(`${origin}/panel/web-hosting`);
  await heading(page, 'Web hosting');
  await fill(page, 'Domain', `site-${domain}`);
  await press(page, 'Order hosting');
  await press(page, 'Confirm and pay');
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
