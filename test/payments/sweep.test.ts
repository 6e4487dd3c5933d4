// The payment sweep (src/core/payments/sweep.ts), which every worker runs each
// PAYMENT_SWEEP_INTERVAL_S: a payment pending for more than 5 minutes is settled with the
// provider's word — credited once if it was paid (its confirmation lost), declined, or expired —
// and one still open 25 hours after it started is expired as abandoned; a checkout that never
// opened is failed; a refund left pending is finished. Passes run at chosen instants here, and once
// through a real worker.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import pino from 'pino';
import { sql } from 'kysely';
import { type TestApp, adminCall, createCustomer, json, startApp } from '../helpers/app.ts';
import { assertLedger } from '../helpers/billing.ts';
import { customerCall, instance, sessionOf, startTopUp } from '../helpers/payments.ts';
import { ABANDON_AFTER_MS, CHECK_AFTER_MS, sweepPayments } from '../../src/core/payments/sweep.ts';
import { startWorker } from '../../src/jobs/worker.ts';
import { renderV2Event } from '../../src/http/v2/events/presenters.ts';
import { computeFor, hostingFor, paymentsFor, registrarFor, servicesFor } from '../../src/runtime.ts';
import type { App } from '../../src/http/app.ts';
import { Metrics } from '../../src/telemetry/metrics.ts';

let t: TestApp;
let app: App;
const errors: unknown[] = [];
before(async () => {
  t = await startApp();
  app = await instance(t);
});

const MIN = 60_000;
const later = (ms: number) => new Date(Date.now() + ms);
function sweep(now: Date) {
  return sweepPayments({
    db: t.database.db, services: servicesFor(t.config, t.database.db), billing: { graceDays: 14, domainRenewDays: 30 }, now: () => now,
    onError: (e) => errors.push(e),
  }, now);
}
const status = async (id: string) => (await t.database.db.selectFrom('payments').select(['status', 'failure']).where('id', '=', id).executeTakeFirstOrThrow());
const setSim = (checkoutUrl: string, s: 'paid' | 'declined') =>
  t.database.db.updateTable('sim_payments').set({ status: s, paid_at: s === 'paid' ? new Date() : null }).where('id', '=', sessionOf(checkoutUrl)).execute();

test('a payment paid at the provider whose confirmation never came is credited by the sweep once it is 5 minutes old, once', async () => {
  const c = await createCustomer(t);
  const started = await startTopUp(app, c.accountId, '15.00');
  await setSim(started.checkout_url, 'paid');
  assert.equal((await sweep(later(CHECK_AFTER_MS - MIN))).checked, 0, 'too young: its webhook or the customer may still come');
  assert.equal((await status(started.id)).status, 'pending');

  const r = await sweep(later(CHECK_AFTER_MS + MIN));
  assert.ok(r.credited >= 1, JSON.stringify(r));
  assert.equal((await status(started.id)).status, 'paid');
  assert.equal(await assertLedger(t, c.accountId), 1500);
  const p = json(await customerCall(app, c.accountId, 'GET', `/top-ups/${started.id}`)).data;
  assert.match(p.invoice_id, /^inv_/);
  // Later passes leave it be: paid is final.
  await sweep(later(CHECK_AFTER_MS + 20 * MIN));
  assert.equal(await assertLedger(t, c.accountId), 1500);
  assert.deepEqual(errors, []);
});

test('declined at the provider: declined; still open: checked again only after a while; open 25 hours on: expired as abandoned', async () => {
  const c = await createCustomer(t);
  const declined = await startTopUp(app, c.accountId, '5.00');
  await setSim(declined.checkout_url, 'declined');
  const open = await startTopUp(app, c.accountId, '6.00');

  const first = await sweep(later(CHECK_AFTER_MS + MIN));
  assert.equal((await status(declined.id)).status, 'declined');
  assert.equal((await status(open.id)).status, 'pending');
  assert.ok(first.still_open >= 1, JSON.stringify(first));
  const checkedAt = async () => (await t.database.db.selectFrom('payments').select('checked_at').where('id', '=', open.id).executeTakeFirstOrThrow()).checked_at;
  const at1 = await checkedAt();
  assert.ok(at1, 'the check is recorded');
  await sweep(later(CHECK_AFTER_MS + 2 * MIN));
  assert.deepEqual(await checkedAt(), at1, 'not asked again a minute later');
  await sweep(later(CHECK_AFTER_MS + 7 * MIN));
  assert.notDeepEqual(await checkedAt(), at1, 'asked again 5 minutes on');

  const gone = await sweep(later(ABANDON_AFTER_MS + MIN));
  assert.ok(gone.expired >= 1, JSON.stringify(gone));
  const s = await status(open.id);
  assert.equal(s.status, 'expired');
  assert.match(s.failure!, /not paid within 25 hours/);
  assert.equal(await assertLedger(t, c.accountId), 0);
  assert.deepEqual(errors, []);
});

