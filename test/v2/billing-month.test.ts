// A month of simulated time for one account: a daily billing pass through October 2026 over a
// server with a snapshot, a monthly web hosting account, an auto-renewing domain and a priced VDC
// pool; a renewal the balance cannot cover suspends the server, a deposit pays it and resumes it.
// The ledger is printed (test diagnostics) and checked row by row.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { deposit } from '../../src/core/billing/ledger.ts';
import { formatCents } from '../../src/core/money.ts';
import { inTransaction } from '../../src/db/transaction.ts';
import { type TestApp, adminCall, createCustomer, startApp } from '../helpers/app.ts';
import { activeDomain, freshName } from '../helpers/domains.ts';
import { activeHosting } from '../helpers/hosting.ts';
import { activeServer } from '../helpers/servers.ts';
import { assertLedger, at, noticesOf, passer, plusDays, setDomainExpiry, setHostingDates, setServerDates, settled } from '../helpers/billing.ts';

let t: TestApp;
before(async () => { t = await startApp({ worker: 'embedded' }); });

test('a month of simulated time for one account: its ledger, day by day', { timeout: 120_000 }, async (ctx) => {
  const c = await createCustomer(t, { deposit: '40.00' });
  const s = await activeServer(t, c);
  const h = await activeHosting(t, c);
  const d = await activeDomain(t, c, { domain: freshName('com', 'month') });
  await sql`INSERT INTO snapshots (account_id, server_id, name, monthly_fee_cents, cpu_cores, ram_mb, storage_gb, status)
            VALUES (${c.accountId}, ${s.id}, 'weekly', 150, 1, 1024, 25, 'available')`.execute(t.database.db);
  assert.equal((await adminCall(t, 'PUT', `/admin/v1/accounts/${c.accountId}/vdc-pool`, { cpu: 4, monthly_price: '15.00' })).statusCode, 200);
  await setServerDates(t, s.id, { created: at('2026-09-15T09:00:00Z'), start: at('2026-09-15T09:00:00Z'), next: at('2026-10-15T09:00:00Z') });
  await setHostingDates(t, h.id, { created: at('2026-09-30T12:00:00Z'), start: at('2026-09-30T12:00:00Z'), next: at('2026-10-30T12:00:00Z') });
  await setDomainExpiry(t, d.id, at('2026-11-20T00:00:00Z'));
  const firstRow = (await t.database.db.selectFrom('transactions').select(sql<number>`max(id)`.as('id')).where('account_id', '=', c.accountId).executeTakeFirstOrThrow()).id;
  const opening = await assertLedger(t, c.accountId);

  const pass = passer(t);
  const log: string[] = [`opening balance ${formatCents(opening)} USD (after the first cycles bought through the API)`];
  for (let day = 0; day < 31; day++) {
    const now = plusDays(at('2026-10-01T06:00:00Z'), day);
    if (now.toISOString().startsWith('2026-10-18')) {
      await inTransaction(t.database.db, (trx) => deposit(trx, c.accountId, 3000, 'Deposit (bank transfer)'));
      log.push(`${now.toISOString().slice(0, 10)}  operator deposits 30.00 USD`);
    }
    const r = await pass(now, c.accountId);
    for (const id of [s.id, h.id, d.id]) await settled(t, id);
    const events = Object.entries(r).filter(([k, v]) => v && k !== 'charged_cents').map(([k, v]) => `${k} ${v}`);
    if (events.length) log.push(`${now.toISOString().slice(0, 10)}  pass: ${events.join(', ')}`);
  }
  const rows = await t.database.db.selectFrom('transactions').select(['id', 'type', 'amount_cents', 'balance_after_cents', 'description'])
    .where('account_id', '=', c.accountId).where('id', '>', firstRow).orderBy('id').execute();
  log.push('ledger rows of the month:');
  for (const row of rows) log.push(`  #${row.id} ${row.type.padEnd(8)} ${formatCents(row.amount_cents).padStart(6)}  → ${formatCents(row.balance_after_cents).padStart(6)}  ${row.description}`);
  log.push(`notices: ${(await noticesOf(t, c.accountId)).join(', ')}`);
  for (const line of log) ctx.diagnostic(line);

  assert.deepEqual(rows.map((r) => [r.type, r.amount_cents]), [
    ['withdraw', 1500], // 1 Oct: the VDC pool's first period
    ['deposit', 3000], // 18 Oct
    ['withdraw', 650], // the server's renewal (5.00 + snapshot 1.50), due since 15 Oct, paid from the deposit
    ['withdraw', 1399], // 21 Oct: the domain's auto-renewal, 30 days before 20 Nov
    ['withdraw', 399], // 30 Oct: the hosting's monthly cycle
  ]);
  assert.match(rows[0]!.description, /VDC resource pool .*2026-10-01 → 2026-11-01/);
  assert.match(rows[2]!.description, /monthly cycle 2026-10-15 → 2026-11-15 \(snapshots 1\.50 USD\)/);
  assert.match(rows[3]!.description, /auto-renewal 2026-11-20 → 2027-11-20/);
  assert.match(rows[4]!.description, /monthly cycle 2026-10-30 → 2026-11-30/);
  const server = await t.database.db.selectFrom('servers').select(['status', 'power_state']).where('id', '=', s.id).executeTakeFirstOrThrow();
  assert.deepEqual(server, { status: 'active', power_state: 'running' });
  assert.deepEqual(await noticesOf(t, c.accountId), ['billing.charge_failed', 'service.suspended', 'service.resumed']);
  assert.equal(await assertLedger(t, c.accountId), opening - 1500 + 3000 - 650 - 1399 - 399);
});
