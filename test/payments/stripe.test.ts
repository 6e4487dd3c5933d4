// PAYMENTS=stripe against a stand-in for Stripe's API on 127.0.0.1: a top-up opens a Checkout
// Session for the gross amount in USD cents; POST /payments/stripe/webhook takes only events
// signed with STRIPE_WEBHOOK_SECRET (made with the package's own generateTestHeaderString): a
// `checkout.session.completed` of a paid session credits once and issues the invoice; a wrong
// signature, an old timestamp, a replay of the very same request → 400 and no credit; a
// redelivery (a new signature) → 200 and no second credit; a failed async payment → declined.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import Stripe from 'stripe';
import { type TestApp, adminCall, createCustomer, json, startApp } from '../helpers/app.ts';
import { assertLedger } from '../helpers/billing.ts';
import { STRIPE_SECRET, customerCall, fakeStripe, instance, setSeller, startTopUp, stripeConfig, stripeEvent } from '../helpers/payments.ts';
import type { App } from '../../src/http/app.ts';
import { logLines, metric } from '../telemetry/helpers.ts';

let t: TestApp;
let app: App;
let stripe: Awaited<ReturnType<typeof fakeStripe>>;
before(async () => {
  t = await startApp();
  stripe = await fakeStripe();
  app = await instance(t, stripeConfig(stripe.url));
  await setSeller(t);
});

const sign = (payload: string, opts: { timestamp?: number; secret?: string } = {}) =>
  Stripe.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? STRIPE_SECRET, ...(opts.timestamp !== undefined ? { timestamp: opts.timestamp } : {}) });

function deliver(payload: string, signature: string | undefined, target: App = app) {
  return target.inject({
    method: 'POST', url: '/payments/stripe/webhook', remoteAddress: '127.0.0.1',
    headers: { 'content-type': 'application/json; charset=utf-8', ...(signature !== undefined ? { 'stripe-signature': signature } : {}) }, payload,
  });
}

const depositsOf = async (accountId: string) => (await t.database.db.selectFrom('transactions').select('id').where('account_id', '=', accountId).where('type', '=', 'deposit').execute()).length;

async function paidSession(amount = '20.00') {
  const c = await createCustomer(t);
  const started = await startTopUp(app, c.accountId, amount);
  assert.match(started.checkout_url, /^https:\/\/checkout\.stripe\.test\//);
  const session = stripe.complete(started.provider_ref);
  return { c, started, session };
}

test('a top-up opens a Checkout Session: gross in USD cents, our payment id as its reference', async () => {
  await adminCall(t, 'PUT', '/admin/v1/tax-rates/NL', { rate: '21', label: 'VAT' });
  const c = await createCustomer(t);
  await adminCall(t, 'PATCH', `/admin/v1/accounts/${c.accountId}`, { country: 'NL' });
  const started = await startTopUp(app, c.accountId, '100.00');
  const s = stripe.sessions.get(started.provider_ref)!;
  assert.equal(s.amount_total, 12100);
  assert.equal(s.currency, 'usd');
  assert.equal(s.client_reference_id, started.id);
  assert.match(String(s.success_url), new RegExp(`^http://api\\.test/panel/billing/top-up\\?payment=${started.id}&result=paid$`));
});

test('a signed checkout.session.completed credits the deposit once and issues the invoice; a redelivery credits nothing more', async () => {
  const { c, started, session } = await paidSession('20.00');
  const payload = stripeEvent('checkout.session.completed', session);
  const res = await deliver(payload, sign(payload));
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(json(res).outcome, 'credited');
  assert.equal(await assertLedger(t, c.accountId), 2000);
  const p = json(await customerCall(app, c.accountId, 'GET', `/top-ups/${started.id}`)).data;
  assert.equal(p.status, 'paid');
  assert.match(p.invoice_id, /^inv_/);
  const row = await t.database.db.selectFrom('payments').select('provider_charge_ref').where('id', '=', started.id).executeTakeFirstOrThrow();
  assert.equal(row.provider_charge_ref, session.payment_intent);

  // Stripe retries with a fresh signature: accepted, nothing more credited.
  const again = await deliver(payload, sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 5 }));
  assert.equal(again.statusCode, 200);
  assert.equal(json(again).outcome, 'already_paid');
  assert.equal(await depositsOf(c.accountId), 1);
});

