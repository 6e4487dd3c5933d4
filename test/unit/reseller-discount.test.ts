// Reseller discount arithmetic: percentages as basis points, discounts rounded down to the cent.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { basisPoints, discountOf, percentOf } from '../../src/core/reseller/discount.ts';

test('percentages from the catalog (numeric text) to basis points and back, no float in between', () => {
  assert.equal(basisPoints('10.00'), 1000);
  assert.equal(basisPoints('12.5'), 1250);
  assert.equal(basisPoints('0'), 0);
  assert.equal(basisPoints('100.00'), 10_000);
  assert.equal(basisPoints('0.01'), 1);
  assert.equal(percentOf(1250), 12.5);
  assert.throws(() => basisPoints('-5'), RangeError);
  assert.throws(() => basisPoints('1e2'), RangeError);
});

test('a discount is rounded down to the cent', () => {
  assert.equal(discountOf(15_000, 1000), 1500, '10 % of 150.00');
  assert.equal(discountOf(505, 1000), 50, '10 % of 5.05 is 0.505 → 0.50');
  assert.equal(discountOf(5, 1000), 0, '10 % of 0.05 → 0.00');
  assert.equal(discountOf(999, 1250), 124, '12.5 % of 9.99 = 1.24875 → 1.24');
  assert.equal(discountOf(1_000_000_000, 10_000), 1_000_000_000, 'the largest amount, exactly');
  assert.equal(discountOf(0, 1000), 0);
  assert.equal(discountOf(-500, 1000), 0, 'nothing off a reduction');
});
