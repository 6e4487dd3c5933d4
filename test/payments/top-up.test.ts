// Top-up through the simulated provider, as the panel drives it: start → the checkout page → Pay
// (the balance is credited once, an invoice is issued) or Decline (nothing), a late confirmation
// (pending until the provider's word arrives, or a refresh asks for it), a duplicated one (still
// one deposit), and the rules around it: amounts, return address, permissions, another account's
// ids, a provider that fails, PAYMENTS=off. A paid top-up settles what the account owes and
// resumes what it suspended, as an operator's deposit does.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type TestApp, adminCall, createCustomer, json, startApp } from '../helpers/app.ts';
import { assertLedger, passer, plusDays, setServerDates, settled } from '../helpers/billing.ts';
import { PANEL, clickCheckout, customerCall, instance, sessionOf, startTopUp } from '../helpers/payments.ts';
import { activeServer } from '../helpers/servers.ts';
import type { App } from '../../src/http/app.ts';

let t: TestApp;
let app: App;
before(async () => {
  t = await startApp({ worker: 'embedded' });
  app = await instance(t);
});

const deposits = (accountId: string) => t.database.db.selectFrom('transactions').selectAll().where('account_id', '=', accountId).where('type', '=', 'deposit').execute();
const invoicesOf = (accountId: string) => t.database.db.selectFrom('invoices').selectAll().where('account_id', '=', accountId).execute();

test('pay: the balance is credited once with the amount, an invoice is issued, the customer returns to the panel', async () => {
  const c = await createCustomer(t);
  const started = await startTopUp(app, c.accountId, '25.00');
  assert.equal(started.status, 'pending');
  assert.deepEqual(started.amount, { amount: '25.00', currency: 'USD' });
  assert.deepEqual(started.total, { amount: '25.00', currency: 'USD' }, 'no tax rate for the account (no country)');
  assert.match(started.checkout_url, /^http:\/\/api\.test\/payments\/simulated\/checkout\/cs_sim_/);

  const page = await app.inject({ method: 'GET', url: new URL(started.checkout_url).pathname });
  assert.equal(page.statusCode, 200);
  assert.match(page.headers['content-type'] as string, /text\/html/);
  assert.match(page.body, /<button[^>]*value="pay">Pay<\/button>/);
  assert.match(page.body, /<button[^>]*value="decline">Decline<\/button>/);
  assert.match(page.body, /25\.00 USD/);

  const paid = await clickCheckout(app, sessionOf(started.checkout_url), 'pay');
  assert.equal(paid.statusCode, 303, paid.body);
  const back = new URL(paid.headers.location as string);
  assert.equal(back.pathname, '/panel/billing/top-up');
  assert.equal(back.searchParams.get('payment'), started.id);
  assert.equal(back.searchParams.get('result'), 'paid');

  const p = json(await customerCall(app, c.accountId, 'GET', `/top-ups/${started.id}`)).data;
  assert.equal(p.status, 'paid');
  assert.ok(p.deposit_id);
  assert.match(p.invoice_id, /^inv_/);
  assert.equal(await assertLedger(t, c.accountId), 2500);
  assert.equal((await deposits(c.accountId)).length, 1);

  // Clicking Pay again (a double click, the back button) credits nothing more.
  assert.equal((await clickCheckout(app, sessionOf(started.checkout_url), 'pay')).statusCode, 303);
  assert.equal((await deposits(c.accountId)).length, 1);
  const again = await app.inject({ method: 'GET', url: new URL(started.checkout_url).pathname });
  assert.match(again.body, /This checkout is paid/);

  const inv = json(await customerCall(app, c.accountId, 'GET', `/invoices/${p.invoice_id}`)).data;
  assert.match(inv.number, /^INV-\d{4}-\d{6}$/);
  assert.equal(inv.kind, 'invoice');
  assert.deepEqual([inv.net.amount, inv.tax.amount, inv.gross.amount], ['25.00', '0.00', '25.00']);
  assert.equal(inv.deposit_id, p.deposit_id);
  const pdf = await customerCall(app, c.accountId, 'GET', `/invoices/${p.invoice_id}/pdf`);
  assert.equal(pdf.statusCode, 200);
  assert.equal(pdf.headers['content-type'], 'application/pdf');
  assert.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-');
  const list = json(await customerCall(app, c.accountId, 'GET', '/invoices'));
  assert.deepEqual(list.data.map((i: { id: string }) => i.id), [p.invoice_id]);
});

