// The web console in a real headless Chromium: the single-use viewer_url opens a terminal page
// (xterm.js served by us), typing `echo $((6*7))` shows 42 — from the simulated shell, and from a
// real LXD container's console — and a second open of the same URL is refused. Skipped, saying
// why, without Chromium (and the LXD case without LXD).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { type BrowserContext, chromium } from 'playwright-core';
import { type TestApp, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { lxdSkip } from '../helpers/lxd.ts';
import { startLxdApp } from '../helpers/lxd-app.ts';
import { activeServer, serverBody } from '../helpers/servers.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const found = existsSync(CHROMIUM);
const skip = found ? false : `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`;

let browser: BrowserContext;
let profile: string;
const requests: string[] = [];

before(async () => {
  if (!found) return;
  profile = await fs.mkdtemp(path.join(os.tmpdir(), 'hostcloud-chromium-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    ],
  });
  browser.on('request', (r) => requests.push(r.url()));
}, { timeout: 60_000 });

after(async () => {
  await browser?.close();
  if (profile) await fs.rm(profile, { recursive: true, force: true });
});

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
}

interface Doc {
  getElementById(id: string): { textContent: string | null } | null;
  querySelectorAll(selector: string): ArrayLike<{ textContent: string | null }>;
}

/** Opens the viewer URL, types the command, and waits for 42 on a line of its own in the page's DOM. */
async function fortyTwo(origin: string, viewerUrl: string): Promise<void> {
  const u = new URL(viewerUrl);
  const url = `${origin}${u.pathname}${u.search}`;
  requests.length = 0;
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const res = await page.goto(url);
  assert.equal(res?.status(), 200);
  // These run in the page (whose DOM types this file does not load); not strings: its CSP forbids eval.
  const status = () => (globalThis as unknown as { document: Doc }).document.getElementById('status')?.textContent;
  await page.waitForFunction(() => (globalThis as unknown as { document: Doc }).document.getElementById('status')?.textContent !== 'connecting…', undefined, { timeout: 60_000 });
  assert.equal(await page.evaluate(status), 'connected');
  await page.locator('.xterm-helper-textarea').focus();
  await page.keyboard.type('echo $((6*7))');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => Array.from((globalThis as unknown as { document: Doc }).document.querySelectorAll('.xterm-rows > div'))
    .some((row) => row.textContent?.trim() === '42'), undefined, { timeout: 60_000 });
  assert.deepEqual(errors, []);
  await page.close();
  // The link was spent: a second open is refused.
  const again = await browser.newPage();
  const second = await again.goto(url);
  assert.equal(second?.status(), 409);
  await again.close();
  assert.ok(requests.every((r) => r.startsWith(origin)), requests.filter((r) => !r.startsWith(origin)).join(', '));
}

test('the simulated shell: viewer_url opens a terminal; echo $((6*7)) answers 42; the link works once', { skip, timeout: 120_000 }, async () => {
  const t = await startApp({ worker: 'embedded' });
  try {
    const origin = await listen(t);
    const c = await createCustomer(t, { deposit: '50.00' });
    const server = await activeServer(t, c);
    const res = await call(t.app, 'GET', `/v2/servers/${server.id}/console`, { key: c.key });
    assert.equal(res.statusCode, 200, res.body);
    await fortyTwo(origin, json(res).data.viewer_url);
  } finally {
    // Its worker shares the file's job queue with the LXD case's: left running, it would take that
    // case's create and make it on the simulated platform (a server with no LXD instance to attach to).
    await t.stopWorkers();
  }
});

test('an LXD container\'s console, through our WebSocket: echo $((6*7)) answers 42; the link works once', { skip: skip || lxdSkip, timeout: 180_000 }, async () => {
  const env = await startLxdApp();
  const origin = await listen(env.t);
  const c = await createCustomer(env.t, { deposit: '50.00' });
  const created = await call(env.t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: env.locationId }) });
  assert.equal(created.statusCode, 201, created.body);
  assert.equal((await waitForOperation(env.t, c.key, json(created).data.operation.id, 120_000)).status, 'completed');
  const res = await call(env.t.app, 'GET', `/v2/servers/${json(created).data.id}/console`, { key: c.key });
  assert.equal(res.statusCode, 200, res.body);
  await fortyTwo(origin, json(res).data.viewer_url);
});
