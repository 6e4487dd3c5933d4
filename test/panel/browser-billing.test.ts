// The customer panel in a real browser (test/helpers/panel-browser.ts): a top-up through the
// simulated checkout (Amount, Top up, Pay, back to the panel), the balance credited and the
// invoice listed with its PDF; the monthly statement read off its page against the ledger, with
// its PDF, at desktop and phone width, and by a sub-user with billing:read. Skipped, saying why,
// without Chromium.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import type { Page } from 'puppeteer-core';
import { assertLedger } from '../helpers/billing.ts';
import { activeServer } from '../helpers/servers.ts';
import { PHONE, acceptInvitation, browser, control, evidence, fill, heading, invitedOwner, newPage, origin, press, shot, signIn, skip, t, useBrowser } from '../helpers/panel-browser.ts';

// What the functions run in the page use (this project is type-checked without the DOM's types).
interface El { textContent: string | null; id: string; querySelector(s: string): El | null; querySelectorAll(s: string): ArrayLike<El> & Iterable<El> }
declare const document: El & { body: { innerText: string }; activeElement: El | null; documentElement: { scrollWidth: number } };
declare const window: { innerWidth: number };

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

interface StatementJson {
  month: string;
  opening_balance: { amount: string };
  closing_balance: { amount: string };
  transactions: { type: 'deposit' | 'withdraw' | 'refund'; description: string; amount: { amount: string }; balance: { amount: string } }[];
}

const monthOf = (d: Date) => d.toISOString().slice(0, 7);

