// The customer panel in a real browser (test/helpers/panel-browser.ts): a top-up through the
// simulated checkout (Amount, Top up, Pay, back to the panel), the balance credited and the
// invoice listed with its PDF. Skipped, saying why, without Chromium.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { browser, control, evidence, fill, heading, invitedOwner, newPage, origin, press, shot, signIn, skip, useBrowser } from '../helpers/panel-browser.ts';

// What the functions run in the page use (this project is type-checked without the DOM's types).
declare const document: { body: { innerText: string }; querySelector(s: string): { textContent: string | null } | null };

useBrowser();

test('top-up: Amount → Top up → the checkout\'s Pay → back in the panel, the balance credited, the invoice listed with its PDF', { skip, timeout: 120_000 }, async () => {
  const context = await browser.createBrowserContext();
  const page = await newPage(context);
  const me = await invitedOwner(page);
  await signIn(page, me.email);
  await page.goto(`${origin}/panel/billing/top-up`);
  await heading(page, 'Top up');
  await fill(page, 'Amount', '50.00');
  await press(page, 'Top up');
  await evidence(page, 'the checkout', () => page.waitForFunction(() => document.body.innerText.includes('Simulated checkout')));
  await shot(page, 'checkout-desktop');
  await press(page, 'Pay');
  await heading(page, 'Top up');
  await evidence(page, 'paid', () => page.waitForFunction(() => document.body.innerText.includes('Paid: 50.00 USD was added to your balance')));
  await shot(page, 'top-up-desktop');
  const balance = await (await fetch(`${origin}/v2/billing/balance`, { headers: { authorization: `Bearer ${me.key}` } })).json() as { data: { balance: { amount: string } } };
  assert.equal(balance.data.balance.amount, '250.00');

  await control(page, 'Invoices', 'link').click();
  await heading(page, 'Invoices');
  const link = await evidence(page, 'an invoice', () => page.waitForSelector('a[download]'));
  const pdfHref = await link!.evaluate((a) => (a as unknown as { getAttribute(n: string): string }).getAttribute('href'));
  assert.match(await link!.evaluate((a) => (a as unknown as { getAttribute(n: string): string }).getAttribute('aria-label')), /^PDF of /);
  await shot(page, 'invoices-desktop');
  const cookies = await context.cookies();
  const session = cookies.find((c) => c.name === 'hc_session')!;
  const pdf = await fetch(`${origin}${pdfHref}`, { headers: { cookie: `hc_session=${session.value}` } });
  assert.equal(pdf.status, 200);
  assert.equal(pdf.headers.get('content-type'), 'application/pdf');
  await context.close();
});
