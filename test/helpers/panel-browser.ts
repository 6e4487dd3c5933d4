// The customer panel in a real browser, shared by its browser tests: Debian's Chromium driven by
// puppeteer-core against the real app (with its worker) on 127.0.0.1, controls found by their
// accessible names, screenshots under test-output/panel/, and on a failure what the page showed.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { after, before } from 'node:test';
import puppeteer, { type Browser, type BrowserContext, type Page } from 'puppeteer-core';
import type { Config } from '../../src/config.ts';
import { type Customer, type TestApp, adminCall, createCustomer, json, startApp } from './app.ts';

// What the functions run in the page use (this project is type-checked without the DOM's types).
interface El { textContent: string | null; value: string }
declare const document: {
  activeElement: (El & { tagName: string; getAttribute(n: string): string | null }) | null;
  querySelector(s: string): El | null;
  querySelectorAll(s: string): ArrayLike<El> & Iterable<El>;
  documentElement: { scrollWidth: number };
  body: { innerText: string };
};
type HTMLInputElement = El;

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const found = existsSync(CHROMIUM);
export const skip = found ? false : `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`;
const SHOTS = path.resolve('test-output/panel');
export const PASSWORD = 'a long and lovely passphrase';
const DESKTOP = { width: 1280, height: 860 };
export const PHONE = { width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };

export let t: TestApp;
export let origin: string;
export let browser: Browser;
const pageErrors: string[] = [];
const offsite: string[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Registers the file's hooks: the app (with its worker, and these settings) on a port, and one Chromium. */
export function useBrowser(overrides: Partial<Config> = {}): void {
  before(async () => {
  if (!found) return;
  // PUBLIC_URL is the real origin, so mailed links and the checkout's way back work in the browser.
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  t = await startApp({ ...overrides, worker: 'embedded', publicUrl: origin });
  await t.app.listen({ port, host: '127.0.0.1' });
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
  });
  await fs.mkdir(SHOTS, { recursive: true });
}, { timeout: 60_000 });

  after(async () => {
    await browser?.close();
    assert.deepEqual(pageErrors, [], 'no script errors on any page');
    assert.deepEqual(offsite, [], 'no request left 127.0.0.1');
  });
}

export async function newPage(context: BrowserContext, viewport = DESKTOP): Promise<Page> {
  const page = await context.newPage();
  await page.setViewport(viewport);
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('request', (r) => { if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) offsite.push(r.url()); });
  page.setDefaultTimeout(20_000);
  return page;
}

/** The control with this accessible name (and role). */
export function control(page: Page, name: string, role = 'textbox') {
  return page.locator(`::-p-aria([name="${name}"][role="${role}"])`);
}

/** On a failure, what the page showed: a screenshot and its text, in test-output/panel/. */
export async function evidence<T>(page: Page, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    const name = `failed-${what.replace(/\W+/g, '-').slice(0, 40)}`;
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`) }).catch(() => {});
    const text = await page.evaluate(() => document.body.innerText).catch(() => '(no text)');
    throw new Error(`${what}: ${e instanceof Error ? e.message : String(e)}\n--- page ${page.url()} ---\n${text.slice(0, 1500)}`);
  }
}

export async function fill(page: Page, label: string, value: string, role = 'textbox'): Promise<void> {
  const h = await evidence(page, `find "${label}"`, () => control(page, label, role).waitHandle());
  await h.click({ count: 3 });
  await h.evaluate((el) => { (el as HTMLInputElement).value = ''; });
  await h.type(value);
}

export async function press(page: Page, name: string): Promise<void> {
  await evidence(page, `press "${name}"`, () => control(page, name, 'button').click());
}

export async function heading(page: Page, text: string): Promise<void> {
  await evidence(page, `heading "${text}"`, () => page.waitForFunction((t) => document.querySelector('h1')?.textContent?.includes(t), {}, text));
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** A panel link of a mail, on this test's origin (links carry PUBLIC_URL). */
const local = (url: string) => url.replace(t.config.publicUrl, origin);

export async function signIn(page: Page, email: string, code?: () => string): Promise<void> {
  await page.goto(`${origin}/panel/sign-in`);
  await fill(page, 'Email', email);
  await fill(page, 'Password', PASSWORD);
  await press(page, 'Sign in');
  if (code) {
    await heading(page, 'Two-factor code');
    await fill(page, 'Code', code());
    await press(page, 'Sign in');
  }
  await page.waitForSelector('nav[aria-label="Main"]');
}

export async function acceptInvitation(page: Page, url: string): Promise<void> {
  await page.goto(local(url));
  await fill(page, 'New password', PASSWORD);
  await fill(page, 'Confirm password', PASSWORD);
  await press(page, 'Set password');
  await heading(page, 'Password set');
  await control(page, 'Sign in', 'link').click();
  await heading(page, 'Sign in');
}

/** An account whose owner was invited by the operator and accepted in this browser context. */
export async function invitedOwner(page: Page): Promise<Customer & { email: string }> {
  const c = await createCustomer(t, { deposit: '200.00' });
  const email = json(await adminCall(t, 'GET', `/admin/v1/accounts/${c.accountId}`)).data.email as string;
  const inv = json(await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/panel-invitation`)).data;
  await acceptInvitation(page, inv.url);
  return { ...c, email };
}

