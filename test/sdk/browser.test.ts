// @hostcloud/sdk in a real browser (headless Chromium): bundled for the browser platform with
// esbuild (a Node built-in in it would fail the bundle), loaded by a page whose origin also
// forwards /v2 to the app, then a create (with its Idempotency-Key from WebCrypto), a wait, a
// paged list, an error and a webhook verified with WebCrypto. Skipped, saying why, without Chromium.
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import type * as Sdk from '@hostcloud/sdk';
import { createCustomer, startApp } from '../helpers/app.ts';
import { ROOT } from '../helpers/hc.ts';
import { PASSWORD } from '../helpers/servers.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const skip = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`;

test('the SDK runs in a browser: create, wait, list, error, verifyWebhook', { skip, timeout: 120_000 }, async () => {
  const t = await startApp({ worker: 'embedded', simDelayMs: 20 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const api = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  const c = await createCustomer(t, { deposit: '50.00' });

  const bundle = await build({ entryPoints: [path.join(ROOT, 'packages/sdk/src/index.ts')], bundle: true, format: 'esm', platform: 'browser', target: 'es2022', write: false, logLevel: 'silent' });
  const sdkJs = bundle.outputFiles[0]!.text;

  // The page's origin: the page, the bundle, and /v2 forwarded to the app (as a proxy in front would).
  const creates: string[] = [];
  const site = http.createServer(async (req, res) => {
    if (req.url === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>sdk</title>');
    if (req.url === '/sdk.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(sdkJs);
    const chunks: Buffer[] = [];
    for await (const ch of req) chunks.push(ch as Buffer);
    const headers: Record<string, string> = {};
    for (const h of ['authorization', 'content-type', 'idempotency-key', 'accept']) if (typeof req.headers[h] === 'string') headers[h] = req.headers[h];
    if (req.method === 'POST' && req.url === '/v2/servers') creates.push(headers['idempotency-key'] ?? 'none');
    const answer = await fetch(`${api}${req.url}`, { method: req.method!, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await answer.arrayBuffer()));
  }).listen(0, '127.0.0.1');
  await once(site, 'listening');
  const origin = `http://127.0.0.1:${(site.address() as { port: number }).port}`;

  const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'hostcloud-sdk-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'],
  });
  after(async () => {
    await browser.close();
    site.closeAllConnections();
    site.close();
    await fs.rm(profile, { recursive: true, force: true });
  });
  const errors: string[] = [];
  const page = await browser.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(origin);

  const key = randomBytes(24);
  const body = JSON.stringify({ id: 'evt_1', type: 'server.created', created_at: '2026-11-27T10:00:00Z', resource: { type: 'server', id: 'srv_1' }, data: {} });
  const ts = Math.floor(Date.now() / 1000);
  const webhook = {
    secret: `whsec_${key.toString('base64')}`,
    headers: { 'webhook-id': 'evt_1', 'webhook-timestamp': String(ts), 'webhook-signature': `v1,${createHmac('sha256', key).update(`evt_1.${ts}.${body}`).digest('base64')}` },
    body,
  };

  const result = await page.evaluate(async ({ token, password, webhook }) => {
    // Runs in the page: the bundle, typed as the package it was made from; the page's globals.
    const { Hostcloud, HostcloudError, verifyWebhook } = (await import('/sdk.js' as string)) as typeof Sdk;
    const win = globalThis as unknown as { location: { origin: string }; isSecureContext: boolean };
    const hc = new Hostcloud({ baseUrl: win.location.origin, token });
    const created = await hc.servers.create({ name: 'browser-1.example.com', location_id: 1, plan_id: 1, os_version_id: 1, password });
    const op = await hc.operations.wait(created.operation.id, { timeoutMs: 30_000, pollIntervalMs: 50 });
    await hc.servers.create({ name: 'browser-2.example.com', location_id: 1, plan_id: 1, os_version_id: 1, password });
    const ids: string[] = [];
    for await (const s of hc.servers.list({ per_page: 1 })) ids.push(s.id);
    const code = await hc.servers.get('srv_nope').then(() => 'none', (e: unknown) => (e instanceof HostcloudError ? `${e.status} ${e.code} ${e.requestId ? 'with id' : 'no id'}` : String(e)));
    const event = await verifyWebhook(webhook.secret, new Headers(webhook.headers), webhook.body);
    const refused = await verifyWebhook(webhook.secret, new Headers(webhook.headers), webhook.body.replace('srv_1', 'srv_2')).then(() => 'accepted', (e: Error) => e.name);
    const answer = await hc.request({ method: 'POST', path: '/servers', body: {}, idempotencyKey: crypto.randomUUID() }).then(() => null, (e: { status: number }) => e.status);
    return { created: created.id, op: op.status, ids, code, event: event.id, refused, answer, secure: win.isSecureContext };
  }, { token: c.key, password: PASSWORD, webhook });

  assert.deepEqual(errors, []);
  assert.equal(result.secure, true);
  assert.equal(result.op, 'completed');
  assert.equal(result.ids.length, 2);
  assert.ok(result.ids.includes(result.created));
  assert.equal(result.code, '404 RESOURCE_NOT_FOUND with id');
  assert.equal(result.event, 'evt_1');
  assert.equal(result.refused, 'WebhookVerificationError');
  assert.equal(result.answer, 422);
  // Each create carried its own Idempotency-Key, made by the browser's WebCrypto.
  assert.equal(creates.length, 3);
  assert.equal(new Set(creates).size, 3);
  assert.ok(creates.every((k) => /^[0-9a-f-]{36}$/.test(k)), creates.join());
});
