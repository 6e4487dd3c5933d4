// The panel's Webhooks page in a real browser (test/helpers/panel-browser.ts): an owner adds an
// endpoint pointing at a receiver on 127.0.0.1 (the app allows http and private URLs, as for
// development), reads the secret once, pings it, and sees the worker's delivery — verified by the
// receiver with that secret — as delivered in the page's log; then disables, enables and deletes
// it, and the page fits a phone. Skipped, saying why, without Chromium.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHONE, browser, control, evidence, fill, heading, invitedOwner, newPage, origin, press, shot, signIn, skip, useBrowser } from '../helpers/panel-browser.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';

// What the functions run in the page use (this project is type-checked without the DOM's types).
interface El { textContent: string | null; id: string; value: string; querySelector(s: string): El | null; querySelectorAll(s: string): ArrayLike<El> & Iterable<El> }
declare const document: El & { body: { innerText: string }; activeElement: El | null; documentElement: { scrollWidth: number } };
declare const window: { innerWidth: number };

useBrowser({ webhookAllowHttp: true, webhookAllowPrivate: true });

test('add an endpoint → the secret once → Ping → delivered in its log; a refused URL next to URL; disable, enable, delete; a phone', { skip, timeout: 120_000 }, async () => {
  const receiver = await startReceiver();
  const context = await browser.createBrowserContext();
  const page = await newPage(context);
  const me = await invitedOwner(page);
  await signIn(page, me.email);
  await control(page, 'Webhooks', 'link').click();
  await heading(page, 'Webhooks');

  // A URL the service refuses: its message under the URL field, the field marked invalid.
  await fill(page, 'URL', 'ftp://127.0.0.1/hook');
  await press(page, 'Add endpoint');
  const urlError = await evidence(page, 'the error next to URL', () => page.waitForFunction(() => {
    const field = [...document.querySelectorAll('.field.has-error')].find((f) => f.querySelector('label')?.textContent === 'URL');
    return field?.querySelector('.error')?.textContent ?? false;
  }).then((h) => h.jsonValue() as Promise<string>));
  assert.match(urlError, /http/);
  await shot(page, 'webhooks-refused-desktop');

  const url = `${receiver.url}/panel-hook`;
  await fill(page, 'URL', url);
  await fill(page, 'Description', 'from the browser test');
  await press(page, 'Add endpoint');
  const secret = await control(page, 'Secret').map((el) => (el as unknown as El).value).wait();
  assert.match(secret, /^whsec_/);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'new-secret', 'the focus goes to the secret');
  receiver.secrets.push(secret);
  await evidence(page, 'the endpoint listed', () => page.waitForFunction((u) => document.querySelector('table')?.textContent?.includes(u), {}, url));
  await shot(page, 'webhooks-desktop');

  await press(page, `Ping ${url}`);
  const [received] = await receiver.until(1, '/panel-hook');
  assert.equal(received!.json.type, 'webhook.ping');
  assert.deepEqual(received!.verifiedWith, [secret], 'signed with the secret the page showed');
  // The log, read again while the delivery is pending, shows it delivered with the receiver's 200.
  await evidence(page, 'the delivery shown as delivered', () => page.waitForFunction(() => {
    const table = document.querySelector('[aria-label="Deliveries"] table');
    const row = table?.querySelector('tbody tr');
    return row !== null && row !== undefined && row.textContent!.includes('webhook.ping') && row.textContent!.includes('delivered') && row.textContent!.includes('200');
  }));
  await shot(page, 'webhook-deliveries-desktop');

  // At a phone's width: nothing wider than the screen (the tables scroll in their own box).
  const phone = await newPage(context, PHONE);
  await phone.goto(`${origin}/panel/webhooks`);
  await heading(phone, 'Webhooks');
  await evidence(phone, 'the endpoint listed on a phone', () => phone.waitForFunction((u) => document.querySelector('table')?.textContent?.includes(u), {}, url));
  await shot(phone, 'webhooks-phone');
  assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'the page fits a phone');
  await phone.close();
  await page.bringToFront();

  await press(page, `Disable ${url}`);
  await evidence(page, 'disabled', () => page.waitForFunction(() => document.querySelector('td .badge.disabled')?.textContent === 'disabled'));
  assert.equal(await control(page, `Ping ${url}`, 'button').setTimeout(300).wait().then(() => true, () => false), false, 'no ping for a disabled endpoint');
  await press(page, `Enable ${url}`);
  await evidence(page, 'enabled', () => page.waitForFunction(() => document.querySelector('td .badge.enabled')?.textContent === 'enabled'));

  await press(page, `Delete ${url}`);
  await press(page, 'Confirm delete');
  await evidence(page, 'deleted', () => page.waitForFunction(() => document.body.innerText.includes('No webhook endpoints yet.')));
  await context.close();
});
