import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call, createCustomer, json, startApp } from './helpers/app.ts';

test('a funded customer reads their balance', async () => {
  const t = await startApp();
  const c = await createCustomer(t, { deposit: '25.50' });
  const res = await call(t.app, 'GET', '/v2/billing/balance', { key: c.key });
  assert.equal(res.statusCode, 200);
  assert.deepEqual(json(res).data, { balance: { amount: '25.50', currency: 'USD' }, currency: 'USD' });
});
