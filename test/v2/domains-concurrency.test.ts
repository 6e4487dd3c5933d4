// Money and names under concurrency: parallel registrations against a balance that covers only
// some of them, and accounts racing for one name — exactly one wins, the others are never charged.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type TestApp, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { balanceOf, freshName, ledgerCents } from '../helpers/domains.ts';

let t: TestApp;

before(async () => {
  t = await startApp();
});

test('20 parallel registrations of distinct names against a balance for 3: exactly 3 charged, ledger sum = balance', async () => {
  // .com registers at 11.99: 40.00 covers three (35.97), not four.
  const c = await createCustomer(t, { deposit: '40.00' });
  const names = Array.from({ length: 20 }, () => freshName());
  const answers = await Promise.all(names.map((domain) => call(t.app, 'POST', '/v2/domains', { key: c.key, body: { domain, years: 1 } })));
  const byStatus = answers.reduce<Record<string, number>>((acc, a) => {
    const k = a.statusCode === 201 ? '201' : `${a.statusCode} ${json(a).error.code}`;
    acc[k] = (acc[k] ?? 0) + 1;
    return acc;
  }, {});
  assert.deepEqual(byStatus, { 201: 3, '422 INSUFFICIENT_BALANCE': 17 });
  assert.equal(await balanceOf(t, c), '4.03');
  const { ledger, balance } = await ledgerCents(t, c.accountId);
  assert.equal(ledger, balance);
  assert.equal(balance, 403);
  const withdrawals = json(await call(t.app, 'GET', '/v2/billing/transactions', { key: c.key, query: { type: 'withdraw' } })).data;
  assert.equal(withdrawals.length, 3);
  const domains = await t.database.db.selectFrom('domains').select('name').where('account_id', '=', c.accountId).execute();
  assert.equal(domains.length, 3, 'a domain for every charge, and none without');
  process.stdout.write(`# 20 parallel registrations, balance for 3: ${JSON.stringify(byStatus)}, balance 4.03 = ledger sum\n`);
});

test('accounts racing for one name: exactly one wins each round; the losers are never charged', async () => {
  const rounds = 10;
  const racers = await Promise.all(Array.from({ length: 4 }, () => createCustomer(t, { deposit: '200.00' })));
  let wins = 0;
  for (let r = 0; r < rounds; r++) {
    const domain = freshName('net');
    const answers = await Promise.all(racers.map((c) => call(t.app, 'POST', '/v2/domains', { key: c.key, body: { domain, years: 1 } })));
    const winners = answers.filter((a) => a.statusCode === 201);
    assert.equal(winners.length, 1, `round ${r}: ${answers.map((a) => a.statusCode).join(' ')}`);
    for (const a of answers.filter((x) => x.statusCode !== 201)) {
      assert.equal(a.statusCode, 422, a.body);
      assert.equal(json(a).error.code, 'VALIDATION_FAILED');
      assert.equal(json(a).error.errors[0].field, 'domain');
    }
    const holders = await t.database.db.selectFrom('domains').select('account_id').where('name', '=', domain).execute();
    assert.equal(holders.length, 1);
    wins++;
  }
  // Every charge has its domain: 12.99 per win, whoever won.
  let spent = 0;
  for (const c of racers) {
    const { ledger, balance } = await ledgerCents(t, c.accountId);
    assert.equal(ledger, balance);
    const held = await t.database.db.selectFrom('domains').select('id').where('account_id', '=', c.accountId).execute();
    assert.equal(20000 - balance, held.length * 1299, 'charged exactly for the names it holds');
    spent += 20000 - balance;
  }
  assert.equal(spent, wins * 1299);
  process.stdout.write(`# ${rounds} rounds of 4 accounts racing for one name: ${wins} winners, losers uncharged\n`);
});
