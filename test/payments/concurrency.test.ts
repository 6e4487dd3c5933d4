// Exactly once under concurrency, through two app instances on one database, each with its own
// connection pool (as two API processes): 50 top-ups of one account paid at the same moment get
// invoice numbers 1..50 with no gap and no duplicate; one payment confirmed 20 times at once —
// Stripe webhooks (redeliveries and distinct events) and simulated checkout clicks — credits one
// deposit and issues one invoice. Requests go over real sockets on 127.0.0.1. The figures are printed.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import Stripe from 'stripe';
import { type TestApp, createCustomer, startApp } from '../helpers/app.ts';
import { assertLedger } from '../helpers/billing.ts';
import { STRIPE_SECRET, fakeStripe, instance, sessionOf, setSeller, startTopUp, stripeConfig, stripeEvent } from '../helpers/payments.ts';
import type { App } from '../../src/http/app.ts';

let t: TestApp;
let sim: [App, App];
let urls: [string, string];
before(async () => {
  t = await startApp();
  sim = [await instance(t), await instance(t)];
  urls = [await sim[0].listen({ port: 0, host: '127.0.0.1' }), await sim[1].listen({ port: 0, host: '127.0.0.1' })];
});

const year = new Date().getUTCFullYear();
const count = async (table: 'invoices' | 'transactions', accountId: string) =>
  (await t.database.db.selectFrom(table).select('account_id').where('account_id', '=', accountId).execute()).length;

function pay(base: string, session: string) {
  return fetch(`${base}/payments/simulated/checkout/${session}`, {
    method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'action=pay&confirmation=now',
  });
}

test('50 top-ups of one account paid at once: invoice numbers 1..50, no gap, no duplicate, 50 deposits', async () => {
  const c = await createCustomer(t);
  const started = await Promise.all(Array.from({ length: 50 }, (_, i) => startTopUp(sim[i % 2]!, c.accountId, `${5 + i}.00`)));
  const t0 = performance.now();
  const answers = await Promise.all(started.map((p, i) => pay(urls[i % 2]!, sessionOf(p.checkout_url))));
  const ms = performance.now() - t0;
  assert.deepEqual(answers.map((r) => r.status), Array(50).fill(303));
  const rows = await t.database.db.selectFrom('invoices').select(['seq', 'number', 'year', 'payment_id']).where('account_id', '=', c.accountId).orderBy('seq').execute();
  assert.deepEqual(rows.map((r) => r.seq), Array.from({ length: 50 }, (_, i) => i + 1));
  assert.deepEqual(rows.map((r) => r.number), Array.from({ length: 50 }, (_, i) => `INV-${year}-${String(i + 1).padStart(6, '0')}`));
  assert.equal(new Set(rows.map((r) => r.payment_id)).size, 50, 'one invoice per payment');
  const counter = await t.database.db.selectFrom('invoice_counters').selectAll().where('series', '=', 'invoice').where('year', '=', year).executeTakeFirstOrThrow();
  assert.equal(counter.last_number, 50);
  const expected = started.reduce((sum, _p, i) => sum + (5 + i) * 100, 0);
  assert.equal(await assertLedger(t, c.accountId), expected);
  process.stdout.write(`# concurrency: 50 parallel top-ups of one account through 2 instances paid in ${ms.toFixed(0)} ms; invoice numbers 1..50, no gap, no duplicate\n`);
});

test('one simulated payment confirmed 20 times at once through two instances: one deposit, one invoice', async () => {
  const c = await createCustomer(t);
  const p = await startTopUp(sim[0], c.accountId, '42.00');
  const session = sessionOf(p.checkout_url);
  const t0 = performance.now();
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => pay(urls[i % 2]!, session)));
  const ms = performance.now() - t0;
  assert.deepEqual(answers.map((r) => r.status), Array(20).fill(303));
  assert.equal(await count('transactions', c.accountId), 1);
  assert.equal(await count('invoices', c.accountId), 1);
  assert.equal(await assertLedger(t, c.accountId), 4200);
  process.stdout.write(`# concurrency: 1 simulated payment confirmed 20 times in parallel through 2 instances in ${ms.toFixed(0)} ms → 1 deposit, 1 invoice\n`);
});

test('one Stripe payment confirmed by 20 signed webhooks at once through two instances: one deposit, one invoice', async () => {
  const stripe = await fakeStripe();
  const apps = [await instance(t, stripeConfig(stripe.url)), await instance(t, stripeConfig(stripe.url))];
  await setSeller(t);
  const bases = [await apps[0]!.listen({ port: 0, host: '127.0.0.1' }), await apps[1]!.listen({ port: 0, host: '127.0.0.1' })];
  const c = await createCustomer(t);
  const p = await startTopUp(apps[0]!, c.accountId, '33.00');
  const session = stripe.complete(p.provider_ref);
  const now = Math.floor(Date.now() / 1000);
  // Ten redeliveries of one event (each signed anew, as Stripe's retries are) and ten distinct events about the session.
  const event = stripeEvent('checkout.session.completed', session, 'evt_same');
  const deliveries = Array.from({ length: 20 }, (_, i) => {
    const payload = i < 10 ? event : stripeEvent(i % 2 ? 'checkout.session.completed' : 'checkout.session.async_payment_succeeded', session);
    return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_SECRET, timestamp: now - i }) };
  });
  const t0 = performance.now();
  const answers = await Promise.all(deliveries.map((d, i) => fetch(`${bases[i % 2]}/payments/stripe/webhook`, {
    method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': d.signature }, body: d.payload,
  }).then(async (r) => ({ status: r.status, body: await r.json() as { outcome?: string } }))));
  const ms = performance.now() - t0;
  assert.deepEqual(answers.map((a) => a.status), Array(20).fill(200), JSON.stringify(answers));
  const outcomes = answers.map((a) => a.body.outcome).sort();
  assert.deepEqual(outcomes, ['already_paid', ...Array(18).fill('already_paid'), 'credited'].sort());
  assert.equal(await count('transactions', c.accountId), 1);
  assert.equal(await count('invoices', c.accountId), 1);
  assert.equal(await assertLedger(t, c.accountId), 3300);
  process.stdout.write(`# concurrency: 1 Stripe payment, 20 signed webhooks in parallel through 2 instances in ${ms.toFixed(0)} ms → 1 credited, 19 already_paid; 1 deposit, 1 invoice\n`);
});
