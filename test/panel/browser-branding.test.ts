// The branding in the customer panel, in a real browser (test/helpers/panel-browser.ts): saved by
// the operator while the app runs, the sign-in page shows its name, logo and primary colour at the
// next load (the colour as the --brand custom property the styles use), and the signed-in header
// too; no script error, nothing fetched off 127.0.0.1. Skipped, saying why, without Chromium.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adminCall } from '../helpers/app.ts';
import { browser, heading, invitedOwner, newPage, origin, press, shot, signIn, skip, t, useBrowser } from '../helpers/panel-browser.ts';

// What the functions run in the page use (this project is type-checked without the DOM's types).
interface Img { complete: boolean; naturalWidth: number; getAttribute(n: string): string | null }
declare const document: {
  title: string;
  documentElement: unknown;
  querySelector(s: string): (Img & { textContent: string | null }) | null;
};
declare function getComputedStyle(el: unknown): { getPropertyValue(p: string): string; backgroundColor: string };

useBrowser();

const LOGO_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><rect width="40" height="40" rx="8" fill="#c0392b"/><circle cx="20" cy="20" r="10" fill="#fff"/></svg>';
const BRANDING = {
  name: 'Acme Cloud', logo: `data:image/svg+xml;base64,${Buffer.from(LOGO_SVG).toString('base64')}`, primary_color: '#c0392b',
  support_email: 'help@acme.example', support_url: 'https://acme.example/support', terms_url: 'https://acme.example/terms', privacy_url: 'https://acme.example/privacy',
};

const look = () => ({
  title: document.title,
  name: document.querySelector('.brand .brand-name')?.textContent ?? null,
  brand: getComputedStyle(document.documentElement).getPropertyValue('--brand').trim(),
  button: (() => {
    const b = document.querySelector('button[type="submit"], .btn.primary');
    return b ? getComputedStyle(b).backgroundColor : null;
  })(),
  logo: (() => {
    const img = document.querySelector('.brand img.brand-logo');
    return img ? { loaded: img.complete && img.naturalWidth > 0, src: img.getAttribute('src') } : null;
  })(),
  links: document.querySelector('.brand-links')?.textContent ?? null,
});

test('sign-in page: the defaults, then — saved while the app runs — the name, logo and colour at the next load; the header after sign-in', { skip, timeout: 180_000 }, async () => {
  const context = await browser.createBrowserContext();
  const page = await newPage(context);
  await page.goto(`${origin}/panel/sign-in`);
  await heading(page, 'Sign in');
  const plain = await page.evaluate(look);
  assert.equal(plain.name, 'Hostcloud');
  assert.equal(plain.logo, null);
  assert.equal(plain.links, null);

  const saved = await adminCall(t, 'PUT', '/admin/v1/settings/branding', BRANDING);
  assert.equal(saved.statusCode, 200, saved.body);
  await page.reload();
  await heading(page, 'Sign in');
  await page.waitForFunction(() => { const i = document.querySelector('.brand img.brand-logo'); return !!i && i.complete && i.naturalWidth > 0; });
  const branded = await page.evaluate(look);
  assert.equal(branded.name, 'Acme Cloud');
  assert.match(branded.title, /Acme Cloud/);
  assert.equal(branded.brand, '#c0392b');
  assert.equal(branded.button, 'rgb(192, 57, 43)', 'the primary button takes the colour');
  assert.deepEqual(branded.logo && { loaded: branded.logo.loaded, local: branded.logo.src!.startsWith('/panel/assets/logo?v=') }, { loaded: true, local: true });
  assert.equal(branded.links, 'Support · Terms · Privacy');
  await shot(page, 'branding-sign-in');

  const owner = await invitedOwner(page);
  await signIn(page, owner.email);
  await page.waitForSelector('header.top a.brand img.brand-logo');
  const header = await page.evaluate(look);
  assert.equal(header.name, 'Acme Cloud');
  assert.match(header.title, /· Acme Cloud$/);
  await shot(page, 'branding-header');
  await press(page, 'Sign out');
  await context.close();
});
