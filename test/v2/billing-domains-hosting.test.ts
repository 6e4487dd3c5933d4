// Recurring billing of domains (auto-renewal DOMAIN_RENEW_DAYS before expiry through the registrar,
// failure, expiry, expiring notices), web hosting (suspension at the panel, resumption) and priced
// VDC pools. The ledger sums to the balance after every scenario.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { activeDomain, freshName, setRegistrarFault } from '../helpers/domains.ts';
import { activeHosting } from '../helpers/hosting.ts';
import { assertLedger, chargesOf, noticesOf, passer, plusDays, setDomainExpiry, setHostingDates, settled, withdrawalsOf } from '../helpers/billing.ts';

let t: TestApp;
let pass: ReturnType<typeof passer>;
before(async () => {
  t = await startApp({ worker: 'embedded' });
  pass = passer(t);
});

const domainRow = (id: string) => t.database.db.selectFrom('domains').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const renewalCents = async (tld: string) => (await t.database.db.selectFrom('tld_prices').select('renewal_cents').where('tld', '=', tld).executeTakeFirstOrThrow()).renewal_cents;
const registerCents = async (tld: string) => (await t.database.db.selectFrom('tld_prices').select('register_cents').where('tld', '=', tld).executeTakeFirstOrThrow()).register_cents;

test('auto-renewal: 30 days before expiry, the renewal price for one year, through the registrar, once', async () => {
  const c = await createCustomer(t, { deposit: '100.00' });
  const d = await activeDomain(t, c, { domain: freshName('com') });
  const now = new Date();
  const expiry = new Date(Math.floor(plusDays(now, 40).getTime() / 1000) * 1000);
  await setDomainExpiry(t, d.id, expiry);
  const balance = await assertLedger(t, c.accountId);

  assert.equal((await pass(now, c.accountId)).domains_renewed, 0, '40 days ahead: not yet');
  const r = await pass(plusDays(now, 10), c.accountId);
  assert.equal(r.domains_renewed, 1);
  assert.equal((await pass(plusDays(now, 10), c.accountId)).domains_renewed, 0, 'a second pass renews nothing more');
  const row = await domainRow(d.id);
  const yearLater = new Date(expiry);
  yearLater.setUTCFullYear(yearLater.getUTCFullYear() + 1);
  assert.equal(row.expires_at!.toISOString(), yearLater.toISOString());
  const registry = await t.database.db.selectFrom('sim_registry_domains').select('expires_at').where('name', '=', row.name).executeTakeFirstOrThrow();
  assert.equal(registry.expires_at.toISOString(), yearLater.toISOString(), 'renewed at the registry');
  const cents = await renewalCents('.com');
  const [ch] = await chargesOf(t, d.id);
  assert.equal(ch!.status, 'paid');
  assert.equal(ch!.amount_cents, cents);
  const label = `${expiry.toISOString().slice(0, 10)} → ${yearLater.toISOString().slice(0, 10)}`;
  const last = (await withdrawalsOf(t, c.accountId)).at(-1)!;
  assert.equal(last.amount_cents, cents);
  assert.ok(last.description.includes(`auto-renewal ${label}`), last.description);
  assert.equal(await assertLedger(t, c.accountId), balance - cents);
});

test('auto-renewal the balance cannot cover: notices, retries, then the domain expires', async () => {
  const reg = await registerCents('.net');
  const c = await createCustomer(t, { deposit: (reg / 100).toFixed(2) });
  const d = await activeDomain(t, c, { domain: freshName('net') });
  assert.equal(await assertLedger(t, c.accountId), 0);
  const now = new Date();
  const expiry = new Date(Math.floor(plusDays(now, 10).getTime() / 1000) * 1000);
  await setDomainExpiry(t, d.id, expiry);

  const r1 = await pass(now, c.accountId);
  assert.equal(r1.unpaid, 1);
  assert.equal(r1.domains_renewed, 0);
  assert.equal((await domainRow(d.id)).status, 'active', 'a domain is not suspended: it simply does not renew');
  assert.deepEqual(await noticesOf(t, c.accountId), ['billing.charge_failed', 'domain.expiring']);
  const up = json(await call(t.app, 'GET', '/v2/billing/upcoming', { key: c.key })).data;
  assert.equal(up.charges[0].status, 'overdue');
  assert.equal(up.charges[0].resource_type, 'domain');

  await pass(plusDays(now, 1), c.accountId);
  assert.deepEqual(await noticesOf(t, c.accountId), ['billing.charge_failed', 'domain.expiring'], 'no notice twice');
  await pass(plusDays(now, 4), c.accountId);
  assert.deepEqual(await noticesOf(t, c.accountId), ['billing.charge_failed', 'domain.expiring', 'domain.expiring'], 'the 7-day notice');
  const [due] = await chargesOf(t, d.id);
  assert.equal(due!.status, 'due');
  assert.equal(due!.attempts, 3);

  const r = await pass(plusDays(now, 10), c.accountId);
  assert.equal(r.domains_expired, 1);
  assert.equal((await domainRow(d.id)).status, 'expired');
  assert.equal((await chargesOf(t, d.id))[0]!.status, 'void');
  assert.equal((await noticesOf(t, c.accountId)).at(-1), 'domain.expired');
  const notice = await t.database.db.selectFrom('notifications').selectAll().where('account_id', '=', c.accountId).where('kind', '=', 'domain.expired').executeTakeFirstOrThrow();
  assert.match(notice.subject, /has expired/);
  assert.equal(await assertLedger(t, c.accountId), 0, 'nothing was charged');
});

