// Recurring billing of servers: a renewal per period at chosen instants (leap day, the 31st, DST),
// exactly once however often the pass runs; non-payment suspends, a deposit pays exactly what is
// due and resumes; the grace period's end cancels and releases; the reseller discount of the tier
// current at renewal. The ledger sums to the balance after every scenario.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { activeServer } from '../helpers/servers.ts';
import {
  DAY, assertLedger, at, chargesOf, noticesOf, passer, plusDays, setServerDates, settled, withdrawalsOf,
} from '../helpers/billing.ts';

let t: TestApp;
let pass: ReturnType<typeof passer>;
before(async () => {
  t = await startApp({ worker: 'embedded' });
  pass = passer(t);
});

const serverRow = (id: string) => t.database.db.selectFrom('servers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

test('a server renews at each period end, once per period: leap day, the 31st, across DST', async () => {
  const c = await createCustomer(t, { deposit: '100.00' });
  const s = await activeServer(t, c);
  const price = (await serverRow(s.id)).price_cents;
  // A cycle started on 31 January of a leap year.
  await setServerDates(t, s.id, { created: at('2024-01-31T10:00:00Z'), start: at('2024-01-31T10:00:00Z'), next: at('2024-02-29T10:00:00Z') });
  const before = await assertLedger(t, c.accountId);

  assert.equal((await pass(at('2024-02-29T09:59:59Z'), c.accountId)).charged, 0, 'not before the period ends');
  assert.equal((await pass(at('2024-02-29T10:00:00Z'), c.accountId)).charged, 1);
  assert.equal((await pass(at('2024-02-29T10:00:00Z'), c.accountId)).charged, 0, 'a second pass at the same instant charges nothing');
  // 31 March 2024 is the EU's DST change: the period is UTC and ends at 10:00Z all the same.
  assert.equal((await pass(at('2024-03-31T10:00:00Z'), c.accountId)).charged, 1);
  assert.equal((await pass(at('2024-04-30T10:00:00Z'), c.accountId)).charged, 1);
  assert.equal((await pass(at('2024-05-15T00:00:00Z'), c.accountId)).charged, 0);

  const charges = await chargesOf(t, s.id);
  assert.deepEqual(charges.map((ch) => [ch.period_start.toISOString(), ch.period_end.toISOString(), ch.status, ch.amount_cents]), [
    ['2024-02-29T10:00:00.000Z', '2024-03-31T10:00:00.000Z', 'paid', price],
    ['2024-03-31T10:00:00.000Z', '2024-04-30T10:00:00.000Z', 'paid', price],
    ['2024-04-30T10:00:00.000Z', '2024-05-31T10:00:00.000Z', 'paid', price],
  ]);
  const rows = (await withdrawalsOf(t, c.accountId)).slice(1);
  assert.deepEqual(rows.map((r) => r.amount_cents), [price, price, price]);
  assert.match(rows[0]!.description, new RegExp(`^Server ${s.name} \\(${s.id}\\): monthly cycle 2024-02-29 → 2024-03-31`));
  assert.match(rows[1]!.description, /2024-03-31 → 2024-04-30/);
  assert.match(rows[2]!.description, /2024-04-30 → 2024-05-31/);
  for (const ch of charges) assert.ok(ch.transaction_id, 'each charge row names its ledger row');
  const after = await serverRow(s.id);
  assert.equal(after.next_billing_at.toISOString(), '2024-05-31T10:00:00.000Z');
  assert.equal(after.period_started_at.toISOString(), '2024-04-30T10:00:00.000Z');
  assert.equal(await assertLedger(t, c.accountId), before - 3 * price);
});

test('insufficient balance suspends; the pass retries; a deposit pays exactly the due amount and resumes', async () => {
  const c = await createCustomer(t, { deposit: '6.00' });
  const s = await activeServer(t, c);
  const price = (await serverRow(s.id)).price_cents;
  assert.equal(price, 500);
  const now = new Date();
  await setServerDates(t, s.id, { created: plusDays(now, -31), start: plusDays(now, -31), next: new Date(now.getTime() - 3_600_000) });

  const r1 = await pass(now, c.accountId);
  assert.equal(r1.suspended, 1);
  assert.equal(r1.charged, 0);
  const suspended = await serverRow(s.id);
  assert.equal(suspended.status, 'suspended');
  await settled(t, s.id);
  assert.equal((await serverRow(s.id)).power_state, 'stopped', 'powered off through the provider');
  const vm = await t.database.db.selectFrom('sim_vms').select('power').where('id', '=', suspended.provider_ref!).executeTakeFirstOrThrow();
  assert.equal(vm.power, 'stopped');
  assert.deepEqual((await noticesOf(t, c.accountId)).filter((k) => k !== 'billing.deposit'), ['billing.charge_failed', 'service.suspended']);

  // A suspended server refuses actions, saying why.
  const action = await call(t.app, 'POST', `/v2/servers/${s.id}/actions/start`, { key: c.key });
  assert.equal(action.statusCode, 409, action.body);
  assert.equal(json(action).error.code, 'STATE_CONFLICT');
  assert.match(json(action).error.message, /suspended for non-payment/);
  for (const [url, body] of [
    [`/v2/servers/${s.id}/snapshots`, { name: 'before-suspension' }],
    [`/v2/servers/${s.id}/ips`, { version: 4 }],
    [`/v2/servers/${s.id}/actions/migrate`, {}],
  ] as const) {
    const refused = await call(t.app, 'POST', url, { key: c.key, body });
    assert.equal(refused.statusCode, 409, `${url}: ${refused.body}`);
    assert.match(json(refused).error.message, /suspended for non-payment/, url);
  }

  // What the customer sees: the overdue charge and the top-up it needs.
  const up = json(await call(t.app, 'GET', '/v2/billing/upcoming', { key: c.key })).data;
  const overdue = up.charges.filter((x: { status: string }) => x.status === 'overdue');
  assert.equal(overdue.length, 1);
  assert.equal(overdue[0].resource_id, s.id);
  assert.deepEqual(overdue[0].amount, { amount: '5.00', currency: 'USD' });
  // The server's detail shows the same overdue charge as its next one (read with the server, in one query).
  const detailNext = json(await call(t.app, 'GET', `/v2/servers/${s.id}`, { key: c.key })).data.next_charge;
  assert.deepEqual(detailNext, { description: overdue[0].description, amount: overdue[0].amount, due_at: overdue[0].due_at,
    period_start: overdue[0].period_start, period_end: overdue[0].period_end, status: 'overdue' });
  assert.equal(up.balance.amount, '1.00');
  assert.ok(Number(up.top_up_needed.amount) >= 4, up.top_up_needed.amount);

  // The operator's list of overdue accounts.
  const od = json(await adminCall(t, 'GET', '/admin/v1/billing/overdue'));
  const mine = od.data.find((a: { account_id: string }) => a.account_id === c.accountId);
  assert.deepEqual(mine.due, { amount: '5.00', currency: 'USD' });
  assert.equal(mine.charges, 1);

  // Retried every pass, without a second notice or a second row.
  const r2 = await pass(plusDays(now, 1), c.accountId);
  assert.equal(r2.unpaid, 1);
  assert.equal(r2.suspended, 0);
  const [due] = await chargesOf(t, s.id);
  assert.equal(due!.status, 'due');
  assert.equal(due!.attempts, 2);
  assert.equal((await noticesOf(t, c.accountId)).length, 2);

  // The deposit pays the 5.00 due at once and resumes the server.
  const dep = await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/deposits`, { amount: '4.00' });
  assert.equal(dep.statusCode, 201, dep.body);
  const resumed = await serverRow(s.id);
  assert.equal(resumed.status, 'active');
  assert.equal(await assertLedger(t, c.accountId), 0, '1.00 + 4.00 − exactly 5.00');
  const [paid] = await chargesOf(t, s.id);
  assert.equal(paid!.status, 'paid');
  assert.equal(paid!.amount_cents, 500);
  assert.equal(resumed.next_billing_at.toISOString(), paid!.period_end.toISOString(), 'the paid period is the one that was due');
  await settled(t, s.id);
  assert.equal((await serverRow(s.id)).power_state, 'running', 'powered on again');
  assert.ok((await noticesOf(t, c.accountId)).includes('service.resumed'));
  const withdrawals = await withdrawalsOf(t, c.accountId);
  assert.deepEqual(withdrawals.map((w) => w.amount_cents), [500, 500], 'the first cycle and the one renewal');
  const od2 = json(await adminCall(t, 'GET', '/admin/v1/billing/overdue'));
  assert.equal(od2.data.find((a: { account_id: string }) => a.account_id === c.accountId), undefined);
});

test('unpaid past SUSPEND_GRACE_DAYS: cancelled, machine destroyed, addresses released, nothing more owed', async () => {
  const c = await createCustomer(t, { deposit: '5.00' });
  const s = await activeServer(t, c);
  const t0 = plusDays(new Date(), -20);
  await setServerDates(t, s.id, { created: plusDays(t0, -30), start: plusDays(t0, -30), next: t0 });

  assert.equal((await pass(t0, c.accountId)).suspended, 1);
  await settled(t, s.id);
  assert.equal((await pass(new Date(t0.getTime() + 14 * DAY - 1000), c.accountId)).cancelled, 0, 'still within the grace period');
  assert.equal((await serverRow(s.id)).status, 'suspended');
  const r = await pass(plusDays(t0, 14), c.accountId);
  assert.equal(r.cancelled, 1);
  const row = await serverRow(s.id);
  assert.equal(row.status, 'cancelled');
  await settled(t, s.id);
  const vm = await t.database.db.selectFrom('sim_vms').select('destroyed_at').where('id', '=', row.provider_ref!).executeTakeFirstOrThrow();
  assert.ok(vm.destroyed_at, 'the machine is destroyed');
  const ips = await t.database.db.selectFrom('server_ips').select('released_at').where('server_id', '=', s.id).execute();
  assert.ok(ips.every((ip) => ip.released_at !== null), 'its addresses are released');
  const [ch] = await chargesOf(t, s.id);
  assert.equal(ch!.status, 'void');
  assert.ok((await noticesOf(t, c.accountId)).includes('service.cancelled'));
  const detail = json(await call(t.app, 'GET', `/v2/servers/${s.id}`, { key: c.key })).data;
  assert.equal(detail.status, 'cancelled');

  // A later deposit is not taken for the cancelled server.
  await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/deposits`, { amount: '10.00' });
  assert.equal(await assertLedger(t, c.accountId), 1000);
  assert.equal((await pass(plusDays(t0, 60), c.accountId)).charged, 0);
});