test('wrong signature, wrong secret, old timestamp, no header, replay: 400 and no credit', async () => {
  const { c, session } = await paidSession('15.00');
  const payload = stripeEvent('checkout.session.completed', session);
  const good = sign(payload);
  const cases: [string, string | undefined][] = [
    ['tampered body', good],
    ['wrong secret', sign(payload, { secret: 'whsec_someone_else' })],
    ['old timestamp', sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 301 })],
    ['no header', undefined],
    ['garbage header', 't=1,v1=abc'],
  ];
  for (const [what, sig] of cases) {
    const body = what === 'tampered body' ? payload.replace('"paid"', '"paid" ') : payload;
    const res = await deliver(body, sig);
    assert.equal(res.statusCode, 400, `${what}: ${res.body}`);
    assert.equal(json(res).error.code, 'REQUEST_MALFORMED', what);
  }
  assert.equal(await depositsOf(c.accountId), 0, 'nothing credited by any of them');

  const first = await deliver(payload, good);
  assert.equal(first.statusCode, 200, first.body);
  const replay = await deliver(payload, good);
  assert.equal(replay.statusCode, 400, replay.body);
  assert.match(json(replay).error.message, /replay/);
  assert.equal(await depositsOf(c.accountId), 1);
});

test('the webhook takes a JSON body only', async () => {
  const res = await app.inject({ method: 'POST', url: '/payments/stripe/webhook', remoteAddress: '127.0.0.1', headers: { 'content-type': 'text/plain' }, payload: 'x' });
  assert.equal(res.statusCode, 415);
  const empty = await app.inject({ method: 'POST', url: '/payments/stripe/webhook', remoteAddress: '127.0.0.1' });
  assert.equal(empty.statusCode, 400);
});

test('events we do not act on are acknowledged; a failed async payment is declined; an expired session is abandoned', async () => {
  const other = stripeEvent('customer.created', { id: 'cus_1', object: 'customer' });
  const r = await deliver(other, sign(other));
  assert.equal(r.statusCode, 200);
  assert.equal(json(r).outcome, 'ignored');

  const c = await createCustomer(t);
  const started = await startTopUp(app, c.accountId, '9.00');
  const s = stripe.sessions.get(started.provider_ref)!;
  const failed = stripeEvent('checkout.session.async_payment_failed', { ...s, status: 'complete', payment_status: 'unpaid' });
  assert.equal((await deliver(failed, sign(failed))).statusCode, 200);
  assert.equal(json(await customerCall(app, c.accountId, 'GET', `/top-ups/${started.id}`)).data.status, 'declined');

  const started2 = await startTopUp(app, c.accountId, '9.00');
  const expired = stripeEvent('checkout.session.expired', { ...stripe.sessions.get(started2.provider_ref)!, status: 'expired' });
  assert.equal((await deliver(expired, sign(expired))).statusCode, 200);
  assert.equal(json(await customerCall(app, c.accountId, 'GET', `/top-ups/${started2.id}`)).data.status, 'expired');
  assert.equal(await depositsOf(c.accountId), 0);

  // A completed session whose amount is not the payment's is not credited.
  const started3 = await startTopUp(app, c.accountId, '9.00');
  const wrong = stripeEvent('checkout.session.completed', { ...stripe.complete(started3.provider_ref), amount_total: 1 });
  assert.equal((await deliver(wrong, sign(wrong))).statusCode, 200);
  const p3 = json(await customerCall(app, c.accountId, 'GET', `/top-ups/${started3.id}`)).data;
  assert.equal(p3.status, 'pending');
  assert.match(p3.failure, /not credited/);
  assert.equal(await depositsOf(c.accountId), 0);
});