test('a checkout that never opened (the request that started it died) is failed; a payment through another provider is left alone', async () => {
  const c = await createCustomer(t);
  await sql`INSERT INTO payments (id, account_id, provider, net_cents, tax_cents, gross_cents, tax_rate_bp, tax_label)
            VALUES ('pay_sweep_noref', ${c.accountId}, 'simulated', 500, 0, 500, 0, 'Tax'),
                   ('pay_sweep_stripe', ${c.accountId}, 'stripe', 500, 0, 500, 0, 'Tax')`.execute(t.database.db);
  await sql`UPDATE payments SET provider_ref = 'cs_test_elsewhere' WHERE id = 'pay_sweep_stripe'`.execute(t.database.db);
  await sweep(later(CHECK_AFTER_MS + MIN));
  const s = await status('pay_sweep_noref');
  assert.equal(s.status, 'failed');
  assert.match(s.failure!, /checkout was never opened/);
  assert.equal((await status('pay_sweep_stripe')).status, 'pending', 'this server does not take Stripe payments: it cannot ask');
  assert.deepEqual(errors, []);
});

test('a refund the provider erred on is finished by the sweep 5 minutes on: one provider refund, one credit note', async () => {
  const c = await createCustomer(t);
  const started = await startTopUp(app, c.accountId, '9.00');
  await setSim(started.checkout_url, 'paid');
  const paid = json(await customerCall(app, c.accountId, 'POST', `/top-ups/${started.id}/refresh`)).data;
  await adminCall(t, 'PUT', '/admin/v1/providers/payments/fault', { mode: 'upstream_error', remaining: 1, calls: ['refund'] });
  assert.equal((await adminCall(t, 'POST', `/admin/v1/deposits/${paid.deposit_id}/refunds`, {})).statusCode, 502);
  const refund = await t.database.db.selectFrom('payment_refunds').selectAll().where('deposit_id', '=', paid.deposit_id).executeTakeFirstOrThrow();
  assert.equal(refund.status, 'pending');

  assert.equal((await sweep(later(MIN))).refunds_completed, 0, 'the operator may still be retrying');
  const r = await sweep(later(CHECK_AFTER_MS + MIN));
  assert.equal(r.refunds_completed, 1, JSON.stringify(r));
  const done = await t.database.db.selectFrom('payment_refunds').selectAll().where('id', '=', refund.id).executeTakeFirstOrThrow();
  assert.equal(done.status, 'completed');
  assert.ok(done.credit_note_id);
  const sim = await t.database.db.selectFrom('sim_payment_refunds').selectAll().where('idempotency_key', '=', refund.id).execute();
  assert.equal(sim.length, 1);
  assert.equal((await t.database.db.selectFrom('sim_payments').select('refunded_cents').where('id', '=', sessionOf(started.checkout_url)).executeTakeFirstOrThrow()).refunded_cents, 900);
  assert.equal(await assertLedger(t, c.accountId), 0);
  assert.deepEqual(errors, []);
});

test('a worker runs the sweep every PAYMENT_SWEEP_INTERVAL_S: a lost confirmation is credited without anyone asking', async () => {
  const c = await createCustomer(t);
  const started = await startTopUp(app, c.accountId, '7.00');
  await setSim(started.checkout_url, 'paid');
  // Started 10 minutes ago: old enough for the sweep.
  await sql`UPDATE payments SET created_at = now() - interval '10 minutes' WHERE id = ${started.id}`.execute(t.database.db);
  const db = t.database.db;
  const config = { ...t.config, paymentSweepIntervalS: 1 };
  const metrics = new Metrics();
  const worker = await startWorker({
    db, compute: computeFor(config, db), hosting: hostingFor(config, db), registrar: registrarFor(config, db), payments: paymentsFor(config, db), config, logger: pino({ level: 'silent' }), metrics, renderEvent: renderV2Event,
  });
  try {
    const deadline = Date.now() + 20_000;
    while ((await status(started.id)).status !== 'paid') {
      assert.ok(Date.now() < deadline, 'the worker did not credit it within 20 s');
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await worker.stop();
  }
  assert.equal(await assertLedger(t, c.accountId), 700);
  // Counted for the alert on failing sweeps (deploy/prometheus/hostcloud-alerts.yml).
  const sweeps = (await metrics.paymentSweeps.get()).values;
  assert.ok(sweeps.some((v) => v.labels.outcome === 'ok' && v.value >= 1), JSON.stringify(sweeps));
  assert.ok(!sweeps.some((v) => v.labels.outcome === 'failed'));
});
