// The monthly statement through the panel's session: the months its page offers (the account's
// life, newest first), each month's statement and PDF; billing:read for a sub-user, as invoices.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { json, startApp } from '../helpers/app.ts';
import { signedInOwner, signedInSubUser } from '../helpers/panel.ts';

const t = await startApp();
const monthOf = (d: Date) => d.toISOString().slice(0, 7);

test('months: from the current month back to the one the account was opened in; each has its statement, the last opening on nothing', async () => {
  const o = await signedInOwner(t);
  const now = new Date();
  const res = await o.client.request('GET', '/panel/api/billing/statements');
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual(json(res).data, { months: [monthOf(now)] }, 'opened this month');

  // Opened two months ago (the accounts of an older install): three months, newest first.
  const opened = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 20));
  await sql`UPDATE accounts SET created_at = ${opened} WHERE id = ${o.accountId}`.execute(t.database.db);
  const months = json(await o.client.request('GET', '/panel/api/billing/statements')).data.months as string[];
  assert.deepEqual(months, [0, 1, 2].map((k) => monthOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - k, 1)))));
  const statements = await Promise.all(months.map(async (m) => json(await o.client.request('GET', `/panel/api/billing/statements/${m}`)).data));
  assert.equal(statements.at(-1).opening_balance.amount, '0.00');
  assert.equal(statements[0].closing_balance.amount, '100.00', 'the current month closes on the balance');
  for (let i = 0; i < statements.length - 1; i++) assert.equal(statements[i].opening_balance.amount, statements[i + 1].closing_balance.amount);
});

test('sub-users: billing:read reads the months, statements and PDFs; without it 403 on each', async () => {
  const o = await signedInOwner(t);
  const month = monthOf(new Date());
  const reader = await signedInSubUser(o, ['billing:read']);
  const other = await signedInSubUser(o, ['servers:read', 'billing:write']);
  for (const url of ['/panel/api/billing/statements', `/panel/api/billing/statements/${month}`, `/panel/api/billing/statements/${month}/pdf`]) {
    const ok = await reader.client.request('GET', url);
    assert.equal(ok.statusCode, 200, `${url}: ${ok.body}`);
    const no = await other.client.request('GET', url);
    assert.equal(no.statusCode, 403, `${url}: ${no.body}`);
    assert.equal(json(no).error.code, 'AUTH_SCOPE_INSUFFICIENT');
  }
  assert.deepEqual(json(await reader.client.request('GET', '/panel/api/billing/statements')).data, { months: [month] }, 'the account\'s months, not the sub-user\'s');
});