test('a registrar failure at auto-renewal refunds and retries at the next pass', async () => {
  const c = await createCustomer(t, { deposit: '100.00' });
  const d = await activeDomain(t, c, { domain: freshName('org') });
  const now = new Date();
  const expiry = new Date(Math.floor(plusDays(now, 20).getTime() / 1000) * 1000);
  await setDomainExpiry(t, d.id, expiry);
  const balance = await assertLedger(t, c.accountId);
  await setRegistrarFault(t, { mode: 'upstream_error', calls: ['renew', 'info'] });
  const r1 = await pass(now, c.accountId);
  assert.equal(r1.domains_renewed, 0);
  assert.equal(await assertLedger(t, c.accountId), balance, 'charged and refunded');
  assert.equal((await chargesOf(t, d.id))[0]!.status, 'due');
  await setRegistrarFault(t, { mode: 'none' });
  await settled(t, d.id);
  const r2 = await pass(plusDays(now, 1), c.accountId);
  assert.equal(r2.domains_renewed, 1);
  assert.equal((await chargesOf(t, d.id))[0]!.status, 'paid');
  assert.equal(await assertLedger(t, c.accountId), balance - (await renewalCents('.org')));
});

test('web hosting: renews per its cycle; unpaid → suspended at the panel; a deposit resumes it', async () => {
  const c = await createCustomer(t, { deposit: '3.99' });
  const h = await activeHosting(t, c);
  assert.equal(await assertLedger(t, c.accountId), 0);
  const now = new Date();
  await setHostingDates(t, h.id, { created: plusDays(now, -31), start: plusDays(now, -31), next: new Date(now.getTime() - 60_000) });
  const r = await pass(now, c.accountId);
  assert.equal(r.suspended, 1);
  const row = () => t.database.db.selectFrom('web_hosting').selectAll().where('id', '=', h.id).executeTakeFirstOrThrow();
  assert.equal((await row()).status, 'suspended');
  await settled(t, h.id);
  const panel = () => t.database.db.selectFrom('sim_hosting_accounts').select('state').where('domain', '=', h.domain).executeTakeFirstOrThrow();
  assert.equal((await panel()).state, 'suspended');
  const login = await call(t.app, 'GET', `/v2/web-hosting/${h.id}/login`, { key: c.key });
  assert.equal(login.statusCode, 409);
  assert.match(json(login).error.message, /suspended for non-payment/);
  const renew = await call(t.app, 'POST', `/v2/web-hosting/${h.id}/renew`, { key: c.key });
  assert.equal(renew.statusCode, 409);

  await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/deposits`, { amount: '10.00' });
  assert.equal((await row()).status, 'active');
  assert.equal(await assertLedger(t, c.accountId), 1000 - 399, 'exactly one monthly cycle taken from the deposit');
  await settled(t, h.id);
  assert.equal((await panel()).state, 'active');
  const [ch] = await chargesOf(t, h.id);
  assert.equal(ch!.status, 'paid');
  assert.match(ch!.description, /monthly cycle \d{4}-\d{2}-\d{2} → \d{4}-\d{2}-\d{2}, 3\.99 USD$/);
  assert.equal((await row()).next_billing_at.toISOString(), ch!.period_end.toISOString());
});

test('a VDC pool with a monthly price is billed monthly from the first pass after the price is set', async () => {
  const c = await createCustomer(t, { deposit: '300.00' });
  const put = await adminCall(t, 'PUT', `/admin/v1/accounts/${c.accountId}/vdc-pool`, { cpu: 8, monthly_price: '250.00' });
  assert.equal(put.statusCode, 200, put.body);
  const now = new Date('2026-01-31T12:00:00Z');
  assert.equal((await pass(now, c.accountId)).charged, 1);
  assert.equal((await pass(now, c.accountId)).charged, 0);
  assert.equal((await pass(new Date('2026-02-27T12:00:00Z'), c.accountId)).charged, 0);
  // 50.00 left: the February period stays due and is retried.
  const feb = await pass(new Date('2026-02-28T12:00:00Z'), c.accountId);
  assert.equal(feb.unpaid, 1);
  const rows = await chargesOf(t, c.accountId);
  assert.deepEqual(rows.map((x) => [x.period_start.toISOString().slice(0, 10), x.period_end.toISOString().slice(0, 10), x.status]), [
    ['2026-01-31', '2026-02-28', 'paid'], ['2026-02-28', '2026-03-31', 'due'],
  ]);
  await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/deposits`, { amount: '200.00' });
  assert.equal((await chargesOf(t, c.accountId))[1]!.status, 'paid');
  assert.equal(await assertLedger(t, c.accountId), 0);
});

