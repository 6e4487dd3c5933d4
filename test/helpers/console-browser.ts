// The operator console in a real browser: the panel's browser harness (test/helpers/panel-browser.ts:
// the app on 127.0.0.1, one Chromium, no script error, no request off 127.0.0.1), plus the console's
// own steps — an invited member's first sign-in with its forced TOTP enrolment — and screenshots
// under test-output/console/.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'puppeteer-core';
import { totpCode } from '../../src/core/panel/totp.ts';
import type { StaffRole } from '../../src/db/schema.ts';
import { PASSWORD, control, evidence, fill, heading, origin, press, t } from './panel-browser.ts';
import { adminCall, json } from './app.ts';

// What the functions run in the page use (this project is type-checked without the DOM's types).
interface El { textContent: string | null; value: string }

const SHOTS = path.resolve('test-output/console');

export async function consoleShot(page: Page, name: string): Promise<void> {
  await fs.mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

export interface BrowserStaff {
  id: string;
  email: string;
  role: StaffRole;
  totpSecret: string;
  recoveryCodes: string[];
}

/** An owner invites (admin API); the member sets its password on the link's page, signs in and enrols. */
export async function invitedMember(page: Page, role: StaffRole, name = `Member ${role}`): Promise<BrowserStaff> {
  const email = `${role}-${Math.random().toString(36).slice(2, 8)}@staff.test`;
  const res = await adminCall(t, 'POST', '/admin/v1/staff', { email, name, role });
  if (res.statusCode !== 201) throw new Error(`invite: ${res.statusCode} ${res.body}`);
  const m = json(res).data;
  await page.goto(String(m.url).replace(t.config.publicUrl, origin));
  await heading(page, 'Welcome to the Hostcloud console');
  await fill(page, 'New password', PASSWORD);
  await fill(page, 'Confirm password', PASSWORD);
  await press(page, 'Set password');
  await heading(page, 'Password set');
  await control(page, 'Sign in', 'link').click();
  await heading(page, 'Sign in');
  await fill(page, 'Password', PASSWORD);
  await press(page, 'Sign in');
  await heading(page, 'Set up two-factor');
  await page.waitForSelector('img.qr');
  const totpSecret = await control(page, 'Key').map((el) => (el as El).value).wait();
  await fill(page, 'Code', totpCode(totpSecret, new Date()));
  await press(page, 'Turn on two-factor');
  await heading(page, 'Recovery codes');
  const recoveryCodes = await evidence(page, 'recovery codes', () => page.$$eval('ul[aria-label="Recovery codes"] li', (els) => els.map((e) => (e as unknown as El).textContent ?? '')));
  await press(page, 'Continue');
  await page.waitForSelector('nav[aria-label="Main"]');
  return { id: m.id, email, role, totpSecret, recoveryCodes };
}

/** Password, then the next TOTP step's code (the enrolment spent this one's). */
export async function consoleSignIn(page: Page, s: BrowserStaff): Promise<void> {
  await page.goto(`${origin}/admin/sign-in`);
  await heading(page, 'Sign in');
  await fill(page, 'Email', s.email);
  await fill(page, 'Password', PASSWORD);
  await press(page, 'Sign in');
  await heading(page, 'Two-factor code');
  await fill(page, 'Code', totpCode(s.totpSecret, new Date(Date.now() + 30_000)));
  await press(page, 'Sign in');
  await page.waitForSelector('nav[aria-label="Main"]');
}

/** The labels of the main navigation. */
export function navLabels(page: Page): Promise<string[]> {
  return page.$$eval('nav[aria-label="Main"] a', (els) => els.map((e) => (e as unknown as El).textContent ?? ''));
}
