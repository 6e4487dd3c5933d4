import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatCents, money, parseAmount, prorate } from '../../src/core/money.ts';

test('parseAmount accepts plain decimal amounts with up to 2 decimals', () => {
  assert.equal(parseAmount('150'), 15000);
  assert.equal(parseAmount('150.5'), 15050);
  assert.equal(parseAmount('150.50'), 15050);
  assert.equal(parseAmount('0.01'), 1);
  assert.equal(parseAmount('0'), 0);
  assert.equal(parseAmount('999999999999.99'), 99999999999999);
});

test('parseAmount refuses anything else', () => {
  for (const bad of ['', '-5', '+5', '1.234', '1e3', '01.00', '1.', '.5', ' 1', 'abc', '1,00', 'NaN', 'Infinity', '0x10']) {
    assert.equal(parseAmount(bad), null, bad);
  }
});

test('formatCents never goes through floating point', () => {
  assert.equal(formatCents(0), '0.00');
  assert.equal(formatCents(5), '0.05');
  assert.equal(formatCents(1050), '10.50');
  assert.equal(formatCents(-1050), '-10.50');
  assert.equal(formatCents(9007199254740991), '90071992547409.91');
  assert.throws(() => formatCents(1.5));
  assert.deepEqual(money(1234), { amount: '12.34', currency: 'USD' });
  // 0.1 + 0.2 style errors cannot happen: sums are integer cents.
  assert.equal(formatCents(parseAmount('0.10')! + parseAmount('0.20')!), '0.30');
});

test('prorate refunds whole unused hours, rounded down to the cent', () => {
  assert.equal(prorate(1000, 360, 720), 500);
  assert.equal(prorate(1000, 359.9, 720), 498, '359 whole hours of 720 → 4.986… → 4.98');
  assert.equal(prorate(999, 1, 720), 1);
  assert.equal(prorate(1000, 0, 720), 0);
  assert.equal(prorate(1000, -5, 720), 0);
  assert.equal(prorate(1000, 9999, 720), 1000, 'never more than was paid');
});

test('prorateChange: small price rises are not free, and the charges add up with the final refund', async () => {
  const { prorate, prorateChange } = await import('../../src/core/money.ts');
  const period = 720;
  const remaining = 108; // 85 % of the cycle used
  let price = 1000;
  let charged = 0;
  for (let i = 0; i < 40; i++) {
    charged += prorateChange(price, price + 1, remaining, period);
    price += 1;
  }
  // What the customer paid for the rise equals what the delete refunds beyond the old price's refund.
  assert.equal(charged, prorate(price, remaining, period) - prorate(1000, remaining, period));
  assert.equal(prorateChange(1000, 900, remaining, period), prorate(900, remaining, period) - prorate(1000, remaining, period));
});
