// Every admin write commits with its audit row or not at all (docs/staff.md): with the audit insert
// made to fail, writes that were single statements (or transactions of their own) leave nothing
// behind; a write outside the transaction carrying its row is refused (tests) before it runs; and
// the row of a create names the id it made.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { CompanionGuardPlugin, StrayWriteError, withCompanion } from '../../src/db/transaction.ts';
import { adminCall, json, startApp } from '../helpers/app.ts';
import { createStaff } from '../helpers/staff.ts';

const t = await startApp();
const db = t.database.db;

/** Every audit insert fails as a lock timeout would (503 SERVICE_UNAVAILABLE, a transient refusal). */
async function auditInsertsFail<T>(fn: () => Promise<T>): Promise<T> {
  await sql`CREATE OR REPLACE FUNCTION test_audit_fails() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'audit insert refused by the test' USING ERRCODE = '55P03'; END $$`.execute(db);
  await sql`CREATE TRIGGER test_audit_fails BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION test_audit_fails()`.execute(db);
  try {
    return await fn();
  } finally {
    await sql`DROP TRIGGER test_audit_fails ON audit_log`.execute(db);
  }
}

async function auditCount(): Promise<number> {
  return (await sql<{ n: number }>`SELECT count(*)::int AS n FROM audit_log`.execute(db)).rows[0]!.n;
}

async function lastAudit(action: string) {
  const res = await adminCall(t, 'GET', `/admin/v1/audit-log?action=${encodeURIComponent(action)}&per_page=1`);
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data[0];
}

const one = async <T>(q: Promise<{ rows: T[] }>) => (await q).rows[0];

test('an audit insert that fails undoes the write: single-statement routes leave nothing behind', async () => {
  const plan = json(await adminCall(t, 'POST', '/admin/v1/plans', { name: 'Atomic', cpu_cores: 1, ram_mb: 512, storage_gb: 10, bandwidth_gb: 100, price: '3.00' })).data;
  const account = json(await adminCall(t, 'POST', '/admin/v1/accounts', { email: 'atomic@hostcloud.test', name: 'Atomic', api_key: { ip_allowlist: ['127.0.0.1'] } })).data;
  const member = await createStaff(t, 'support');
  const loc = json(await adminCall(t, 'POST', '/admin/v1/locations', { name: 'Atomic', code: 'atomic-1', country: 'DE', provider: 'primary' })).data;
  const node = json(await adminCall(t, 'POST', '/admin/v1/nodes', { location_id: loc.id, name: 'atomic-n1', cpu_vendor: 'intel', cpu_cores: 8, ram_mb: 16384, storage_gb: 500 })).data;
  const empty = json(await adminCall(t, 'POST', '/admin/v1/locations', { name: 'Empty', code: 'atomic-2', country: 'DE', provider: 'primary' })).data;
  const unitBefore = json(await adminCall(t, 'GET', '/admin/v1/unit-prices/ram_gb')).data.price;
  const before = await auditCount();

  const writes: [string, string, unknown?][] = [
    ['PATCH', `/admin/v1/plans/${plan.id}`, { name: 'Changed' }],
    ['POST', '/admin/v1/plans', { name: 'Never', cpu_cores: 1, ram_mb: 512, storage_gb: 10, bandwidth_gb: 100, price: '3.00' }],
    ['PUT', '/admin/v1/unit-prices/ram_gb', { price: '99.00' }],
    ['PUT', '/admin/v1/tax-rates/AT', { rate: '20.00' }],
    ['DELETE', `/admin/v1/api-keys/${account.api_key.id}`],
    ['PUT', `/admin/v1/accounts/${account.id}/reseller`, { is_reseller: true }],
    ['PATCH', `/admin/v1/nodes/${node.id}`, { status: 'disabled' }],
    ['POST', `/admin/v1/staff/${member.id}/tokens`, { name: 'never' }],
    ['DELETE', `/admin/v1/staff-tokens/${member.tokenId}`],
    ['PUT', '/admin/v1/providers/compute/fault', { mode: 'timeout' }],
    ['DELETE', `/admin/v1/locations/${empty.id}`],
  ];
  await auditInsertsFail(async () => {
    for (const [method, url, body] of writes) {
      const res = await adminCall(t, method as 'POST', url, body);
      assert.equal(res.statusCode, 503, `${method} ${url}: ${res.body}`);
    }
  });

  assert.equal(await auditCount(), before);
  assert.equal((await one(sql<{ name: string }>`SELECT name FROM plans WHERE id = ${plan.id}`.execute(db)))!.name, 'Atomic');
  assert.equal((await one(sql<{ n: number }>`SELECT count(*)::int AS n FROM plans WHERE name = 'Never'`.execute(db)))!.n, 0);
  assert.equal(json(await adminCall(t, 'GET', '/admin/v1/unit-prices/ram_gb')).data.price, unitBefore);
  assert.equal(await one(sql`SELECT 1 FROM tax_rates WHERE country = 'AT'`.execute(db)), undefined);
  assert.equal((await one(sql<{ revoked_at: Date | null }>`SELECT revoked_at FROM api_keys WHERE id = ${account.api_key.id}`.execute(db)))!.revoked_at, null);
  assert.equal((await one(sql<{ is_reseller: boolean }>`SELECT is_reseller FROM accounts WHERE id = ${account.id}`.execute(db)))!.is_reseller, false);
  assert.equal((await one(sql<{ status: string }>`SELECT status FROM nodes WHERE id = ${node.id}`.execute(db)))!.status, 'active');
  assert.equal((await one(sql<{ n: number }>`SELECT count(*)::int AS n FROM staff_tokens WHERE staff_id = ${member.id}`.execute(db)))!.n, 1);
  assert.equal((await one(sql<{ revoked_at: Date | null }>`SELECT revoked_at FROM staff_tokens WHERE id = ${member.tokenId}`.execute(db)))!.revoked_at, null);
  assert.equal(json(await adminCall(t, 'GET', '/admin/v1/providers/compute/fault')).data.mode, 'none');
  assert.ok(await one(sql`SELECT 1 FROM locations WHERE id = ${empty.id}`.execute(db)));

  // And with the audit log back, the same writes commit, each with its row.
  const res = await adminCall(t, 'PATCH', `/admin/v1/plans/${plan.id}`, { name: 'Changed' });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(await auditCount(), before + 1);
});

