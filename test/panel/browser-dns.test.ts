// The panel's DNS pages in a real browser (test/helpers/panel-browser.ts): from a registered
// domain's page to its zone; a record refused with the error next to Content, then added and
// listed (and, where PowerDNS is installed, answered by dig at the PowerDNS this file starts),
// edited, and deleted after a confirmation; a zone added and deleted after a confirmation; the
// zone's page at a phone's width. Skipped, saying why, without Chromium.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import type { Config } from '../../src/config.ts';
import { activeDomain } from '../helpers/domains.ts';
import { PHONE, browser, control, evidence, fill, heading, invitedOwner, newPage, origin, press, shot, signIn, skip, t, useBrowser } from '../helpers/panel-browser.ts';
import { type PowerDns, powerDnsSkip, startPowerDns } from '../helpers/powerdns.ts';

// What the functions run in the page use (this project is type-checked without the DOM's types).
interface El { textContent: string | null; querySelector(s: string): El | null; querySelectorAll(s: string): ArrayLike<El> & Iterable<El> }
declare const document: El & { body: { innerText: string }; activeElement: El | null; documentElement: { scrollWidth: number } };
declare const window: { innerWidth: number };

// PowerDNS (when installed) is started first; the browser's hooks make the app with these settings.
const pdns: PowerDns | undefined = skip || powerDnsSkip ? undefined : await startPowerDns();
const overrides: Partial<Config> = pdns ? { dnsDriver: 'powerdns', powerdnsApiUrl: pdns.apiUrl, powerdnsApiKey: pdns.apiKey } : {};
useBrowser(overrides);
after(async () => {
  await t?.stopWorkers();
  await pdns?.close();
});

test('domain page → its zone; a record refused next to Content, added and listed (answered by dig with PowerDNS), edited, deleted after confirming; a zone added and deleted; a phone', { skip, timeout: 180_000 }, async () => {
  const context = await browser.createBrowserContext();
  const page = await newPage(context);
  const me = await invitedOwner(page);
  const domain = await activeDomain(t, me);
  await signIn(page, me.email);

  // The domain's page links to its zone.
  await page.goto(`${origin}/panel/domains/${domain.id}`);
  await heading(page, domain.domain);
  await control(page, `DNS records of ${domain.domain}`, 'link').click();
  await heading(page, domain.domain);
  await evidence(page, 'the managed SOA and NS listed', () => page.waitForFunction(() => /SOA/.test(document.querySelector('[aria-label="DNS records"]')?.textContent ?? '')));

  // Content that does not fit the type: the API's message under Content, the field marked invalid.
  await fill(page, 'Name', 'www');
  await fill(page, 'Content', 'not-an-address');
  await press(page, 'Add record');
  const contentError = await evidence(page, 'the error next to Content', () => page.waitForFunction(() => {
    const field = [...document.querySelectorAll('.field.has-error')].find((f) => f.querySelector('label')?.textContent === 'Content');
    return field?.querySelector('.error')?.textContent ?? false;
  }).then((h) => h.jsonValue() as Promise<string>));
  assert.match(contentError, /IPv4/);
  await shot(page, 'dns-refused-desktop');

  await fill(page, 'Content', '192.0.2.44');
  await fill(page, 'TTL', '300');
  await press(page, 'Add record');
  await evidence(page, 'the record listed', () => page.waitForFunction(() => [...document.querySelectorAll('[aria-label="DNS records"] tbody tr')]
    .some((r) => r.textContent!.includes('www') && r.textContent!.includes('192.0.2.44') && r.textContent!.includes('300'))));
  await shot(page, 'dns-zone-desktop');
  const fqdn = `www.${domain.domain}`;
  if (pdns) assert.deepEqual(await pdns.waitFor(fqdn, 'A', (a) => a.includes('192.0.2.44'), 10_000), ['192.0.2.44']);

  // Edit: the content changes in the list (and in the answer).
  await press(page, `Edit ${fqdn} A 192.0.2.44`);
  await evidence(page, 'the edit form', () => page.waitForFunction(() => document.activeElement?.textContent === 'Edit the A record'));
  const editForm = 'form[aria-label="Edit record"]';
  const content = await page.waitForSelector(`${editForm} input[name="content"]`);
  await content!.click({ count: 3 });
  await content!.type('192.0.2.45');
  await press(page, 'Save record');
  await evidence(page, 'the record changed', () => page.waitForFunction(() => [...document.querySelectorAll('[aria-label="DNS records"] tbody tr')]
    .some((r) => r.textContent!.includes('192.0.2.45')) && !document.body.innerText.includes('192.0.2.44')));
  if (pdns) await pdns.waitFor(fqdn, 'A', (a) => a.join() === '192.0.2.45', 10_000);

  // At a phone's width: nothing wider than the screen (the table scrolls in its own box).
  const phone = await newPage(context, PHONE);
  await phone.goto(page.url());
  await heading(phone, domain.domain);
  await evidence(phone, 'the record on a phone', () => phone.waitForFunction(() => document.body.innerText.includes('192.0.2.45')));
  await shot(phone, 'dns-zone-phone');
  assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'the page fits a phone');
  await phone.close();
  await page.bringToFront();

  // Delete asks first; Cancel keeps it, Confirm removes it.
  await press(page, `Delete ${fqdn} A 192.0.2.45`);
  await press(page, 'Cancel');
  await press(page, `Delete ${fqdn} A 192.0.2.45`);
  await press(page, 'Confirm delete');
  await evidence(page, 'the record gone', () => page.waitForFunction(() => document.body.innerText.includes('was deleted') && !document.body.innerText.includes('192.0.2.45')));
  if (pdns) await pdns.waitFor(fqdn, 'A', (a) => a.length === 0, 10_000);

  // The zones page: add a zone, open it from the list, delete it after confirming.
  await control(page, 'DNS', 'link').click();
  await heading(page, 'DNS');
  const name = `panel-${randomBytes(3).toString('hex')}.example.com`;
  await fill(page, 'Zone name', name);
  await press(page, 'Add zone');
  await evidence(page, 'the zone listed', () => page.waitForFunction((n) => document.querySelector('[aria-label="DNS zones"]')?.textContent?.includes(n), {}, name));
  await press(page, `Delete zone ${name}`);
  await press(page, 'Confirm delete');
  await evidence(page, 'the zone gone', () => page.waitForFunction((n) => document.body.innerText.includes(`${n} was deleted`) && !document.querySelector('[aria-label="DNS zones"]')?.textContent?.includes(n), {}, name));
  await context.close();
});