test('a reseller renews at the discount of the tier current at the time of charge', async () => {
  await t.database.db.deleteFrom('reseller_tiers').execute();
  await t.database.db.insertInto('reseller_tiers').values([
    { min_servers: 0, max_servers: 1, discount_percentage: '0' },
    { min_servers: 2, max_servers: null, discount_percentage: '12.5' },
  ]).execute();
  const c = await createCustomer(t, { deposit: '100.00' });
  assert.equal((await adminCall(t, 'PUT', `/admin/v1/accounts/${c.accountId}/reseller`, { is_reseller: true })).statusCode, 200);
  const s = await activeServer(t, c);
  const next = at('2025-03-01T00:00:00Z');
  await setServerDates(t, s.id, { created: at('2025-02-01T00:00:00Z'), start: at('2025-02-01T00:00:00Z'), next });
  // One active server: tier 0 %.
  await pass(next, c.accountId);
  // A second server moves the account into the 12.5 % tier before the next renewal.
  await activeServer(t, c);
  await pass(at('2025-04-01T00:00:00Z'), c.accountId);
  const renewals = (await chargesOf(t, s.id)).map((ch) => [ch.amount_cents, ch.description]);
  assert.equal(renewals[0]![0], 500);
  assert.doesNotMatch(String(renewals[0]![1]), /reseller discount/);
  // 12.5 % of 5.00 is 0.625, rounded down to 0.62: the reseller pays 4.38.
  assert.equal(renewals[1]![0], 438);
  assert.match(String(renewals[1]![1]), /2025-04-01 → 2025-05-01, 5\.00 USD less 12\.5 % reseller discount = 4\.38 USD$/);
  assert.equal((await serverRow(s.id)).discount_cents, 62, 'the server holds the discount it now pays with (a delete refunds what was paid)');
  // The detail quotes the next renewal at the current tier, as the pass will charge it.
  const next2 = json(await call(t.app, 'GET', `/v2/servers/${s.id}`, { key: c.key })).data.next_charge;
  assert.equal(next2.status, 'scheduled');
  assert.deepEqual(next2.amount, { amount: '4.38', currency: 'USD' });
  assert.match(next2.description, /5\.00 USD less 12\.5 % reseller discount = 4\.38 USD$/);
  assert.deepEqual(next2.breakdown, [
    { part: 'server', amount: { amount: '5.00', currency: 'USD' } },
    { part: 'reseller_discount', amount: { amount: '-0.62', currency: 'USD' } },
  ], 'the discount is a part of its own, so the parts add up to the amount');
  const listed = json(await call(t.app, 'GET', '/v2/billing/upcoming', { key: c.key })).data.charges
    .find((x: { resource_id: string }) => x.resource_id === s.id);
  assert.ok(listed, 'the server is in the upcoming list');
  assert.deepEqual(listed.amount, next2.amount, 'the upcoming list and the detail agree');
  await assertLedger(t, c.accountId);
});