test('decline: nothing is credited, no invoice, the payment says declined', async () => {
  const c = await createCustomer(t);
  const started = await startTopUp(app, c.accountId, '10.00');
  const res = await clickCheckout(app, sessionOf(started.checkout_url), 'decline');
  assert.equal(res.statusCode, 303);
  assert.equal(new URL(res.headers.location as string).searchParams.get('result'), 'cancelled');
  const p = json(await customerCall(app, c.accountId, 'GET', `/top-ups/${started.id}`)).data;
  assert.equal(p.status, 'declined');
  assert.match(p.failure, /declined/);
  assert.equal(p.invoice_id, null);
  assert.equal(await assertLedger(t, c.accountId), 0);
  assert.equal((await invoicesOf(c.accountId)).length, 0);
  // A declined session cannot be paid afterwards.
  await clickCheckout(app, sessionOf(started.checkout_url), 'pay');
  assert.equal(await assertLedger(t, c.accountId), 0);
});

test('abandoned: the checkout expires, a refresh says so and credits nothing', async () => {
  const c = await createCustomer(t);
  const started = await startTopUp(app, c.accountId, '10.00');
  await t.database.db.updateTable('sim_payments').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', sessionOf(started.checkout_url)).execute();
  const p = json(await customerCall(app, c.accountId, 'POST', `/top-ups/${started.id}/refresh`)).data;
  assert.equal(p.status, 'expired');
  assert.equal(await assertLedger(t, c.accountId), 0);
  const page = await app.inject({ method: 'GET', url: new URL(started.checkout_url).pathname });
  assert.match(page.body, /This checkout is expired/);
});