/** What the statement page shows: its month's heading, the summary (term → value) and the lines' cells. */
async function readStatement(page: Page) {
  await evidence(page, 'the statement shown', () => page.waitForSelector('dl.facts'));
  return page.evaluate(() => ({
    month: document.querySelector('#statement-title')?.textContent ?? '',
    facts: Object.fromEntries([...document.querySelectorAll('dl.facts > div')].map((d) => [d.querySelector('dt')?.textContent, d.querySelector('dd')?.textContent])) as Record<string, string>,
    rows: [...document.querySelectorAll('table tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
  }));
}

/** The statement's page and its JSON agree: balances, and each line's kind, description, signed amount and running balance. */
function assertShows(shown: Awaited<ReturnType<typeof readStatement>>, s: StatementJson): void {
  assert.equal(shown.facts['Opening balance'], `${s.opening_balance.amount} USD`);
  assert.equal(shown.facts['Closing balance'], `${s.closing_balance.amount} USD`);
  const kind = { deposit: 'Deposit', withdraw: 'Charge', refund: 'Refund' };
  const signed = (a: string) => (a.startsWith('-') ? `−${a.slice(1)} USD` : `+${a} USD`);
  assert.deepEqual(shown.rows.map((r) => r.slice(1)), s.transactions.map((l) => [kind[l.type], l.description, signed(l.amount.amount), `${l.balance.amount} USD`]));
  for (const r of shown.rows) assert.match(r[0]!, /UTC$/, 'times in UTC, as the month');
}

test('monthly statement: after a deposit and a charge, its page shows the ledger\'s opening and closing balance and lines, last month from the picker, and its PDF', { skip, timeout: 180_000 }, async () => {
  const context = await browser.createBrowserContext();
  const page = await newPage(context);
  const me = await invitedOwner(page); // the operator's deposit of 200.00
  // Last month: the account opened then, with a deposit (written directly: no clock to set back).
  const now = new Date();
  const thisMonth = monthOf(now);
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15, 9, 30));
  const lastMonth = monthOf(last);
  await sql`UPDATE accounts SET created_at = ${last} WHERE id = ${me.accountId}`.execute(t.database.db);
  await sql`INSERT INTO transactions (account_id, type, amount_cents, description, created_at) VALUES (${me.accountId}, 'deposit', 1500, 'Deposit carried over', ${last})`.execute(t.database.db);
  // This month's charge: a server created through the API.
  const server = await activeServer(t, me);
  const balance = await assertLedger(t, me.accountId);
  await signIn(page, me.email);

  // From the billing section's own links, focus on the new page's heading.
  await page.goto(`${origin}/panel/billing`);
  await heading(page, 'Billing');
  await control(page, 'Monthly statement', 'link').click();
  await heading(page, 'Monthly statement');
  await evidence(page, 'focus on the heading', () => page.waitForFunction(() => document.activeElement?.id === 'page-title'));
  const shown = await readStatement(page);
  const api = async (month: string) => {
    const res = await page.evaluate(async (url) => { const r = await fetch(url); return { status: r.status, body: await r.text() }; }, `/panel/api/billing/statements/${month}`);
    assert.equal(res.status, 200, res.body);
    return (JSON.parse(res.body) as { data: StatementJson }).data;
  };
  const current = await api(thisMonth);
  assertShows(shown, current);
  assert.equal(shown.month, await page.evaluate(() => document.querySelector('select option')?.textContent ?? ''), 'the current month first, and shown');
  // The ledger itself: the month opens on every row before it and closes on the balance.
  const before = await sql<{ s: string }>`SELECT COALESCE(SUM(CASE WHEN type = 'withdraw' THEN -amount_cents ELSE amount_cents END), 0) AS s FROM transactions WHERE account_id = ${me.accountId} AND created_at < ${new Date(`${thisMonth}-01T00:00:00Z`)}`.execute(t.database.db);
  assert.equal(shown.facts['Opening balance'], `${(Number(before.rows[0]!.s) / 100).toFixed(2)} USD`);
  assert.equal(shown.facts['Opening balance'], '15.00 USD');
  assert.equal(shown.facts['Closing balance'], `${(balance / 100).toFixed(2)} USD`, 'the current month closes on the balance');
  assert.deepEqual(current.transactions.map((l) => l.type), ['deposit', 'withdraw'], 'the deposit, then the server\'s charge');
  assert.match(current.transactions[1]!.description, new RegExp(server.name));
  await shot(page, 'statement-desktop');

  // Last month from the picker: it closes on what this month opens with.
  const picker = await evidence(page, 'the Month picker', () => control(page, 'Month', 'combobox').waitHandle());
  await picker.select(lastMonth);
  await evidence(page, 'last month shown', () => page.waitForFunction((m) => document.querySelector('table')?.textContent?.includes(m) && !document.querySelector('[aria-busy="true"]'), {}, 'Deposit carried over'));
  const previous = await readStatement(page);
  assertShows(previous, await api(lastMonth));
  assert.equal(previous.facts['Opening balance'], '0.00 USD');
  assert.equal(previous.facts['Closing balance'], shown.facts['Opening balance'], 'a month closes on what the next opens with');

  // The PDF link of the month shown, downloaded with the page's session.
  const link = await control(page, `Download PDF of ${previous.month}`, 'link').waitHandle();
  const href = await link.evaluate((a) => (a as unknown as { getAttribute(n: string): string }).getAttribute('href'));
  assert.equal(href, `/panel/api/billing/statements/${lastMonth}/pdf`);
  const pdf = await page.evaluate(async (url) => { const r = await fetch(url); return { status: r.status, type: r.headers.get('content-type'), head: (await r.text()).slice(0, 5) }; }, href);
  assert.deepEqual(pdf, { status: 200, type: 'application/pdf', head: '%PDF-' });

  // At a phone's width: nothing wider than the screen (the lines scroll in their own box).
  const phone = await newPage(context, PHONE);
  await phone.goto(`${origin}/panel/billing/statement`);
  await heading(phone, 'Monthly statement');
  await readStatement(phone);
  await shot(phone, 'statement-phone');
  assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'the statement fits a phone');
  // Back to the desktop tab (a background tab's input stalls).
  await phone.close();
  await page.bringToFront();

  // A sub-user with billing:read finds it (and no top-up); the API answers it the same statement.
  await page.goto(`${origin}/panel/sub-users`);
  await heading(page, 'Sub-users');
  await fill(page, 'Email', 'books@example.com');
  await fill(page, 'First name', 'Bea');
  await fill(page, 'Last name', 'Books');
  await control(page, 'Billing read', 'checkbox').click();
  await press(page, 'Invite sub-user');
  const url = await control(page, 'Invitation link').map((el) => (el as unknown as { value: string }).value).wait();
  await context.close();

  const sub = await browser.createBrowserContext();
  const subPage = await newPage(sub);
  await acceptInvitation(subPage, url);
  await signIn(subPage, 'books@example.com');
  await control(subPage, 'Billing', 'link').click();
  await heading(subPage, 'Billing');
  const links = await subPage.$$eval('nav[aria-label="Section"] a', (as) => as.map((a) => a.textContent));
  assert.deepEqual(links, ['Balance and transactions', 'Invoices', 'Monthly statement']);
  await control(subPage, 'Monthly statement', 'link').click();
  await heading(subPage, 'Monthly statement');
  assertShows(await readStatement(subPage), current);
  await sub.close();
});
