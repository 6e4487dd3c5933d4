// POST /v2/domains in three round trips (core/domains/register-request.ts): one read, the
// registrar's availability check, one statement writing the record, domain, charge, operation and
// job — or nothing, and the transaction way answers exactly.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { type Customer, type TestApp, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { freshName } from '../helpers/domains.ts';
import { countStatements, fewestStatements } from '../helpers/statements.ts';
import { JOB_SCHEMA } from '../../src/db/names.ts';

let t: TestApp;
let c: Customer;

before(async () => {
  countStatements();
  t = await startApp();
  c = await createCustomer(t, { deposit: '500.00' });
});

const post = (customer: Customer, body: unknown, key = randomUUID()) =>
  call(t.app, 'POST', '/v2/domains', { key: customer.key, body, headers: { 'idempotency-key': key } });

test('a registration is one read, the registrar\'s check and one write, with no BEGIN or COMMIT', async () => {
  await post(c, { domain: freshName(), years: 1 });
  const least = await fewestStatements(3, async () => {
    const res = await post(c, { domain: freshName(), years: 1 });
    assert.equal(res.statusCode, 201, res.body);
  });
  assert.equal(least.length, 3, least.join('\n---\n'));
  assert.ok(!least.some((s) => /^\s*(begin|commit)/i.test(s)), 'no transaction statements');
  assert.match(least[2]!, /insert into "domains"/i);
});

test('the answer is the domain as read back; the charge, operation and job are written with it', async () => {
  const before = json(await call(t.app, 'GET', '/v2/billing/balance', { key: c.key })).data.balance.amount;
  const name = freshName('net');
  const res = await post(c, { domain: name, years: 2, whois_privacy: true, nameservers: ['ns1.example.org', 'ns2.example.org'] });
  assert.equal(res.statusCode, 201, res.body);
  const { operation, ...created } = json(res).data;
  const read = json(await call(t.app, 'GET', `/v2/domains/${created.id}`, { key: c.key })).data;
  assert.deepEqual(read, created);
  const op = json(await call(t.app, 'GET', `/v2/operations/${operation.id}`, { key: c.key })).data;
  assert.deepEqual({ ...op, updated_at: operation.updated_at }, operation);
  const { rows: jobs } = await sql<{ state: string }>`SELECT state FROM ${sql.table(`${JOB_SCHEMA}.job`)} WHERE data->>'operation_id' = ${operation.id}`.execute(t.database.db);
  assert.deepEqual(jobs, [{ state: 'created' }]);
  const ledger = await t.database.db.selectFrom('transactions').selectAll().where('account_id', '=', c.accountId).orderBy('id', 'desc').executeTakeFirstOrThrow();
  assert.match(ledger.description, new RegExp(`^Domain ${name} \\(\\w+\\): registration for 2 years, \\d+\\.\\d\\d USD$`));
  const after = json(await call(t.app, 'GET', '/v2/billing/balance', { key: c.key })).data.balance.amount;
  assert.equal(Math.round(Number(before) * 100) - ledger.amount_cents, Math.round(Number(after) * 100));
  // The same name under another key: the account holds it now (the transaction way's words).
  const again = await post(c, { domain: name, years: 2 });
  assert.equal(again.statusCode, 422);
  assert.match(json(again).error.errors[0].message, /is already in your account/);
});

test('a stored answer replays; a short balance and a name held are the transaction way\'s exact errors, nothing written', async () => {
  const key = randomUUID();
  const body = { domain: freshName(), years: 1 };
  const first = await post(c, body, key);
  assert.equal(first.statusCode, 201);
  const second = await post(c, body, key);
  assert.equal(second.headers['idempotent-replayed'], 'true');
  assert.deepEqual(json(second).data, json(first).data);

  const poor = await createCustomer(t, { deposit: '1.00' });
  const short = await post(poor, { domain: freshName(), years: 1 });
  assert.equal(short.statusCode, 422, short.body);
  assert.equal(json(short).error.code, 'INSUFFICIENT_BALANCE');
  assert.match(json(short).error.message, /^Balance 1\.00 USD is less than the \d+\.\d\d USD this costs$/);
  const held = await post(poor, body);
  assert.equal(held.statusCode, 422);
  assert.match(json(held).error.errors[0].message, /is not available: it is registered already/);
  const rows = await t.database.db.selectFrom('domains').select('id').where('account_id', '=', poor.accountId).execute();
  assert.deepEqual(rows, []);
  assert.equal(await t.database.db.selectFrom('idempotency_keys').select('key').where('account_id', '=', poor.accountId).executeTakeFirst(), undefined);
});
