// GET|PUT /admin/v1/settings/branding: the defaults, a whole replacement, every validation error
// (each naming its field), the SVG checks (script, handlers, javascript: URLs, foreignObject,
// external links), the PNG signature and the size limit; the roles; the audit row, whose logo is
// summarised; `hostcloud admin settings branding get|set`.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { parseLogo } from '../../src/core/branding/logo.ts';
import { adminCli } from '../helpers/admin-cli.ts';
import { adminCall, call, json, startApp } from '../helpers/app.ts';
import { createStaff } from '../helpers/staff.ts';

const t = await startApp();

const PNG_1PX = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const svg = (body: string, attrs = '') => `data:image/svg+xml;base64,${Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"${attrs}>${body}</svg>`).toString('base64')}`;
const GOOD_SVG = svg('<defs><linearGradient id="g"><stop offset="0" stop-color="#f00"/></linearGradient></defs><rect width="10" height="10" fill="url(#g)"/><use href="#g"/>');

const valid = {
  name: 'Acme Cloud', logo: PNG_1PX, primary_color: '#0A7F3F', support_email: 'help@acme.example',
  support_url: 'https://acme.example/support', terms_url: 'https://acme.example/terms', privacy_url: 'http://acme.example/privacy',
};

const put = (body: unknown) => adminCall(t, 'PUT', '/admin/v1/settings/branding', body);
function refused(res: Awaited<ReturnType<typeof put>>, field: string, pattern: RegExp, code = 'INVALID') {
  assert.equal(res.statusCode, 422, res.body);
  const body = json(res);
  assert.equal(body.error.code, 'VALIDATION_FAILED');
  const e = body.error.errors.find((x: { field: string }) => x.field === field);
  assert.ok(e, `an error names ${field}: ${res.body}`);
  assert.match(e.message, pattern);
  assert.equal(e.code, code);
}

test('the defaults before anything is saved: Hostcloud, no logo, updated_at null', async () => {
  const res = await adminCall(t, 'GET', '/admin/v1/settings/branding');
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(json(res).data, {
    name: 'Hostcloud', logo: null, primary_color: '#1f5fbf', support_email: null, support_url: null, terms_url: null, privacy_url: null, updated_at: null,
  });
});

test('PUT replaces the whole branding; GET reads it back; fields left out are cleared', async () => {
  const res = await put(valid);
  assert.equal(res.statusCode, 200, res.body);
  const saved = json(res).data;
  assert.equal(saved.name, 'Acme Cloud');
  assert.equal(saved.primary_color, '#0a7f3f', 'stored lower case');
  assert.equal(saved.logo, PNG_1PX);
  assert.match(saved.updated_at, /^\d{4}-\d\d-\d\dT/);
  assert.deepEqual(json(await adminCall(t, 'GET', '/admin/v1/settings/branding')).data, saved);

  const svgRes = await put({ name: 'Acme', logo: GOOD_SVG, primary_color: '#112233', support_email: 'a@acme.example' });
  assert.equal(svgRes.statusCode, 200, svgRes.body);
  const second = json(svgRes).data;
  assert.equal(second.logo, GOOD_SVG);
  assert.deepEqual([second.support_url, second.terms_url, second.privacy_url], [null, null, null]);
  const none = json(await put({ ...valid, logo: null })).data;
  assert.equal(none.logo, null);
  assert.equal((await t.database.db.selectFrom('branding_settings').selectAll().execute()).length, 1, 'one row');
});

test('the write is audited, the logo summarised rather than kept whole', async () => {
  const big = `data:image/png;base64,${Buffer.concat([Buffer.from(PNG_1PX.split(',')[1]!, 'base64'), Buffer.alloc(5000)]).toString('base64')}`;
  assert.equal((await put({ ...valid, logo: big })).statusCode, 200);
  const log = json(await adminCall(t, 'GET', '/admin/v1/audit-log?action=setBranding')).data;
  assert.ok(log.length >= 1);
  const entry = log[0];
  assert.equal(entry.changes.name, 'Acme Cloud');
  assert.match(entry.changes.logo, /^data:image\/png \(\d+ characters, not kept\)$/);
  assert.ok(!JSON.stringify(entry).includes(big.slice(30, 80)));
  assert.equal(entry.actor.type, 'admin_token');
});

test('every field is checked, and all problems are named at once', async () => {
  const res = await put({ name: '  ', logo: 'https://acme.example/logo.png', primary_color: 'red', support_email: 'nobody', support_url: 'ftp://acme.example', terms_url: 'javascript:alert(1)', privacy_url: 'acme.example' });
  assert.equal(res.statusCode, 422);
  assert.deepEqual(json(res).error.errors.map((e: { field: string }) => e.field).sort(), ['logo', 'name', 'primary_color', 'privacy_url', 'support_email', 'support_url', 'terms_url']);
  const before = json(await adminCall(t, 'GET', '/admin/v1/settings/branding')).data;
  assert.equal(before.name, 'Acme Cloud', 'nothing was changed');
});

test('bad colours', async () => {
  for (const c of ['#fff', 'red', '#12345g', '1f5fbf', '#1f5fbf0', 'rgb(1,2,3)']) refused(await put({ ...valid, primary_color: c }), 'primary_color', /#rrggbb/);
});

test('a name with a line break (it becomes a mail header) or too long', async () => {
  refused(await put({ ...valid, name: 'Acme\r\nBcc: x@evil.example' }), 'name', /one line/);
  refused(await put({ ...valid, name: 'x'.repeat(101) }), 'name', /at most 100/);
});

test('missing required fields and unknown ones are refused by the schema', async () => {
  const { name: _n, ...noName } = valid;
  const res = await put(noName);
  assert.equal(res.statusCode, 422);
  assert.ok(json(res).error.errors.some((e: { field: string }) => e.field === 'name'), res.body);
  assert.equal((await put({ ...valid, colour: '#000000' })).statusCode, 422);
});

test('a PNG whose signature does not match, or not base64, or not an image type', async () => {
  refused(await put({ ...valid, logo: `data:image/png;base64,${Buffer.from('GIF89a not a png at all, but long enough to read').toString('base64')}` }), 'logo', /not a PNG/);
  refused(await put({ ...valid, logo: 'data:image/png;base64,@@@@' }), 'logo', /base64/);
  refused(await put({ ...valid, logo: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' }), 'logo', /PNG or SVG/);
  refused(await put({ ...valid, logo: 'data:image/png;base64,' }), 'logo', /empty/);
});

test('a logo over 256 KB decoded is refused', async () => {
  const png = Buffer.concat([Buffer.from(PNG_1PX.split(',')[1]!, 'base64'), Buffer.alloc(256 * 1024)]);
  refused(await put({ ...valid, logo: `data:image/png;base64,${png.toString('base64')}` }), 'logo', /larger than 256 KB/);
  const bigSvg = `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg"><desc>${'a'.repeat(262_200)}</desc></svg>`)}`;
  refused(await put({ ...valid, logo: bigSvg }), 'logo', /larger than 256 KB/);
  const justUnder = Buffer.concat([Buffer.from(PNG_1PX.split(',')[1]!, 'base64'), Buffer.alloc(256 * 1024 - 100)]);
  assert.equal((await put({ ...valid, logo: `data:image/png;base64,${justUnder.toString('base64')}` })).statusCode, 200);
});

