// The reference and the error catalog as people see them: rendered by a real headless Chromium
// (Debian's `chromium`), checked for the sidebar, an operation's samples, the walkthrough and the
// rendered Markdown, with no request leaving 127.0.0.1. Skipped, saying why, without Chromium.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type BrowserContext, chromium } from 'playwright-core';
import { type TestApp, startApp } from '../helpers/app.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const found = existsSync(CHROMIUM);
const skip = found ? false : `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`;

let t: TestApp;
let origin: string;
let browser: BrowserContext;
let profile: string;
/** Every request the browser made, pages and workers alike. */
const requests: string[] = [];
const pageErrors: string[] = [];

before(async () => {
  if (!found) return;
  t = await startApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  profile = await fs.mkdtemp(path.join(os.tmpdir(), 'hostcloud-chromium-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run',
      // Should anything try to leave the machine, it resolves nowhere.
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    ],
  });
  browser.on('request', (r) => requests.push(r.url()));
  browser.on('page', (p) => p.on('pageerror', (e) => pageErrors.push(e.message)));
}, { timeout: 60_000 });

after(async () => {
  await browser?.close();
  if (profile) await fs.rm(profile, { recursive: true, force: true });
});

test('/v2/docs renders the reference: sidebar, the walkthrough, an operation with request and response samples', { skip, timeout: 120_000 }, async () => {
  const page = await browser.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(`${origin}/v2/docs`);

  // The sidebar: the introduction's sections, then every tag with its operations.
  const menu = page.locator('[role="menu"]').first();
  await menu.getByText('First server in five minutes').waitFor({ timeout: 60_000 });
  for (const entry of ['Conventions', 'Errors', 'Servers', 'Catalog', 'Billing', 'Account']) {
    assert.ok(await menu.getByText(entry, { exact: true }).first().isVisible(), `sidebar: ${entry}`);
  }

  // The walkthrough, its curl blocks rendered as code.
  const walkthrough = await page.locator('#section\\/First-server-in-five-minutes').innerText();
  assert.match(walkthrough, /Get an API key/);
  assert.match(walkthrough, /curl -s -X POST "\$HC\/servers"/);
  assert.match(walkthrough, /Idempotency-Key: \$IDEMPOTENCY_KEY/);
  assert.match(walkthrough, /\$HC\/operations\/\$OP/);

  // An operation: its request sample (from the body's examples), its curl sample and a response sample.
  await menu.getByText('Servers', { exact: true }).first().click();
  await menu.getByText('Create a server', { exact: true }).click();
  const operation = page.locator('[id="tag/Servers/operation/createServer"]');
  await operation.waitFor();
  const text = await operation.innerText();
  assert.match(text, /Request samples/);
  assert.match(text, /Response samples/);
  assert.match(text, /"web-1\.example\.com"/, 'the package-mode example body');
  assert.match(text, /"srv_8fJ2kLmN4pQ7rS1t"/, 'a response sample built from the schema examples');
  assert.match(text, /PLAN_NOT_FOUND/, 'the 422 codes are listed');
  await operation.getByRole('tab', { name: 'curl' }).first().click();
  assert.match(await operation.innerText(), /curl -X POST "http:\/\/api\.test\/v2\/servers"/);
  await page.close();
});

test('/v2/docs/errors renders the catalog\'s Markdown', { skip, timeout: 60_000 }, async () => {
  const page = await browser.newPage();
  await page.goto(`${origin}/v2/docs/errors#AUTH_REQUIRED`);
  const row = page.locator('tr#AUTH_REQUIRED');
  assert.equal(await row.locator('td').nth(1).innerText(), '401');
  assert.equal(await row.locator('td code').nth(1).innerText(), 'Authorization: Bearer <API_KEY>');
  assert.equal(await page.locator('tr#RATE_LIMITED td code').nth(1).innerText(), 'Retry-After');
  assert.match(await page.locator('pre code').innerText(), /"code": "VALIDATION_FAILED"/);
  await page.close();
});

test('the browser never left 127.0.0.1, and the pages ran without errors', { skip }, () => {
  assert.ok(requests.length >= 5, `requests seen: ${requests.join(' ')}`);
  const outside = requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:') && !u.startsWith('blob:'));
  assert.deepEqual(outside, []);
  assert.ok(requests.includes(`${origin}/v2/docs/redoc.standalone.js`));
  assert.ok(requests.includes(`${origin}/v2/openapi.json`));
  assert.deepEqual(pageErrors, []);
});