test('a write statement outside the transaction carrying the audit row is refused before it runs', async () => {
  const guard = new CompanionGuardPlugin();
  const companion = { written: false, write: async () => {} };
  const node = db.updateTable('plans').set({ name: 'stray' }).where('id', '=', -1).toOperationNode();
  const read = db.selectFrom('plans').selectAll().toOperationNode();
  const args = (n: typeof node | typeof read) => ({ node: n, queryId: { queryId: 'q' } }) as Parameters<CompanionGuardPlugin['transformQuery']>[0];
  await withCompanion(companion, async () => {
    assert.throws(() => guard.transformQuery(args(node)), StrayWriteError);
    assert.doesNotThrow(() => guard.transformQuery(args(read)));
    // Through the real database handle: the statement never reaches PostgreSQL.
    await assert.rejects(sql`UPDATE plans SET name = 'stray' WHERE id = -1`.execute(db), StrayWriteError);
  });
  // Without a companion (not an admin write), or once it is written, writes pass.
  assert.doesNotThrow(() => guard.transformQuery(args(node)));
  await withCompanion({ ...companion, written: true }, async () => assert.doesNotThrow(() => guard.transformQuery(args(node))));
});

test('a write that changes nothing in the database still gets its row, alone', async () => {
  const res = await adminCall(t, 'POST', '/admin/v1/dns/resync', { });
  assert.equal(res.statusCode, 200, res.body);
  const row = await lastAudit('POST /dns/resync');
  assert.ok(row, 'the resync is audited');
  assert.equal(row.request_id, res.headers['x-request-id']);
});

