// The hosting page in a real browser (test/helpers/panel-browser.ts), opened through the login_url
// of GET /v2/web-hosting/{id}/login with no panel password: the site's facts, a new SFTP password
// shown once, a database created, its password reset and the database dropped after a
// confirmation; a reader's link opens it read-only. Skipped, saying why, without Chromium.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adminCall, call, createCustomer, json } from '../helpers/app.ts';
import { BUSINESS, activeHosting } from '../helpers/hosting.ts';
import { browser, control, evidence, fill, heading, newPage, press, shot, skip, t, useBrowser } from '../helpers/panel-browser.ts';

// What the functions run in the page use (this project is type-checked without the DOM's types).
interface El { textContent: string | null }
declare const document: {
  querySelector(s: string): El | null;
  querySelectorAll(s: string): ArrayLike<El> & Iterable<El>;
  body: { innerText: string };
};

useBrowser();

test('the hosting page through login_url: facts, SFTP password, databases; read-only for a reader', { skip, timeout: 180_000 }, async () => {
  const c = await createCustomer(t, { deposit: '100.00' });
  const hosting = await activeHosting(t, c, { package_id: BUSINESS });
  const user = (await t.database.db.selectFrom('web_hosting').select('username').where('id', '=', hosting.id).executeTakeFirstOrThrow()).username!;
  const loginUrl = async (key: string) => {
    const res = await call(t.app, 'GET', `/v2/web-hosting/${hosting.id}/login`, { key });
    assert.equal(res.statusCode, 200, res.body);
    return json(res).data.login_url as string;
  };

  const context = await browser.createBrowserContext();
  const page = await newPage(context);
  await page.goto(await loginUrl(c.key));
  await heading(page, `Hosting: ${hosting.domain}`);
  assert.equal(new URL(page.url()).pathname, `/panel/web-hosting/${hosting.id}`);
  assert.equal(await page.$('nav[aria-label="Main"]'), null, 'the link opens this page only, not the panel');
  const text = await page.evaluate(() => document.body.innerText);
  for (const fact of [`/home/${user}/public_html`, `https://${hosting.domain}/`, user, '8.2', 'Opened with a login link']) assert.ok(text.includes(fact), `page shows ${fact}`);

  await press(page, 'Reset SFTP password');
  const sftpPassword = await evidence(page, 'the new SFTP password', async () => {
    const h = await control(page, 'New SFTP password', 'code').waitHandle().catch(() => page.waitForSelector('code[aria-label="New SFTP password"]'));
    return (await h!.evaluate((el) => (el as unknown as El).textContent))!;
  });
  assert.match(sftpPassword, /^[A-Za-z0-9]{20}$/);
  await shot(page, 'hosting-page-sftp-password');
  await press(page, 'I have copied it');
  await evidence(page, 'password gone', () => page.waitForFunction((p) => !document.body.innerText.includes(p), {}, sftpPassword));

  await fill(page, 'Database name', 'shop');
  await press(page, 'Create database');
  await evidence(page, 'database listed', () => page.waitForFunction((n) => document.querySelector('table')?.textContent?.includes(n), {}, `${user}_shop`));
  assert.ok(await page.$(`code[aria-label="Password of the new database ${user}_shop"]`), 'its password is shown once');
  await press(page, 'I have copied it');

  await press(page, `Reset the password of ${user}_shop`);
  await evidence(page, 'database password', () => page.waitForSelector(`code[aria-label="New password of ${user}_shop"]`));
  await press(page, 'I have copied it');

  await press(page, `Drop ${user}_shop`);
  await press(page, `Confirm dropping ${user}_shop`);
  await evidence(page, 'database dropped', () => page.waitForFunction((n) => !document.querySelector('table')?.textContent?.includes(n), {}, `${user}_shop`));
  await shot(page, 'hosting-page-desktop');
  const site = json(await call(t.app, 'GET', `/v2/web-hosting/${hosting.id}/site`, { key: c.key })).data;
  assert.deepEqual(site.databases.map((d: { name: string }) => d.name), [`${user}_main`]);

  // The link was single use: opened again, it is refused.
  await context.close();

  const readerKey = json(await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/api-keys`, { name: 'reader', ip_allowlist: ['127.0.0.1', '::1'], scopes: ['hosting:read'] })).data.key;
  const readerContext = await browser.createBrowserContext();
  const reader = await newPage(readerContext);
  await reader.goto(await loginUrl(readerKey));
  await heading(reader, `Hosting: ${hosting.domain}`);
  const readerText = await reader.evaluate(() => document.body.innerText);
  assert.ok(readerText.includes('Read-only'));
  for (const button of ['Reset SFTP password', 'Create database', `Drop ${user}_main`]) {
    assert.ok(!readerText.includes(button) && (await reader.$(`::-p-aria([name="${button}"][role="button"])`)) === null, `no ${button} for a reader`);
  }
  await shot(reader, 'hosting-page-read-only');
  await readerContext.close();
});
