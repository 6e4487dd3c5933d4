// Pure rules of top-up and invoicing: tax rates and rounding, invoice numbers, statement months,
// and the PAYMENTS settings.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { invoiceNumber } from '../../src/core/payments/invoices.ts';
import { monthBounds, statementMonths } from '../../src/core/payments/statement.ts';
import { formatRate, parseRate, taxOf } from '../../src/core/payments/tax.ts';

test('tax rates: percent with at most two decimals, 0..100, in hundredths of a percent', () => {
  assert.deepEqual(['19', '7.7', '19.00', '0', '100', '0.01', ' 21 '].map(parseRate), [1900, 770, 1900, 0, 10000, 1, 2100]);
  for (const bad of ['-1', '100.01', '101', '19.001', 'abc', '', '1e2', '019']) assert.equal(parseRate(bad), null, bad);
  assert.equal(formatRate(1900), '19.00');
  assert.equal(formatRate(5), '0.05');
});

test('tax is rounded half up to the cent; gross = net + tax exactly', () => {
  assert.equal(taxOf(5000, 1900), 950);
  assert.equal(taxOf(1, 5000), 1, '0.5 cent rounds up');
  assert.equal(taxOf(1, 4999), 0);
  assert.equal(taxOf(999, 1900), 190, '189.81 → 190');
  assert.equal(taxOf(1_000_000_000, 10000), 1_000_000_000, 'exact at the largest amount');
  assert.equal(taxOf(1234, 0), 0);
});

test('invoice numbers: prefix, CN for credit notes, year, six digits', () => {
  assert.equal(invoiceNumber('INV', 'invoice', 2026, 1), 'INV-2026-000001');
  assert.equal(invoiceNumber('EH', 'credit_note', 2027, 123456), 'EH-CN-2027-123456');
  assert.equal(invoiceNumber('X', 'invoice', 2026, 1234567), 'X-2026-1234567');
});

test('statement months: UTC calendar months, not after the current one', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  assert.deepEqual(monthBounds('2026-02', now), { from: new Date('2026-02-01T00:00:00Z'), to: new Date('2026-03-01T00:00:00Z') });
  assert.deepEqual(monthBounds('2025-12', now).to, new Date('2026-01-01T00:00:00Z'));
  assert.doesNotThrow(() => monthBounds('2026-03', now));
  for (const bad of ['2026-04', '2026-13', '2026-00', '2026-3', '1999-12', 'x']) assert.throws(() => monthBounds(bad, now), (e: { errors?: { field: string }[] }) => e.errors?.[0]?.field === 'month', bad);
});

test('the months a statement is offered for: the current one back to the account\'s first, each one monthBounds takes', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  assert.deepEqual(statementMonths(new Date('2025-11-30T23:59:59Z'), now), ['2026-03', '2026-02', '2026-01', '2025-12', '2025-11']);
  assert.deepEqual(statementMonths(new Date('2026-03-01T00:00:00Z'), now), ['2026-03']);
  // A clock set back (opened "after" now): the current month still has its statement.
  assert.deepEqual(statementMonths(new Date('2026-05-01T00:00:00Z'), now), ['2026-03']);
  const old = statementMonths(new Date('1990-06-01T00:00:00Z'), now);
  assert.equal(old.at(-1), '2000-01');
  for (const m of old) assert.doesNotThrow(() => monthBounds(m, now), m);
});

test('PAYMENTS and its settings: defaults, Stripe needs both secrets, bad values stop the start', () => {
  const d = loadConfig({});
  assert.equal(d.payments, 'simulated');
  assert.equal(d.topupMinCents, 500);
  assert.equal(d.topupMaxCents, 1_000_000);
  assert.equal(d.paymentSweepIntervalS, 60);
  assert.equal(loadConfig({ PAYMENT_SWEEP_INTERVAL_S: '15' }).paymentSweepIntervalS, 15);
  const s = loadConfig({ PAYMENTS: 'stripe', STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc', TOPUP_MIN: '1', TOPUP_MAX: '50.5' });
  assert.deepEqual([s.payments, s.stripeSecretKey, s.stripeWebhookSecret, s.topupMinCents, s.topupMaxCents], ['stripe', 'sk_test_abc', 'whsec_abc', 100, 5050]);
  assert.equal(loadConfig({ PAYMENTS: 'off' }).payments, 'off');
  for (const env of [
    { PAYMENTS: 'paypal' },
    { PAYMENTS: 'stripe' },
    { PAYMENTS: 'stripe', STRIPE_SECRET_KEY: 'sk_test_abc' },
    { PAYMENTS: 'stripe', STRIPE_SECRET_KEY: 'pk_test_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' },
    { TOPUP_MIN: '0' },
    { TOPUP_MIN: '10', TOPUP_MAX: '5' },
    { TOPUP_MAX: '5.001' },
    { STRIPE_API_URL: 'ftp://x' },
    { PAYMENT_SWEEP_INTERVAL_S: '0' },
    { PAYMENT_SWEEP_INTERVAL_S: 'often' },
  ]) assert.throws(() => loadConfig(env), ConfigError, JSON.stringify(env));
});