test('an SVG carrying script, or fetching from elsewhere, is refused naming the reason', async () => {
  const cases: [string, RegExp, string][] = [
    [svg('<script>alert(1)</script>'), /<script> element/, 'UNSAFE'],
    [svg('<g><SCRIPT xlink:href="#x"/></g>'), /<SCRIPT> element/, 'UNSAFE'],
    [svg('<rect width="1" height="1"/>', ' onload="alert(1)"'), /event handler attribute \(onload/, 'UNSAFE'],
    [svg('<rect width="1" height="1" ONCLICK="x()"/>'), /event handler/, 'UNSAFE'],
    [svg('<a href="javascript:alert(1)"><rect width="1" height="1"/></a>'), /javascript: URL/, 'UNSAFE'],
    [svg('<a xlink:href="&#106;ava&#x73;cript&#58;alert(1)"><rect width="1" height="1"/></a>'), /javascript: URL/, 'UNSAFE'],
    [svg('<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>'), /<foreignObject> element/, 'UNSAFE'],
    [svg('<image href="https://tracker.example/pixel.png" width="1" height="1"/>'), /links outside itself/, 'INVALID'],
    [svg('<use xlink:href="other.svg#a"/>'), /links outside itself/, 'INVALID'],
    [svg('<rect width="1" height="1" style="fill:url(https://x.example/a)"/>'), /loads something from elsewhere/, 'INVALID'],
    [svg('<style>@import url(https://x.example/a.css);</style>'), /loads something from elsewhere/, 'INVALID'],
    [svg('<set attributeName="xlink:href" to="#a"/>'), /animates a link/, 'INVALID'],
    [`data:image/svg+xml;base64,${Buffer.from('<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>').toString('base64')}`, /DOCTYPE/, 'INVALID'],
    [`data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>').toString('base64')}`, /well-formed/, 'INVALID'],
    [`data:image/svg+xml;base64,${Buffer.from('<html><body/></html>').toString('base64')}`, /root element must be <svg>/, 'INVALID'],
    [`data:image/svg+xml;base64,${Buffer.from('<?xml-stylesheet href="https://x.example/a.css"?><svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')}`, /processing instruction/, 'INVALID'],
  ];
  for (const [logo, reason, code] of cases) refused(await put({ ...valid, logo }), 'logo', reason, code);
  // Percent-encoded (not base64) SVGs are checked the same.
  refused(await put({ ...valid, logo: `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>')}` }), 'logo', /script/, 'UNSAFE');
  assert.equal(parseLogo(GOOD_SVG).type, 'image/svg+xml');
});

test('roles: every role reads; only owner and admin write (settings:write)', async () => {
  for (const role of ['support', 'billing', 'readonly'] as const) {
    const m = await createStaff(t, role);
    assert.equal((await call(t.app, 'GET', '/admin/v1/settings/branding', { key: m.token })).statusCode, 200, role);
    const res = await call(t.app, 'PUT', '/admin/v1/settings/branding', { key: m.token, body: valid });
    assert.equal(res.statusCode, 403, role);
    assert.equal(json(res).error.code, 'AUTH_SCOPE_INSUFFICIENT');
  }
  const admin = await createStaff(t, 'admin');
  assert.equal((await call(t.app, 'PUT', '/admin/v1/settings/branding', { key: admin.token, body: valid })).statusCode, 200);
  assert.equal((await call(t.app, 'GET', '/admin/v1/settings/branding')).statusCode, 401, 'no credentials');
});

test('hostcloud admin settings branding get|set: options change what they name, a logo file is sent as a data URL, refusals in flag terms', async () => {
  const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hc-brand-'));
  try {
    await fs.writeFile(path.join(dir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="4" height="4"/></svg>');
    await fs.writeFile(path.join(dir, 'evil.svg'), '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
    await fs.writeFile(path.join(dir, 'logo.png'), Buffer.from(PNG_1PX.split(',')[1]!, 'base64'));
    await put({ ...valid, name: 'Before CLI' });

    const set = await adminCli(t, url, ['settings', 'branding', 'set', '--name', 'Cli Cloud', '--color', '#123abc', '--logo', path.join(dir, 'logo.svg'), '--privacy-url', 'none']);
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /^branding: set\n/);
    assert.match(set.stdout, /image\/svg\+xml \(\d+ characters; --json shows it\)/);
    const now = json(await adminCall(t, 'GET', '/admin/v1/settings/branding')).data;
    assert.deepEqual([now.name, now.primary_color, now.support_email, now.privacy_url, now.terms_url], ['Cli Cloud', '#123abc', valid.support_email, null, valid.terms_url]);
    assert.match(now.logo, /^data:image\/svg\+xml;base64,/);

    assert.equal((await adminCli(t, url, ['settings', 'branding', 'set', '--logo', path.join(dir, 'logo.png')])).code, 0);
    const got = await adminCli(t, url, ['settings', 'branding', 'get', '--json']);
    assert.equal(JSON.parse(got.stdout).data.logo, PNG_1PX);
    assert.match((await adminCli(t, url, ['settings', 'branding', 'get'])).stdout, /name +Cli Cloud/);

    const bad = await adminCli(t, url, ['settings', 'branding', 'set', '--color', 'teal', '--logo', path.join(dir, 'evil.svg')]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--color must be a colour written #rrggbb/);
    assert.match(bad.stderr, /--logo carries script: an event handler attribute/);
    const nothing = await adminCli(t, url, ['settings', 'branding', 'set']);
    assert.equal(nothing.code, 2);
    assert.match(nothing.stderr, /nothing to set/);
    const help = await adminCli(t, url, ['settings', 'branding', 'set', '--help']);
    assert.match(help.stdout, /^Usage: hostcloud admin settings branding set \[--name TEXT\]/);
    assert.match(help.stdout, /Examples:\n {2}hostcloud admin settings branding set --name "Acme Cloud"/);
    const group = await adminCli(t, url, ['settings', 'branding', '--help']);
    assert.match(group.stdout, /hostcloud admin settings branding get\n[\s\S]*hostcloud admin settings branding set/);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});