test('web hosting unpaid past the grace period: cancelled, panel account terminated, nothing more owed', async () => {
  const c = await createCustomer(t, { deposit: '3.99' });
  const h = await activeHosting(t, c);
  const t0 = plusDays(new Date(), -20);
  await setHostingDates(t, h.id, { created: plusDays(t0, -30), start: plusDays(t0, -30), next: t0 });
  assert.equal((await pass(t0, c.accountId)).suspended, 1);
  await settled(t, h.id);
  assert.equal((await pass(plusDays(t0, 13), c.accountId)).cancelled, 0);
  assert.equal((await pass(plusDays(t0, 14), c.accountId)).cancelled, 1);
  const row = await t.database.db.selectFrom('web_hosting').selectAll().where('id', '=', h.id).executeTakeFirstOrThrow();
  assert.equal(row.status, 'cancelled');
  assert.match(row.cancel_reason ?? '', /Unpaid for 14 days/);
  await settled(t, h.id);
  const panel = await t.database.db.selectFrom('sim_hosting_accounts').select('state').where('domain', '=', h.domain).executeTakeFirstOrThrow();
  assert.equal(panel.state, 'terminated');
  assert.equal((await chargesOf(t, h.id))[0]!.status, 'void');
  assert.deepEqual(await noticesOf(t, c.accountId), ['billing.charge_failed', 'service.suspended', 'service.cancelled']);
  const detail = json(await call(t.app, 'GET', `/v2/web-hosting/${h.id}`, { key: c.key })).data;
  assert.equal(detail.status, 'cancelled');
  assert.equal(detail.next_charge, undefined, 'nothing is planned for a cancelled account');
  assert.equal(await assertLedger(t, c.accountId), 0);
});

test('the sandbox sees its upcoming charges and changes nothing; the overdue list rejects bad pages', async () => {
  const c = await createCustomer(t, { isTest: true });
  const res = await call(t.app, 'GET', '/v2/billing/upcoming', { key: c.key });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(json(res).meta.sandbox, true);
  assert.deepEqual(json(res).data.charges, []);
  const bad = await adminCall(t, 'GET', '/admin/v1/billing/overdue?per_page=101');
  assert.equal(bad.statusCode, 422);
  assert.equal(json(bad).error.errors[0].field, 'per_page');
  assert.equal((await call(t.app, 'POST', '/admin/v1/billing/run')).statusCode, 401);
});

test('a domain detail shows its auto-renewal as its next charge', async () => {
  const c = await createCustomer(t, { deposit: '50.00' });
  const d = await activeDomain(t, c, { domain: freshName('com') });
  const res = json(await call(t.app, 'GET', `/v2/domains/${d.id}`, { key: c.key })).data;
  assert.equal(res.next_charge.status, 'scheduled');
  assert.deepEqual(res.next_charge.amount, { amount: ((await renewalCents('.com')) / 100).toFixed(2), currency: 'USD' });
  assert.equal(res.next_charge.period_start, res.expires_at);
  assert.equal(new Date(res.next_charge.due_at).getTime(), new Date(res.expires_at).getTime() - 30 * 86_400_000);
  await t.database.db.updateTable('domains').set({ auto_renew: false }).where('id', '=', d.id).execute();
  assert.equal(json(await call(t.app, 'GET', `/v2/domains/${d.id}`, { key: c.key })).data.next_charge, undefined, 'no auto-renewal, no charge');
});

test('a charge another account owes is never shown as the next charge of my resource, whatever it names', async () => {
  const c = await createCustomer(t, { deposit: '50.00' });
  const other = await createCustomer(t);
  const d = await activeDomain(t, c, { domain: freshName('com') });
  const now = new Date();
  // A row only a bug elsewhere could write: the other account owing for my domain's id.
  await t.database.db.insertInto('billing_charges').values({
    account_id: other.accountId, resource_type: 'domain', resource_id: d.id, period_start: now, period_end: plusDays(now, 365),
    amount_cents: 4_242, description: 'Not yours', status: 'due', transaction_id: null, due_since: now, last_error: null, paid_at: null,
  }).execute();
  const res = json(await call(t.app, 'GET', `/v2/domains/${d.id}`, { key: c.key })).data;
  assert.equal(res.next_charge.status, 'scheduled', 'my own auto-renewal, not the other account\'s due charge');
  assert.notEqual(res.next_charge.description, 'Not yours');
});
