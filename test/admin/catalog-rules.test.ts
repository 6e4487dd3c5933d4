// The catalog's pure rules (src/core/catalog/rules.ts, customer-lists.ts): no database, no HTTP.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_AMOUNT_CENTS } from '../../src/core/billing/ledger.ts';
import { PRIMARY_PROVIDER, isServerLocation } from '../../src/core/catalog/customer-lists.ts';
import { checkCatalogValues, percentageText } from '../../src/core/catalog/rules.ts';
import { ApiError } from '../../src/core/errors.ts';

function fieldsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof ApiError, 'e instanceof ApiError');
    assert.equal(e.code, 'VALIDATION_FAILED');
    return e.errors.map((x) => x.field).sort();
  }
  assert.fail('expected a VALIDATION_FAILED error');
}

test('percentageText: 0 to 100 with at most 2 decimals, exact text; anything else null', () => {
  const good: [number | string, string][] = [
    [0, '0'], [0.07, '0.07'], [0.29, '0.29'], [1.1, '1.1'], [33.33, '33.33'], [99.99, '99.99'], [100, '100'], ['12.50', '12.50'],
  ];
  for (const [v, text] of good) assert.equal(percentageText(v), text, String(v));
  // 1.005 * 100 and 1e-7 are where float arithmetic goes wrong; 100.01 is just over the top.
  for (const v of [1.005, 0.001, 33.333, 1e-7, 1e-9, 1e21, -1, -0.5, 100.01, 101, 1000, Number.NaN, Infinity, '', 'abc', '1.', '.5', '1e2', ' 1']) {
    assert.equal(percentageText(v), null, String(v));
  }
});

test('checkCatalogValues: prices from 0 to the largest ledger movement, named by their body field', () => {
  assert.deepEqual(checkCatalogValues({ price_cents: 0, name: 'x' }), { price_cents: 0, name: 'x' });
  assert.deepEqual(checkCatalogValues({ monthly_price_cents: MAX_AMOUNT_CENTS }), { monthly_price_cents: MAX_AMOUNT_CENTS });
  assert.deepEqual(fieldsOf(() => checkCatalogValues({ price_cents: MAX_AMOUNT_CENTS + 1 })), ['price']);
  assert.deepEqual(fieldsOf(() => checkCatalogValues({ price_cents: -1 })), ['price']);
  assert.deepEqual(fieldsOf(() => checkCatalogValues({ price_cents: 1.5 })), ['price']);
  assert.deepEqual(fieldsOf(() => checkCatalogValues({ price_cents: Number.NaN })), ['price']);
  // Every refused field at once, the others untouched.
  assert.deepEqual(fieldsOf(() => checkCatalogValues({ register_cents: MAX_AMOUNT_CENTS + 1, renewal_cents: 1e12, transfer_cents: 5, tld: '.x' })), ['register', 'renewal']);
});

test('checkCatalogValues: a discount becomes exact text or is refused', () => {
  assert.deepEqual(checkCatalogValues({ min_servers: 5, discount_percentage: 33.33 }), { min_servers: 5, discount_percentage: '33.33' });
  assert.deepEqual(fieldsOf(() => checkCatalogValues({ discount_percentage: 1.005 })), ['discount_percentage']);
  assert.deepEqual(fieldsOf(() => checkCatalogValues({ discount_percentage: 1.005, price_cents: -1 })), ['discount_percentage', 'price']);
  assert.deepEqual(fieldsOf(() => checkCatalogValues({ discount_percentage: true })), ['discount_percentage']);
});

test('isServerLocation: available and routed to the primary provider, nothing else', () => {
  assert.equal(isServerLocation({ available: true, provider: PRIMARY_PROVIDER }), true);
  assert.equal(isServerLocation({ available: false, provider: PRIMARY_PROVIDER }), false);
  assert.equal(isServerLocation({ available: true, provider: 'partner' }), false);
  assert.equal(isServerLocation({ available: true, provider: 'Primary' }), false);
});
