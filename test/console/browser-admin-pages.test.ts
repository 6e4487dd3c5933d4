// The console's writes beyond operations, in Chromium, each checked through the admin API after:
// a plan added, its price edited and the plan withdrawn in bulk (Catalog), a tax rate set and deleted and the invoice settings
// saved (Billing), a failed notice resent (Notifications), a node disabled and enabled again and an
// address pool added (Nodes, IP pools). No script error, no request off 127.0.0.1.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'puppeteer-core';
import { sql } from 'kysely';
import { consoleShot, invitedMember } from '../helpers/console-browser.ts';
import { browser, control, evidence, fill, heading, newPage, origin, press, skip, t, useBrowser } from '../helpers/panel-browser.ts';
import { adminCall, json } from '../helpers/app.ts';
import { insertNotification } from '../../src/db/queries/notifications.ts';

useBrowser();

interface El { textContent: string | null }
declare const document: { querySelector(s: string): El | null; body: { innerText: string } };

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

const button = (page: Page, name: string) => evidence(page, `press "${name}"`, () => control(page, name, 'button').click());

test('catalog, billing, notifications, nodes and pools: writes from the console', { skip, timeout: 240_000 }, async () => {
  const context = await browser.createBrowserContext();
  const page = await newPage(context);
  await invitedMember(page, 'admin', 'Pages Admin');

  // Catalog: a plan added, then withdrawn with the bulk action.
  await page.goto(`${origin}/admin/catalog/plans`);
  await heading(page, 'Catalog');
  await evidence(page, 'open the add form', () => page.locator('summary ::-p-text(Add to plans)').click());
  await fill(page, 'Name', 'Console Plan XL');
  await fill(page, 'vCPU', '8');
  await fill(page, 'RAM (MB)', '16384');
  await fill(page, 'Disk (GB)', '320');
  await fill(page, 'Traffic (GB)', '8000');
  await fill(page, 'Price a month', '64.00');
  await press(page, 'Add');
  await text(page, 'the plan added', 'Console Plan XL added.');
  const plans = json(await adminCall(t, 'GET', '/admin/v1/plans?per_page=100')).data as { id: number; name: string; price: string; available: boolean }[];
  const plan = plans.find((p) => p.name === 'Console Plan XL');
  assert.ok(plan && plan.price === '64.00' && plan.available, JSON.stringify(plan));
  await page.goto(`${origin}/admin/catalog/plans?q=console%20plan`);
  await text(page, 'the search finds it', 'Console Plan XL');
  await button(page, 'Edit Console Plan XL');
  await evidence(page, 'the edit dialog', () => page.waitForSelector('dialog[open] input[name="price"]'));
  await evidence(page, 'a new price', async () => {
    const price = (await page.$('dialog[open] input[name="price"]'))!;
    await price.click({ count: 3 });
    await price.type('70.00');
  });
  await confirmDialog(page, 'save the edit');
  await text(page, 'saved', 'Console Plan XL saved.');
  assert.equal(json(await adminCall(t, 'GET', `/admin/v1/plans/${plan.id}`)).data.price, '70.00');
  await evidence(page, 'choose it', () => control(page, 'Select Console Plan XL', 'checkbox').click());
  await evidence(page, 'withdraw', () => page.locator('div[aria-label="Bulk actions"] ::-p-text(Withdraw)').click());
  await confirmDialog(page, 'confirm the withdrawal');
  await text(page, 'withdrawn', 'Withdrawn 1 of 1.');
  assert.equal(json(await adminCall(t, 'GET', `/admin/v1/plans/${plan.id}`)).data.available, false);
  await consoleShot(page, 'catalog-withdrawn-desktop');

  // Billing: a tax rate set and deleted; the invoice settings saved.
  await page.goto(`${origin}/admin/billing/tax-rates`);
  await heading(page, 'Tax rates');
  await fill(page, 'Country', 'DE');
  await fill(page, 'Rate (%)', '19.00');
  await press(page, 'Set rate');
  await text(page, 'the rate set', 'DE: 19.00% VAT.');
  assert.deepEqual((json(await adminCall(t, 'GET', '/admin/v1/tax-rates')).data as { country: string; rate: string }[]).map((r) => [r.country, r.rate]), [['DE', '19.00']]);
  await consoleShot(page, 'billing-tax-rate-desktop');
  await button(page, 'Delete the rate of DE');
  await confirmDialog(page, 'confirm the delete');
  await text(page, 'the rate gone', 'DE: no tax from now on.');
  assert.deepEqual(json(await adminCall(t, 'GET', '/admin/v1/tax-rates')).data, []);
  await page.goto(`${origin}/admin/billing/invoice-settings`);
  await heading(page, 'Invoice settings');
  await fill(page, 'Company name', 'Console Hosting GmbH');
  await press(page, 'Save');
  await text(page, 'saved', 'Saved');
  assert.equal(json(await adminCall(t, 'GET', '/admin/v1/invoice-settings')).data.company_name, 'Console Hosting GmbH');

  // Notifications: a failed notice resent from its row (due far ahead, so the file's worker leaves it).
  const n = await insertNotification(t.database.db, { account_id: null, kind: 'test.console', to_email: 'ops@pages.example', subject: 'A notice that failed', body: 'Body text' });
  await t.database.db.updateTable('notifications').set({ status: 'failed', attempts: 5, last_error: 'SMTP said no', next_attempt_at: sql<Date>`now() + interval '1 day'` }).where('id', '=', n.id).execute();
  await page.goto(`${origin}/admin/notifications?status=failed`);
  await heading(page, 'Notifications');
  await text(page, 'the failed notice', 'A notice that failed');
  await consoleShot(page, 'notifications-failed-desktop');
  await button(page, `Resend notice ${n.id}`);
  await confirmDialog(page, 'confirm the resend');
  await text(page, 'resent', `Notice #${n.id} queued again.`);
  const row = await t.database.db.selectFrom('notifications').select(['status', 'attempts']).where('id', '=', n.id).executeTakeFirstOrThrow();
  assert.ok(row.status !== 'failed' && row.attempts <= 1, JSON.stringify(row));

  // Nodes: one disabled, then enabled again; a pool added.
  const node = (json(await adminCall(t, 'GET', '/admin/v1/nodes')).data as { id: number; name: string }[]).at(-1)!;
  await page.goto(`${origin}/admin/nodes?q=${node.name}`);
  await heading(page, 'Nodes');
  await button(page, `Disable ${node.name}`);
  await confirmDialog(page, 'confirm disable');
  await text(page, 'disabled', `${node.name} is disabled.`);
  assert.equal(json(await adminCall(t, 'GET', `/admin/v1/nodes/${node.id}`)).data.status, 'disabled');
  await button(page, `Enable ${node.name}`);
  await confirmDialog(page, 'confirm enable');
  await text(page, 'enabled', `${node.name} is active.`);
  await page.goto(`${origin}/admin/ip-pools`);
  await heading(page, 'IP pools');
  await evidence(page, 'open the pool form', () => page.locator('summary ::-p-text(Add an address pool)').click());
  await fill(page, 'CIDR', '198.51.100.0/24');
  await fill(page, 'Gateway', '198.51.100.1');
  await press(page, 'Add pool');
  await text(page, 'the pool added', 'Pool 198.51.100.0/24 added.');
  await text(page, 'the pool listed', '198.51.100.0/24');
  assert.ok((json(await adminCall(t, 'GET', '/admin/v1/ip-pools?per_page=100')).data as { cidr: string }[]).some((p) => p.cidr === '198.51.100.0/24'));
  await consoleShot(page, 'ip-pools-added-desktop');
  await context.close();
});
