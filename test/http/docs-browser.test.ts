// The reference and the error catalog as people see them: rendered by a real headless Chromium
// (Debian's `chromium`), checked for the sidebar, an operation's samples, the walkthrough and the
// rendered Markdown, with no request leaving 127.0.0.1. Skipped, saying why, without Chromium.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type BrowserContext, type Page, chromium } from 'playwright-core';
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
  // The 201 sample is the answer as it is (pending, provisioning), and a live key's: no meta.sandbox.
  const responseSample = text.slice(text.lastIndexOf('Response samples'));
  assert.match(responseSample, /"status": "pending"/);
  assert.match(responseSample, /"power_state": "provisioning"/);
  assert.match(responseSample, /"request_id": "req_/);
  assert.doesNotMatch(responseSample, /sandbox|"active"|"running"/);
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

// Code run in the page (a string: this project is type-checked without the DOM's types).
const FIND_WORD = `([sel, w]) => {
  const el = document.querySelector(sel);
  el.scrollIntoView({ block: 'center' });
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const at = n.textContent.indexOf(w);
    if (at < 0) continue;
    const range = document.createRange();
    range.setStart(n, at);
    range.setEnd(n, at + w.length);
    window.swap = { node: n, at: at + w.indexOf('_') };
    const r = range.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  }
  return null;
}`;
const SWAP = `(c) => { const { node, at } = window.swap; node.textContent = node.textContent.slice(0, at) + c + node.textContent.slice(at + 1); }`;
/** Every pair of inline-code fragments (backgrounds, padding included) that overlap, on different lines or not. */
const CODE_OVERLAPS = `() => {
  const boxes = [...document.querySelectorAll('code')].flatMap((c) => [...c.getClientRects()].map((r) => ({ r, text: c.textContent.slice(0, 40) })));
  const out = [];
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      const across = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
      const down = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
      if (across > 0.5 && down > 0.5) out.push(a.text + ' / ' + b.text + ': ' + down.toFixed(1) + ' px');
    }
  }
  return out;
}`;
const run = <T>(page: Page, fn: string, arg?: unknown): Promise<T> => page.evaluate(`(${fn})(${JSON.stringify(arg ?? null)})`) as Promise<T>;

/**
 * Whether the underscore of `word` (in the element `selector`) can be seen: the pixels around the
 * word change when that underscore becomes a space. An underscore painted over (by the next line's
 * background) reads as a space, and this is false.
 */
async function underscoreShows(page: Page, selector: string, word: string): Promise<boolean> {
  const box = await run<{ x: number; y: number; width: number; height: number } | null>(page, FIND_WORD, [selector, word]);
  assert.ok(box, `${word} in ${selector}`);
  // The word and a few pixels around it, down into the next line.
  const clip = { x: Math.max(0, box.x - 2), y: Math.max(0, box.y - 2), width: box.width + 4, height: box.height + 8 };
  const shown = await page.screenshot({ clip });
  await run(page, SWAP, ' ');
  const blank = await page.screenshot({ clip });
  await run(page, SWAP, '_');
  return !shown.equals(blank);
}

test('/v2/docs/errors: code keeps its underscores, and inline code never overlaps the lines around it', { skip, timeout: 60_000 }, async () => {
  const page = await browser.newPage();
  // Narrow, so that inline code wraps and lines of the envelope sample stack.
  await page.setViewportSize({ width: 600, height: 900 });
  await page.goto(`${origin}/v2/docs/errors`);
  assert.deepEqual(await run(page, CODE_OVERLAPS), []);
  // A code that is a link is not underlined: the underline would run through its underscores.
  assert.equal(await page.locator('tr#VALIDATION_FAILED td a').evaluate((a) => (globalThis as unknown as { getComputedStyle(e: unknown): { textDecorationLine: string } }).getComputedStyle(a).textDecorationLine), 'none');
  assert.equal(await page.locator('tr#VALIDATION_FAILED td code').first().innerText(), 'VALIDATION_FAILED');
  assert.ok(await underscoreShows(page, 'tr#VALIDATION_FAILED td a', 'VALIDATION_FAILED'), 'the code in the table');
  assert.ok(await underscoreShows(page, 'pre', 'VALIDATION_FAILED'), 'the code in the envelope sample');
  assert.ok(await underscoreShows(page, 'pre', 'location_id'), 'a field of the envelope sample');
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