test('snapshot fees are billed with their server\'s cycle until deleted', async () => {
  const c = await createCustomer(t, { deposit: '100.00' });
  const s = await activeServer(t, c);
  await sql`INSERT INTO snapshots (account_id, server_id, name, monthly_fee_cents, cpu_cores, ram_mb, storage_gb, status)
            VALUES (${c.accountId}, ${s.id}, 'nightly', 150, 1, 1024, 25, 'available'), (${c.accountId}, ${s.id}, 'gone', 150, 1, 1024, 25, 'available')`.execute(t.database.db);
  await sql`UPDATE snapshots SET deleted_at = now() WHERE server_id = ${s.id} AND name = 'gone'`.execute(t.database.db);
  await setServerDates(t, s.id, { created: at('2025-06-15T00:00:00Z'), start: at('2025-06-15T00:00:00Z'), next: at('2025-07-15T00:00:00Z') });
  const next = json(await call(t.app, 'GET', `/v2/servers/${s.id}`, { key: c.key })).data.next_charge;
  assert.deepEqual([next.status, next.amount.amount, next.due_at], ['scheduled', '6.50', '2025-07-15T00:00:00Z'], 'the detail counts the live snapshot only');
  assert.deepEqual(next.breakdown.map((p: { part: string; amount: { amount: string } }) => [p.part, p.amount.amount]), [['server', '5.00'], ['snapshots', '1.50']]);
  await pass(at('2025-07-15T00:00:00Z'), c.accountId);
  const [ch] = await chargesOf(t, s.id);
  assert.equal(ch!.amount_cents, 650);
  assert.match(ch!.description, /\(snapshots 1\.50 USD\)/);
  await assertLedger(t, c.accountId);
});