test('a late webhook: the panel refresh asks Stripe and credits once; the webhook after it credits nothing', async () => {
  const { c, started, session } = await paidSession('11.00');
  const refreshed = json(await customerCall(app, c.accountId, 'POST', `/top-ups/${started.id}/refresh`)).data;
  assert.equal(refreshed.status, 'paid');
  const payload = stripeEvent('checkout.session.completed', session);
  assert.equal(json(await deliver(payload, sign(payload))).outcome, 'already_paid');
  assert.equal(await depositsOf(c.accountId), 1);
});

test("a refund of a Stripe top-up's deposit refunds the PaymentIntent (idempotency key: the refund's id) and issues the credit note", async () => {
  const { c, session } = await paidSession('40.00');
  const payload = stripeEvent('checkout.session.completed', session);
  await deliver(payload, sign(payload));
  const dep = await t.database.db.selectFrom('transactions').select('id').where('account_id', '=', c.accountId).where('type', '=', 'deposit').executeTakeFirstOrThrow();
  const res = await adminCall(t, 'POST', `/admin/v1/deposits/${dep.id}/refunds`, { amount: '15.00', reason: 'Customer asked' });
  // The admin app of this file is simulated: it refuses a Stripe payment's refund.
  assert.equal(res.statusCode, 409, res.body);
  const viaStripe = await app.inject({ method: 'POST', url: `/admin/v1/deposits/${dep.id}/refunds`, headers: { authorization: `Bearer ${t.adminToken}` }, payload: { amount: '15.00' } });
  assert.equal(viaStripe.statusCode, 201, viaStripe.body);
  const note = json(viaStripe).data;
  assert.equal(note.kind, 'credit_note');
  const refund = await t.database.db.selectFrom('payment_refunds').select(['id', 'status']).where('credit_note_id', '=', note.id).executeTakeFirstOrThrow();
  assert.equal(refund.status, 'completed');
  assert.deepEqual(stripe.refunds.at(-1), { payment_intent: session.payment_intent, amount: 1500, key: `refund-${refund.id}` });
  assert.equal(await assertLedger(t, c.accountId), 2500);
});

test('an event about a session no payment of ours has: acknowledged, logged as a warning with the session id, counted', async () => {
  // An app on the file's telemetry (its log and metrics), taking Stripe's webhooks.
  const observed = await t.sibling(stripeConfig(stripe.url));
  const before = await metric(t, 'hostcloud_payment_webhooks_total', { provider: 'stripe', outcome: 'unknown' });
  const session = {
    id: 'cs_test_not_ours_1', object: 'checkout.session', status: 'complete', payment_status: 'paid', amount_total: 500, currency: 'usd',
    client_reference_id: 'pay_elsewhere', metadata: {}, payment_intent: 'pi_elsewhere',
  };
  const payload = stripeEvent('checkout.session.completed', session, 'evt_not_ours_1');
  const res = await deliver(payload, sign(payload), observed);
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(json(res).outcome, 'unknown');
  const lines = logLines(t, /unknown Checkout Session|no payment of ours/).filter((l) => l.session_id === 'cs_test_not_ours_1');
  assert.equal(lines.length, 1, JSON.stringify(lines));
  assert.equal(lines[0]!.level, 40, 'a warning');
  assert.equal(lines[0]!.event_id, 'evt_not_ours_1');
  assert.equal(lines[0]!.event_type, 'checkout.session.completed');
  assert.equal(lines[0]!.reference, 'pay_elsewhere');
  assert.equal(await metric(t, 'hostcloud_payment_webhooks_total', { provider: 'stripe', outcome: 'unknown' }), before + 1);

  // Every applied event is counted by its outcome.
  const { session: paid } = await paidSession('6.00');
  const credited = stripeEvent('checkout.session.completed', paid);
  assert.equal((await deliver(credited, sign(credited), observed)).statusCode, 200);
  assert.equal(await metric(t, 'hostcloud_payment_webhooks_total', { provider: 'stripe', outcome: 'credited' }), 1);
});
