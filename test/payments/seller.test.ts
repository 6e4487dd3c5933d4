// Invoices always name a seller. A new database starts with a demo seller (clearly marked, for the
// simulated payments of a first run); a top-up is refused with a clear error while the seller's
// company name or address is blank, and with a real provider (Stripe) while it is still the demo
// seller; the operator cannot blank them again; `hostcloud serve` warns at start when top-ups
// would be refused.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { type TestApp, adminCall, createCustomer, json, startApp } from '../helpers/app.ts';
import { clickCheckout, customerCall, fakeStripe, instance, sessionOf, startTopUp, stripeConfig } from '../helpers/payments.ts';
import { DEMO_SELLER } from '../../src/db/seed.ts';
import type { App } from '../../src/http/app.ts';

let t: TestApp;
let sim: App;
let stripeApp: App;
let stripe: Awaited<ReturnType<typeof fakeStripe>>;
before(async () => {
  t = await startApp();
  sim = await instance(t);
  stripe = await fakeStripe();
  stripeApp = await instance(t, stripeConfig(stripe.url));
});

const settings = async () => json(await adminCall(t, 'GET', '/admin/v1/invoice-settings')).data;
const payments = async (accountId: string) => (await t.database.db.selectFrom('payments').select('id').where('account_id', '=', accountId).execute()).length;

test('a new database names the demo seller; a simulated top-up is invoiced by it, never by a blank seller', async () => {
  const s = await settings();
  assert.equal(s.company_name, DEMO_SELLER.name);
  assert.equal(s.address, DEMO_SELLER.address);
  assert.match(s.company_name, /demo/i);
  const c = await createCustomer(t);
  const started = await startTopUp(sim, c.accountId, '5.00');
  await clickCheckout(sim, sessionOf(started.checkout_url), 'pay');
  const p = json(await customerCall(sim, c.accountId, 'GET', `/top-ups/${started.id}`)).data;
  const row = await t.database.db.selectFrom('invoices').select('seller').where('id', '=', p.invoice_id).executeTakeFirstOrThrow();
  assert.equal(row.seller.name, DEMO_SELLER.name);
  assert.equal(row.seller.address, DEMO_SELLER.address);
});

test('Stripe takes real money: a top-up is refused while the seller is the demo one, and accepted once the operator set theirs', async () => {
  const c = await createCustomer(t);
  const refused = await customerCall(stripeApp, c.accountId, 'POST', '/top-ups', { amount: '10.00' });
  assert.equal(refused.statusCode, 409, refused.body);
  assert.equal(json(refused).error.code, 'STATE_CONFLICT');
  assert.match(json(refused).error.message, /company name and address/);
  assert.equal(await payments(c.accountId), 0, 'nothing started');
  assert.equal(stripe.sessions.size, 0, 'no Checkout Session opened');

  // Only the name: the address is still the demo one.
  await adminCall(t, 'POST', '/admin/v1/invoice-settings', { company_name: 'Example Hosting GmbH' });
  assert.equal((await customerCall(stripeApp, c.accountId, 'POST', '/top-ups', { amount: '10.00' })).statusCode, 409);
  await adminCall(t, 'POST', '/admin/v1/invoice-settings', { address: 'Hauptstr. 1\n10115 Berlin' });
  const ok = await customerCall(stripeApp, c.accountId, 'POST', '/top-ups', { amount: '10.00' });
  assert.equal(ok.statusCode, 201, ok.body);
});

test('blank company details (never set): every top-up is refused, nothing is started; the operator cannot blank them', async () => {
  await sql`UPDATE invoice_settings SET company_name = '', address = ''`.execute(t.database.db);
  try {
    const c = await createCustomer(t);
    const refused = await customerCall(sim, c.accountId, 'POST', '/top-ups', { amount: '10.00' });
    assert.equal(refused.statusCode, 409, refused.body);
    assert.match(json(refused).error.message, /Top-up is not available yet: .*company name and address/);
    assert.equal(await payments(c.accountId), 0);
  } finally {
    await adminCall(t, 'POST', '/admin/v1/invoice-settings', { company_name: 'Example Hosting GmbH', address: 'Hauptstr. 1\n10115 Berlin' });
  }
  for (const body of [{ company_name: '' }, { address: '  \n ' }]) {
    const res = await adminCall(t, 'POST', '/admin/v1/invoice-settings', body);
    assert.equal(res.statusCode, 422, `${JSON.stringify(body)}: ${res.body}`);
  }
  assert.equal((await settings()).company_name, 'Example Hosting GmbH');
});

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

/** Starts `hostcloud serve` on this file's database and collects its JSON log until it listens; then stops it. */
async function serveLog(env: Record<string, string>): Promise<string> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'hc-seller-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, [path.join(root, 'bin/hostcloud.js'), 'serve'], {
    cwd: root, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATABASE_URL: t.databaseUrl, DATA_DIR: dataDir, ADMIN_TOKEN: 'test-admin-seller-0123456789abcdef', PORT: '0', HOST: '127.0.0.1', WORKER: 'off', LOG_FORMAT: 'json', LOG_LEVEL: 'info', REDIS_URL: '', ...env },
  });
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  try {
    // The warning is logged right after the banner ("listen"), before anything else can happen.
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`serve did not start: ${out}`)), 60_000);
      const check = () => {
        if (/"msg":"hostcloud listening"/.test(out) && /"msg":"(top-ups are refused|payments ready)/.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', check);
      child.on('exit', () => { clearTimeout(timer); reject(new Error(`serve exited: ${out}`)); });
    });
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
  return out;
}

test('hostcloud serve warns at start when top-ups would be refused for want of company details', async () => {
  await sql`UPDATE invoice_settings SET company_name = ${DEMO_SELLER.name}, address = ${DEMO_SELLER.address}`.execute(t.database.db);
  const stripeEnv = { PAYMENTS: 'stripe', STRIPE_SECRET_KEY: 'sk_test_hostcloud', STRIPE_WEBHOOK_SECRET: 'whsec_test_hostcloud', STRIPE_API_URL: stripe.url };
  const warned = await serveLog(stripeEnv);
  const line = warned.split('\n').find((l) => l.includes('top-ups are refused'));
  assert.ok(line, warned);
  const entry = JSON.parse(line);
  assert.equal(entry.level, 40, 'a warning');
  assert.match(entry.msg, /PAYMENTS=stripe/);
  assert.match(entry.msg, /hostcloud admin invoice-settings set/);
  // The command as it runs from any directory (node, this checkout's bin/hostcloud.js, the URL).
  assert.match(entry.fix, /ADMIN_TOKEN="\$ADMIN_TOKEN" .*bin\/hostcloud\.js admin --url http:\/\/127\.0\.0\.1:\d+ invoice-settings set --company-name/);
  // The demo seller serves simulated payments: no warning.
  assert.doesNotMatch(await serveLog({ PAYMENTS: 'simulated' }), /top-ups are refused/);
});
