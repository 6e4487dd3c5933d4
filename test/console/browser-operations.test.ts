// The console's operator pages in Chromium: a stuck server create cancelled from the Operations page
// is refunded (the balance back, the operation failed); two failed power actions retried in bulk
// after a confirmation; a power action from the Servers page; a read-only member sees no action;
// every page of the section opens without a script error. Screenshots at desktop and phone width
// under test-output/console/.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'puppeteer-core';
import { type BrowserStaff, consoleShot, invitedMember, navLabels } from '../helpers/console-browser.ts';
import { PHONE, browser, evidence, heading, newPage, origin, skip, t, useBrowser } from '../helpers/panel-browser.ts';
import { call, createCustomer, json } from '../helpers/app.ts';
import { activeServer, serverBody } from '../helpers/servers.ts';

useBrowser();

// What the functions run in the page use (this project is type-checked without the DOM's types).
interface El { textContent: string | null; click(): void }
declare const document: { querySelector(s: string): El | null; body: { innerText: string } };

const balanceOf = async (key: string) => json(await call(t.app, 'GET', '/v2/billing/balance', { key })).data.balance.amount as string;
const opRow = (id: string) => t.database.db.selectFrom('operations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function text(page: Page, what: string, wanted: string): Promise<void> {
  await evidence(page, what, () => page.waitForFunction((w) => document.body.innerText.includes(w), {}, wanted));
}

/** The open dialog's confirming button (its name may repeat the bulk button's). */
async function confirmDialog(page: Page, what: string): Promise<void> {
  await evidence(page, what, async () => {
    await page.waitForSelector('dialog[open] button.btn:not(.plain)');
    await page.click('dialog[open] button.btn:not(.plain)');
    await page.waitForFunction(() => document.querySelector('dialog[open]') === null);
  });
}