test('late: back in the panel before the confirmation (pending), then credited once — by the late webhook or by a refresh', async () => {
  const slow = await instance(t, { simDelayMs: 400 });
  const c = await createCustomer(t);
  const started = await startTopUp(slow, c.accountId, '12.00');
  const res = await clickCheckout(slow, sessionOf(started.checkout_url), 'pay', 'late');
  assert.equal(res.statusCode, 303);
  assert.equal(json(await customerCall(slow, c.accountId, 'GET', `/top-ups/${started.id}`)).data.status, 'pending', 'the customer is back first');
  assert.equal(await assertLedger(t, c.accountId), 0);
  // The panel asks the provider: paid, so it is credited now…
  const refreshed = json(await customerCall(slow, c.accountId, 'POST', `/top-ups/${started.id}/refresh`)).data;
  assert.equal(refreshed.status, 'paid');

  // Without a refresh the late confirmation alone credits it.
  const c2 = await createCustomer(t);
  const s2 = await startTopUp(slow, c2.accountId, '7.00');
  await clickCheckout(slow, sessionOf(s2.checkout_url), 'pay', 'late');
  assert.equal(json(await customerCall(slow, c2.accountId, 'GET', `/top-ups/${s2.id}`)).data.status, 'pending');
  for (let i = 0; i < 100 && json(await customerCall(slow, c2.accountId, 'GET', `/top-ups/${s2.id}`)).data.status !== 'paid'; i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(json(await customerCall(slow, c2.accountId, 'GET', `/top-ups/${s2.id}`)).data.status, 'paid');
  assert.equal(await assertLedger(t, c2.accountId), 700);

  // The first one's late confirmation (due earlier than the second's) has come by now: nothing more was credited.
  assert.equal(await assertLedger(t, c.accountId), 1200);
  assert.equal((await deposits(c.accountId)).length, 1);
  assert.equal((await invoicesOf(c.accountId)).length, 1);
});

test('twice: a duplicated confirmation credits one deposit and issues one invoice', async () => {
  const c = await createCustomer(t);
  const started = await startTopUp(app, c.accountId, '30.00');
  assert.equal((await clickCheckout(app, sessionOf(started.checkout_url), 'pay', 'twice')).statusCode, 303);
  assert.equal(await assertLedger(t, c.accountId), 3000);
  assert.equal((await deposits(c.accountId)).length, 1);
  assert.equal((await invoicesOf(c.accountId)).length, 1);
});

test("the tax of the customer's country is added on top; the invoice shows net, tax and gross", async () => {
  assert.equal((await adminCall(t, 'PUT', '/admin/v1/tax-rates/de', { rate: '19', label: 'VAT' })).statusCode, 200);
  const c = await createCustomer(t);
  await adminCall(t, 'PATCH', `/admin/v1/accounts/${c.accountId}`, { country: 'DE' });
  const started = await startTopUp(app, c.accountId, '50.00');
  assert.deepEqual([started.amount.amount, started.tax.amount, started.total.amount, started.tax_rate, started.tax_label], ['50.00', '9.50', '59.50', '19.00', 'VAT']);
  const sim = await t.database.db.selectFrom('sim_payments').selectAll().where('id', '=', sessionOf(started.checkout_url)).executeTakeFirstOrThrow();
  assert.equal(sim.amount_cents, 5950, 'the customer pays the gross');
  await clickCheckout(app, sessionOf(started.checkout_url), 'pay');
  assert.equal(await assertLedger(t, c.accountId), 5000, 'the balance is credited the net');
  const [inv] = await invoicesOf(c.accountId);
  assert.deepEqual([inv!.net_cents, inv!.tax_cents, inv!.gross_cents, inv!.tax_rate_bp], [5000, 950, 5950, 1900]);
  assert.equal(inv!.buyer.country, 'DE');
});

test('a paid top-up pays what is due and resumes the suspended server, as an operator deposit does', async () => {
  const c = await createCustomer(t, { deposit: '6.00' });
  const s = await activeServer(t, c);
  const now = new Date();
  await setServerDates(t, s.id, { created: plusDays(now, -31), start: plusDays(now, -31), next: new Date(now.getTime() - 3_600_000) });
  assert.equal((await passer(t)(now, c.accountId)).suspended, 1);
  await settled(t, s.id);
  const started = await startTopUp(app, c.accountId, '10.00');
  await clickCheckout(app, sessionOf(started.checkout_url), 'pay');
  const server = await t.database.db.selectFrom('servers').select('status').where('id', '=', s.id).executeTakeFirstOrThrow();
  assert.equal(server.status, 'active', 'resumed');
  assert.equal(await assertLedger(t, c.accountId), 100 + 1000 - 500, '1.00 left + 10.00 − the 5.00 due');
  await settled(t, s.id);
});

test('amounts outside TOPUP_MIN..TOPUP_MAX, a foreign return address, bad input: 422, nothing stored', async () => {
  const c = await createCustomer(t);
  for (const amount of ['4.99', '10000.01', 'abc', '-5', '5.001', '']) {
    const res = await customerCall(app, c.accountId, 'POST', '/top-ups', { amount });
    assert.equal(res.statusCode, 422, `${amount}: ${res.body}`);
    assert.equal(json(res).error.errors[0].field, 'amount');
  }
  const foreign = await customerCall(app, c.accountId, 'POST', '/top-ups', { amount: '5.00', return_url: 'https://evil.example/panel' });
  assert.equal(foreign.statusCode, 422);
  assert.equal(json(foreign).error.errors[0].field, 'return_url');
  assert.equal((await customerCall(app, c.accountId, 'POST', '/top-ups', { amount: '5.00', extra: 1 })).statusCode, 422);
  assert.equal((await customerCall(app, c.accountId, 'POST', '/top-ups', {})).statusCode, 422);
  const own = await customerCall(app, c.accountId, 'POST', '/top-ups', { amount: '5.00', return_url: 'http://api.test/panel/billing/top-up?from=menu' });
  assert.equal(own.statusCode, 201, own.body);
  assert.equal(json(own).data.status, 'pending');
  const rows = await t.database.db.selectFrom('payments').select('id').where('account_id', '=', c.accountId).execute();
  assert.equal(rows.length, 1);
});

test("permissions: a sub-user needs billing:write to top up and billing:read to read; another account's ids are not found", async () => {
  const c = await createCustomer(t);
  const other = await createCustomer(t);
  const started = await startTopUp(app, c.accountId, '5.00');
  await clickCheckout(app, sessionOf(started.checkout_url), 'pay');
  const invoiceId = json(await customerCall(app, c.accountId, 'GET', `/top-ups/${started.id}`)).data.invoice_id;

  const readOnly = 'billing:read,servers:read';
  assert.equal((await customerCall(app, c.accountId, 'POST', '/top-ups', { amount: '5.00' }, readOnly)).statusCode, 403);
  assert.equal((await customerCall(app, c.accountId, 'GET', `/invoices/${invoiceId}/pdf`, undefined, readOnly)).statusCode, 200);
  assert.equal((await customerCall(app, c.accountId, 'GET', `/top-ups/${started.id}`, undefined, readOnly)).statusCode, 200);
  const none = await customerCall(app, c.accountId, 'GET', `/invoices/${invoiceId}/pdf`, undefined, 'servers:read');
  assert.equal(none.statusCode, 403);
  assert.equal(json(none).error.code, 'AUTH_SCOPE_INSUFFICIENT');
  assert.equal((await customerCall(app, c.accountId, 'POST', '/top-ups', { amount: '5.00' }, 'billing:write')).statusCode, 201);

  for (const path of [`/invoices/${invoiceId}`, `/invoices/${invoiceId}/pdf`, `/top-ups/${started.id}`]) {
    const res = await customerCall(app, other.accountId, 'GET', path);
    assert.equal(res.statusCode, 404, path);
    assert.equal(json(res).error.code, 'RESOURCE_NOT_FOUND');
  }
  assert.equal((await customerCall(app, other.accountId, 'POST', `/top-ups/${started.id}/refresh`)).statusCode, 404);
  assert.equal(json(await customerCall(app, other.accountId, 'GET', '/invoices')).data.length, 0);
  const anonymous = await app.inject({ method: 'GET', url: `${PANEL}/invoices` });
  assert.equal(anonymous.statusCode, 401);
});

test('a provider that fails: 502, the payment is marked failed, nothing credited; PAYMENTS=off refuses', async () => {
  const c = await createCustomer(t);
  await adminCall(t, 'PUT', '/admin/v1/providers/payments/fault', { mode: 'upstream_error', remaining: 1, calls: ['createCheckout'] });
  const res = await customerCall(app, c.accountId, 'POST', '/top-ups', { amount: '5.00' });
  assert.equal(res.statusCode, 502, res.body);
  assert.equal(json(res).error.code, 'UPSTREAM_ERROR');
  const [p] = await t.database.db.selectFrom('payments').selectAll().where('account_id', '=', c.accountId).execute();
  assert.equal(p!.status, 'failed');
  assert.equal(await assertLedger(t, c.accountId), 0);

  const off = await instance(t, { payments: 'off' });
  const refused = await customerCall(off, c.accountId, 'POST', '/top-ups', { amount: '5.00' });
  assert.equal(refused.statusCode, 409);
  assert.match(json(refused).error.message, /turned off/);
  assert.equal((await off.inject({ method: 'GET', url: '/payments/simulated/checkout/cs_sim_x' })).statusCode, 404);
});

test('the checkout page of an unknown session is a 404 page; a bad form is refused', async () => {
  const res = await app.inject({ method: 'GET', url: '/payments/simulated/checkout/cs_sim_nope' });
  assert.equal(res.statusCode, 404);
  assert.match(res.body, /Checkout not found/);
  const bad = await app.inject({ method: 'POST', url: '/payments/simulated/checkout/cs_sim_nope', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'action=steal' });
  assert.equal(bad.statusCode, 422);
});