test('GET /v2/servers/{id}: billing.amount and next_charge.amount reconcile through next_charge.breakdown (server, extra addresses, snapshots)', async () => {
  const c = await createCustomer(t, { deposit: '100.00' });
  const s = await activeServer(t, c);
  const ip = await call(t.app, 'POST', `/v2/servers/${s.id}/ips`, { key: c.key, body: { version: 4 } });
  assert.equal(ip.statusCode, 201, ip.body);
  const snap = await call(t.app, 'POST', `/v2/servers/${s.id}/snapshots`, { key: c.key, body: { name: 'nightly' } });
  assert.equal(snap.statusCode, 201, snap.body);
  await settled(t, s.id);
  const d = json(await call(t.app, 'GET', `/v2/servers/${s.id}`, { key: c.key })).data;
  // Two prices for one server, each what it says: the server's monthly price (machine and its
  // extra address), and the whole next charge (with the snapshot's fee).
  assert.equal(d.billing.amount, '8.00');
  assert.deepEqual(d.next_charge.amount, { amount: '9.50', currency: 'USD' });
  const parts = d.next_charge.breakdown as { part: string; amount: { amount: string; currency: string } }[];
  assert.deepEqual(parts.map((p) => [p.part, p.amount.amount, p.amount.currency]), [
    ['server', '5.00', 'USD'], ['extra_ips', '3.00', 'USD'], ['snapshots', '1.50', 'USD'],
  ]);
  const cents = (a: string) => Math.round(Number(a) * 100);
  assert.equal(parts.reduce((sum, p) => sum + cents(p.amount.amount), 0), cents(d.next_charge.amount.amount), 'the parts add up to the charge');
  assert.equal(parts.filter((p) => p.part === 'server' || p.part === 'extra_ips').reduce((sum, p) => sum + cents(p.amount.amount), 0), cents(d.billing.amount),
    'billing.amount is the server and its extra addresses');
  // The pass charges exactly that amount at the period's end.
  await setServerDates(t, s.id, { created: plusDays(new Date(), -31), start: plusDays(new Date(), -31), next: new Date(Date.now() - 60_000) });
  await pass(new Date(), c.accountId);
  const [charge] = await chargesOf(t, s.id);
  assert.equal(charge!.amount_cents, 950);
  // An overdue charge was fixed when it fell due: no breakdown, its description says what it covers.
  await sql`UPDATE billing_charges SET status = 'due' WHERE id = ${charge!.id}`.execute(t.database.db);
  const overdue = json(await call(t.app, 'GET', `/v2/servers/${s.id}`, { key: c.key })).data.next_charge;
  assert.equal(overdue.status, 'overdue');
  assert.equal(overdue.breakdown, undefined);
  await sql`UPDATE billing_charges SET status = 'paid' WHERE id = ${charge!.id}`.execute(t.database.db);
});

