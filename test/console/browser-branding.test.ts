// The Branding page of the console, in Chromium: an admin uploads a logo and sets the name and
// colour; the live preview follows every keystroke before anything is saved; Save stores it (the
// admin API reads it back) and the console's header shows the new name at once. An SVG logo that
// carries script is refused under the logo field; a read-only member sees the values and no Save.
// Screenshots under test-output/console/.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import type { ElementHandle } from 'puppeteer-core';
import { consoleShot, invitedMember } from '../helpers/console-browser.ts';
import { browser, control, evidence, fill, heading, newPage, origin, press, skip, t, useBrowser } from '../helpers/panel-browser.ts';
import { adminCall, json } from '../helpers/app.ts';

useBrowser();

// What the functions run in the page use (this project is type-checked without the DOM's types).
interface El { textContent: string | null }
declare const document: { querySelector(s: string): El | null; body: { innerText: string } };
declare function getComputedStyle(el: unknown): { backgroundColor: string };

const LOGO = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="8" fill="#c0392b"/><circle cx="20" cy="20" r="10" fill="#fff"/></svg>';

test('branding page: upload, live preview, save; the header follows; a scripted SVG is refused; read-only sees no Save', { skip, timeout: 240_000 }, async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hc-console-brand-'));
  await fs.writeFile(path.join(dir, 'logo.svg'), LOGO);
  await fs.writeFile(path.join(dir, 'evil.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  const context = await browser.createBrowserContext();
  const page = await newPage(context);
  await invitedMember(page, 'admin', 'Ada Admin');
  assert.equal(await page.$eval('header.top .brand-name', (el) => (el as unknown as El).textContent), 'Hostcloud');

  await page.goto(`${origin}/admin/settings`);
  await heading(page, 'Settings');
  await control(page, 'Branding', 'link').click();
  await heading(page, 'Branding');

  const upload = async (file: string) => {
    const input = await page.$('input[type="file"]');
    assert.ok(input, 'a file input');
    await (input as unknown as ElementHandle<never>).uploadFile(path.join(dir, file));
  };
  await fill(page, 'Name', 'Acme Cloud');
  await fill(page, 'Primary colour', '#c0392b');
  await fill(page, 'Support email', 'help@acme.example');
  await fill(page, 'Terms URL', 'https://acme.example/terms');
  await upload('logo.svg');
  await evidence(page, 'the preview shows the logo', () => page.waitForSelector('.brand-preview .preview-top img.brand-logo'));
  const preview = await page.evaluate(() => ({
    name: document.querySelector('.brand-preview .preview-name')?.textContent,
    button: getComputedStyle(document.querySelector('.brand-preview .preview-button')).backgroundColor,
    links: document.querySelector('.brand-preview .preview-links')?.textContent,
  }));
  assert.deepEqual(preview, { name: 'Acme Cloud', button: 'rgb(192, 57, 43)', links: 'Support · Terms' }, 'the preview follows before saving');
  assert.equal(json(await adminCall(t, 'GET', '/admin/v1/settings/branding')).data.updated_at, null, 'nothing saved yet');
  await consoleShot(page, 'branding-preview');

  await press(page, 'Save');
  await evidence(page, 'saved', () => page.waitForFunction(() => document.body.innerText.includes('Saved ')));
  const saved = json(await adminCall(t, 'GET', '/admin/v1/settings/branding')).data;
  assert.deepEqual([saved.name, saved.primary_color, saved.support_email, saved.terms_url, saved.privacy_url], ['Acme Cloud', '#c0392b', 'help@acme.example', 'https://acme.example/terms', null]);
  assert.equal(Buffer.from(saved.logo.split(',')[1], 'base64').toString('utf8'), LOGO);
  await evidence(page, 'the header follows', () => page.waitForFunction(() => document.querySelector('header.top .brand-name')?.textContent === 'Acme Cloud'));
  await page.waitForSelector('header.top img.brand-logo');
  await consoleShot(page, 'branding-saved');

  await upload('evil.svg');
  await press(page, 'Save');
  await evidence(page, 'the logo refused', () => page.waitForFunction(() => /carries script: a <script> element is refused/.test(document.body.innerText)));
  await consoleShot(page, 'branding-refused');
  assert.equal(Buffer.from(json(await adminCall(t, 'GET', '/admin/v1/settings/branding')).data.logo.split(',')[1], 'base64').toString('utf8'), LOGO, 'nothing changed');
  await context.close();

  const readerContext = await browser.createBrowserContext();
  const reader = await newPage(readerContext);
  await invitedMember(reader, 'readonly', 'Rita Reader');
  await evidence(reader, 'the reader\'s header', () => reader.waitForFunction(() => document.querySelector('header.top .brand-name')?.textContent === 'Acme Cloud'));
  await reader.goto(`${origin}/admin/settings/branding`);
  await heading(reader, 'Branding');
  await reader.waitForSelector('input[name="name"][readonly]');
  assert.equal(await reader.$('input[type="file"]'), null);
  assert.equal(await control(reader, 'Save', 'button').setTimeout(300).wait().then(() => true, () => false), false, 'no Save for a reader');
  await readerContext.close();
  await fs.rm(dir, { recursive: true, force: true });
});
