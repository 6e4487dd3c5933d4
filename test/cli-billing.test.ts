// `hostcloud admin billing run|overdue`, in-process against the app on a real port.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { adminCli } from './helpers/admin-cli.ts';
import { type TestApp, createCustomer, startApp } from './helpers/app.ts';

let t: TestApp;
let url: string;

const cli = (args: string[]) => adminCli(t, url, args);

before(async () => {
  t = await startApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});

test('billing run charges what is due and prints the pass; billing overdue lists who owes', async () => {
  const payer = await createCustomer(t, { deposit: '5.00' });
  const debtor = await createCustomer(t, { deposit: '1.00' });
  for (const [acc, id] of [[payer.accountId, 'srv_clipayer'], [debtor.accountId, 'srv_clidebtor']] as const) {
    await sql`INSERT INTO servers (id, account_id, name, status, power_state, location_id, cpu_cores, ram_mb, storage_gb, price_cents, period_started_at, next_billing_at, created_at)
              VALUES (${id}, ${acc}, ${`${id}.example.com`}, 'active', 'running', 1, 1, 1024, 25, 500,
                      now() - interval '1 month 1 hour', now() - interval '1 hour', now() - interval '1 month 1 hour')`.execute(t.database.db);
  }
  const run = await cli(['billing', 'run']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^Billing pass done\n/);
  assert.match(run.stdout, /charged +1\n/);
  assert.match(run.stdout, /charged_amount +5\.00 USD\n/);
  assert.match(run.stdout, /suspended +1\n/);

  const again = await cli(['--json', 'billing', 'run']);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(JSON.parse(again.stdout).data.charged, 0);

  const overdue = await cli(['billing', 'overdue']);
  assert.equal(overdue.code, 0, overdue.stderr);
  assert.match(overdue.stdout, new RegExp(debtor.accountId));
  assert.doesNotMatch(overdue.stdout, new RegExp(payer.accountId));
  const listed = JSON.parse((await cli(['--json', 'billing', 'overdue'])).stdout).data;
  assert.deepEqual(listed.map((r: { account_id: string; due: unknown; charges: number }) => [r.account_id, r.due, r.charges]),
    [[debtor.accountId, { amount: '5.00', currency: 'USD' }, 1]]);

  const bad = await cli(['billing', 'run', 'now']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unexpected argument "now"/);
  const badPage = await cli(['billing', 'overdue', '--page', 'x']);
  assert.equal(badPage.code, 2);
  assert.match(badPage.stderr, /page/);
});