test('GET /v2/billing/upcoming lists the next 30 days per resource; another account sees none of it', async () => {
  const c = await createCustomer(t, { deposit: '20.00' });
  const s = await activeServer(t, c);
  const soon = plusDays(new Date(), 3);
  await setServerDates(t, s.id, { created: plusDays(soon, -30), start: plusDays(soon, -30), next: soon });
  const res = await call(t.app, 'GET', '/v2/billing/upcoming', { key: c.key });
  assert.equal(res.statusCode, 200, res.body);
  const data = json(res).data;
  const mine = data.charges.filter((x: { resource_id: string }) => x.resource_id === s.id);
  assert.ok(mine.length >= 1);
  assert.deepEqual(Object.keys(mine[0]).sort(), ['amount', 'description', 'due_at', 'name', 'period_end', 'period_start', 'resource_id', 'resource_type', 'status'].sort());
  assert.equal(mine[0].status, 'scheduled');
  assert.equal(mine[0].resource_type, 'server');
  assert.equal(mine[0].due_at, soon.toISOString().replace(/\.\d{3}Z$/, 'Z'));
  assert.deepEqual(mine[0].amount, { amount: '5.00', currency: 'USD' });
  assert.equal(data.balance.amount, '15.00');
  assert.deepEqual(data.top_up_needed, { amount: '0.00', currency: 'USD' });
  const other = await createCustomer(t);
  const theirs = json(await call(t.app, 'GET', '/v2/billing/upcoming', { key: other.key })).data;
  assert.deepEqual(theirs.charges, []);
  assert.deepEqual(theirs.total, { amount: '0.00', currency: 'USD' });
  const scoped = await createCustomer(t, { scopes: ['servers:read'] });
  assert.equal((await call(t.app, 'GET', '/v2/billing/upcoming', { key: scoped.key })).statusCode, 403);
  assert.equal((await call(t.app, 'GET', '/v2/billing/upcoming')).statusCode, 401);
});