test('the row of a create names the id it made', async () => {
  const cases: { method?: 'POST' | 'PUT'; url: string; body: unknown; action: string; type: string; id: (d: Record<string, unknown>) => string }[] = [
    { url: '/admin/v1/accounts', body: { email: 'made@hostcloud.test', name: 'Made', api_key: { ip_allowlist: ['127.0.0.1'] } }, action: 'createAccount', type: 'account', id: (d) => String(d.id) },
    { url: '/admin/v1/plans', body: { name: 'Made', cpu_cores: 1, ram_mb: 512, storage_gb: 10, bandwidth_gb: 100, price: '3.00' }, action: 'POST /plans', type: 'plan', id: (d) => String(d.id) },
    { url: '/admin/v1/tld-prices', body: { tld: 'made', register: '10.00', renewal: '10.00', transfer: '10.00' }, action: 'POST /tld-prices', type: 'tld_price', id: () => 'made' },
    { url: '/admin/v1/staff', body: { email: 'made-staff@hostcloud.test', name: 'Made', role: 'support' }, action: 'createStaffMember', type: 'staff', id: (d) => String(d.id) },
    { method: 'PUT', url: '/admin/v1/tax-rates/DE', body: { rate: '19.00' }, action: 'setTaxRate', type: 'tax_rate', id: () => 'DE' },
  ];
  const loc = json(await adminCall(t, 'POST', '/admin/v1/locations', { name: 'Made', code: 'made-1', country: 'DE', provider: 'primary' })).data;
  cases.push(
    { url: '/admin/v1/nodes', body: { location_id: loc.id, name: 'made-n1', cpu_vendor: 'amd', cpu_cores: 8, ram_mb: 16384, storage_gb: 500 }, action: 'addNode', type: 'node', id: (d) => String(d.id) },
    { url: '/admin/v1/ip-pools', body: { location_id: loc.id, version: 4, cidr: '198.51.100.0/28', gateway: '198.51.100.1' }, action: 'POST /ip-pools', type: 'ip_pool', id: (d) => String(d.id) },
    { url: `/admin/v1/locations/${loc.id}/ip-pools`, body: { version: 4, cidr: '198.51.100.64/28', gateway: '198.51.100.65' }, action: 'POST /locations/:id/ip-pools', type: 'ip_pool', id: (d) => String(d.id) },
  );
  const member = await createStaff(t, 'billing');
  cases.push({ url: `/admin/v1/staff/${member.id}/tokens`, body: { name: 'made', ip_allowlist: ['127.0.0.1'] }, action: 'createStaffToken', type: 'staff_token', id: (d) => String(d.id) });
  const account = json(await adminCall(t, 'POST', '/admin/v1/accounts', { email: 'made-2@hostcloud.test', name: 'Made 2' })).data;
  cases.push(
    { url: `/admin/v1/accounts/${account.id}/api-keys`, body: { name: 'made', ip_allowlist: ['127.0.0.1'] }, action: 'POST /accounts/:id/api-keys', type: 'api_key', id: (d) => String(d.id) },
    { url: `/admin/v1/accounts/${account.id}/sub-users`, body: { email: 'sub@hostcloud.test', first_name: 'Sub', last_name: 'User' }, action: 'createSubUser', type: 'sub_user', id: (d) => String(d.id) },
  );
  for (const c of cases) {
    const res = await adminCall(t, c.method ?? 'POST', c.url, c.body);
    assert.ok(res.statusCode === 201 || res.statusCode === 200, `${c.url}: ${res.statusCode} ${res.body}`);
    const data = json(res).data;
    const rows = json(await adminCall(t, 'GET', `/admin/v1/audit-log?target_type=${c.type}&target_id=${encodeURIComponent(c.id(data))}`)).data;
    assert.equal(rows.length, 1, `${c.url}: ${JSON.stringify(rows)}`);
    assert.equal(rows[0].action, c.action, c.url);
    assert.deepEqual(rows[0].actor, { type: 'admin_token', id: null, email: null }, c.url);
    assert.ok(!JSON.stringify(rows[0].changes).includes('hc_'), `${c.url}: no secret in changes`);
  }
});