test('operations: a stuck create cancelled and refunded; failed power actions retried in bulk; servers; read-only sees no action', { skip, timeout: 240_000 }, async () => {
  // Two active servers while the worker runs, then no worker: what is queued now stays queued.
  const owner = await createCustomer(t, { deposit: '200.00' });
  const [s1, s2] = [await activeServer(t, owner, { name: 'bulk-one.example.com' }), await activeServer(t, owner, { name: 'bulk-two.example.com' })];
  await t.stopWorkers();

  // Stuck: a create whose worker is gone (running, no lease).
  const buyer = await createCustomer(t, { deposit: '50.00' });
  const created = await call(t.app, 'POST', '/v2/servers', { key: buyer.key, body: serverBody() });
  assert.equal(created.statusCode, 201, created.body);
  const stuckId = json(created).data.operation.id as string;
  assert.notEqual(await balanceOf(buyer.key), '50.00', 'charged');
  await t.database.db.updateTable('operations').set({ status: 'running', attempts: 1, lease_until: null }).where('id', '=', stuckId).execute();

  // Two failed power actions (their type may be retried).
  const failed: string[] = [];
  for (const s of [s1, s2]) {
    const r = await call(t.app, 'POST', `/v2/servers/${s.id}/actions/stop`, { key: owner.key });
    assert.equal(r.statusCode, 202, r.body);
    const id = json(r).data.operation.id as string;
    await t.database.db.updateTable('operations').set({ status: 'failed', attempts: 1, finished_at: new Date(), detail: 'The platform refused', last_error: 'upstream said no' })
      .where('id', '=', id).execute();
    await t.database.db.updateTable('servers').set({ power_state: 'running' }).where('id', '=', s.id).execute();
    failed.push(id);
  }

  const context = await browser.createBrowserContext();
  const page = await newPage(context);
  const admin: BrowserStaff = await invitedMember(page, 'admin', 'Ops Admin');
  assert.equal(admin.role, 'admin');
  const nav = await navLabels(page);
  for (const label of ['Servers', 'Operations', 'Nodes', 'Billing', 'Catalog', 'Notifications', 'Settings']) assert.ok(nav.includes(label), `${label} in ${nav.join(', ')}`);

  // The stuck one, from the Operations page's filter in the address.
  await page.goto(`${origin}/admin/operations?status=stuck`);
  await heading(page, 'Operations');
  await text(page, 'the stuck create listed', stuckId);
  await consoleShot(page, 'operations-stuck-desktop');
  await evidence(page, 'cancel the stuck one', () => page.locator(`::-p-aria([name="Cancel ${stuckId}"][role="button"])`).click());
  await text(page, 'the cancel dialog', 'fails at once');
  await confirmDialog(page, 'confirm the cancel');
  await text(page, 'the cancel notice', `${stuckId} cancelled: failed, and refunded.`);
  const cancelled = await opRow(stuckId);
  assert.equal(cancelled.status, 'failed');
  assert.equal(await balanceOf(buyer.key), '50.00', 'refunded');

  // The failed stops, retried together.
  await page.goto(`${origin}/admin/operations?status=failed&type=server.stop`);
  await heading(page, 'Operations');
  for (const id of failed) await evidence(page, `select ${id}`, () => page.locator(`::-p-aria([name="Select ${id} server.stop"][role="checkbox"])`).click());
  await text(page, 'two chosen', '2 selected');
  await evidence(page, 'the bulk retry', () => page.locator('div[aria-label="Bulk actions"] ::-p-text(Retry)').click());
  await text(page, 'the retry dialog', 'Retry: 2 selected');
  await consoleShot(page, 'operations-bulk-retry-desktop');
  await confirmDialog(page, 'confirm the bulk retry');
  await text(page, 'the retry notice', 'Retried 2 of 2.');
  const again = await t.database.db.selectFrom('operations').select(['id', 'resource_id', 'status']).where('type', '=', 'server.stop').where('status', '=', 'queued').execute();
  assert.deepEqual(again.map((o) => o.resource_id).sort(), [s1.id, s2.id].sort());

  // One operation's page.
  await page.goto(`${origin}/admin/operations/${stuckId}`);
  await heading(page, `Operation ${stuckId}`);
  await text(page, 'its detail', 'Cancelled by the operator');

  // A server's power action from the Servers page (the owner's own operation, queued).
  await page.goto(`${origin}/admin/servers?q=bulk-&status=active`);
  await heading(page, 'Servers');
  await text(page, 'the servers listed', 'bulk-two.example.com');
  await consoleShot(page, 'servers-desktop');
  // The retried stops end (no worker runs them), so the server takes another operation.
  await t.database.db.updateTable('operations').set({ status: 'failed', finished_at: new Date() }).where('type', '=', 'server.stop').where('status', '=', 'queued').execute();
  await evidence(page, 'stop a server', () => page.locator('::-p-aria([name="Stop bulk-one.example.com"][role="button"])').click());
  await confirmDialog(page, 'confirm the stop');
  await text(page, 'the stop notice', 'Stop queued for bulk-one.example.com');
  const stop = await t.database.db.selectFrom('operations').selectAll().where('type', '=', 'server.stop').where('status', '=', 'queued').execute();
  assert.deepEqual(stop.map((o) => [o.resource_id, o.account_id]), [[s1.id, owner.accountId]]);

  // Every page of the section opens (no script error: the harness checks).
  for (const [path, title, shot] of [
    ['/admin/vdc-vms', 'VDC VMs', 'vdc-vms'], ['/admin/nodes', 'Nodes', 'nodes'], ['/admin/ip-pools', 'IP pools', 'ip-pools'],
    ['/admin/billing', 'Billing', 'billing-invoices'], ['/admin/billing/payments', 'Payments', 'billing-payments'], ['/admin/billing/overdue', 'Overdue accounts', 'billing-overdue'],
    ['/admin/billing/tax-rates', 'Tax rates', 'billing-tax-rates'], ['/admin/billing/invoice-settings', 'Invoice settings', 'billing-invoice-settings'],
    ['/admin/catalog/plans', 'Catalog', 'catalog-plans'], ['/admin/catalog/tld-prices', 'Catalog', 'catalog-tlds'], ['/admin/notifications', 'Notifications', 'notifications'],
    ['/admin/settings', 'Settings', 'settings'],
  ] as const) {
    await page.goto(`${origin}${path}`);
    await heading(page, title);
    await evidence(page, `${path} loaded`, () => page.waitForFunction(() => !document.body.innerText.includes('Loading…')));
    await consoleShot(page, `${shot}-desktop`);
  }

  // Phone width.
  const phone = await newPage(context, PHONE);
  await phone.goto(`${origin}/admin/operations?status=failed`);
  await heading(phone, 'Operations');
  await consoleShot(phone, 'operations-phone');
  await phone.goto(`${origin}/admin/servers`);
  await heading(phone, 'Servers');
  await consoleShot(phone, 'servers-phone');
  await context.close();

  // A read-only member: the lists, and no action anywhere.
  const ro = await browser.createBrowserContext();
  const roPage = await newPage(ro);
  await invitedMember(roPage, 'readonly', 'Read Only');
  assert.ok(!(await navLabels(roPage)).includes('Notifications'), 'the outbox holds mailed links: not for read-only');
  await roPage.goto(`${origin}/admin/operations?status=failed`);
  await heading(roPage, 'Operations');
  await text(roPage, 'the failed cancel listed', stuckId);
  assert.equal(await roPage.$('div[aria-label="Bulk actions"]'), null, 'no bulk actions');
  assert.equal(await roPage.$('td .row-actions button'), null, 'no row actions');
  await roPage.goto(`${origin}/admin/servers`);
  await heading(roPage, 'Servers');
  await text(roPage, 'servers listed', 'bulk-one.example.com');
  assert.equal(await roPage.$('td .row-actions button'), null, 'no power buttons');
  await consoleShot(roPage, 'servers-readonly-desktop');
  await ro.close();
});
