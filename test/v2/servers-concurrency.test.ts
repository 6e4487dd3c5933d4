// Money under concurrency: the balance decides, not the order requests happen to read it in.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type TestApp, BUSY_MACHINE_CONNECT_WAIT_MS, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { serverBody } from '../helpers/servers.ts';
import { ledgerSumCents } from '../../src/db/queries/transactions.ts';

let t: TestApp;

before(async () => {
  t = await startApp({ databaseConnectTimeoutMs: BUSY_MACHINE_CONNECT_WAIT_MS });
});

test('20 parallel creates against a balance for 3: exactly 3 succeed, balance exactly 0, ledger sum = balance', async () => {
  const c = await createCustomer(t, { deposit: '15.00' });
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) =>
    call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ name: `race-${i}.example.com` }) })));
  const codes = results.map((r) => r.statusCode);
  assert.equal(codes.filter((s) => s === 201).length, 3, codes.join(','));
  assert.equal(codes.filter((s) => s === 422).length, 17);
  for (const r of results.filter((x) => x.statusCode === 422)) assert.equal(json(r).error.code, 'INSUFFICIENT_BALANCE');
  const account = await t.database.db.selectFrom('accounts').select('balance_cents').where('id', '=', c.accountId).executeTakeFirstOrThrow();
  assert.equal(account.balance_cents, 0);
  assert.equal(await ledgerSumCents(t.database.db, c.accountId), 0);
  const servers = await t.database.db.selectFrom('servers').select('id').where('account_id', '=', c.accountId).execute();
  assert.equal(servers.length, 3, 'refused requests left no server rows');
  const ops = await t.database.db.selectFrom('operations').select('id').where('account_id', '=', c.accountId).execute();
  assert.equal(ops.length, 3, 'and no operations');
  const jobs = await t.database.db.selectFrom('pgboss.job' as never).select('id' as never).where('data' as never, '@>' as never, JSON.stringify({ operation_id: ops[0]!.id }) as never).execute();
  assert.equal(jobs.length, 1, 'each operation has its job, committed with it');
});

test('parallel creates across two API instances share one balance', async () => {
  const c = await createCustomer(t, { deposit: '10.00' });
  const sibling = await t.sibling();
  const results = await Promise.all(Array.from({ length: 10 }, (_, i) =>
    call(i % 2 ? t.app : sibling, 'POST', '/v2/servers', { key: c.key, body: serverBody({ name: `twin-${i}.example.com` }) })));
  assert.equal(results.filter((r) => r.statusCode === 201).length, 2);
  assert.equal(await ledgerSumCents(t.database.db, c.accountId), 0);
});
