// Test keys on the domain routes: the real code in a rolled-back transaction with the no-op
// registrar — answers like live ones with meta.sandbox, real 422s, and no row in any table, no
// charge, no registrar call (the simulated registry and its request record stay as they were).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { CONTACT, activeDomain, freshName, seedElsewhere, setRegistrarFault } from '../helpers/domains.ts';

let t: TestApp;
let live: Customer;
let testKey: string;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let owned: any;

/** Row counts of every table we own and of the job queue (as test/v2/sandbox-servers.test.ts), in one query. */
async function census(): Promise<Record<string, number>> {
  const { rows } = await sql<{ table_name: string; table_schema: string }>`
    SELECT table_schema, table_name FROM information_schema.tables
     WHERE table_schema IN ('public', 'pgboss') AND table_type = 'BASE TABLE' ORDER BY 1, 2`.execute(t.database.db);
  const counts = sql.join(rows.map((r) => sql`(SELECT count(*)::int FROM ${sql.table(`${r.table_schema}.${r.table_name}`)}) AS ${sql.id(`${r.table_schema}.${r.table_name}`)}`));
  const { rows: [all] } = await sql<Record<string, number>>`SELECT ${counts}`.execute(t.database.db);
  return all!;
}

/** What a write could change without adding a row: the registry's names and the account's domains. */
async function state(): Promise<unknown> {
  const registry = await t.database.db.selectFrom('sim_registry_domains').selectAll().orderBy('name').execute();
  const domains = await t.database.db.selectFrom('domains').selectAll().orderBy('id').execute();
  const account = await t.database.db.selectFrom('accounts').select('balance_cents').where('id', '=', live.accountId).executeTakeFirstOrThrow();
  return { registry, domains, account };
}

before(async () => {
  t = await startApp({ worker: 'embedded' });
  live = await createCustomer(t, { deposit: '300.00' });
  const k = await adminCall(t, 'POST', `/admin/v1/accounts/${live.accountId}/api-keys`, { name: 'sandbox', ip_allowlist: ['127.0.0.1', '::1'], is_test: true });
  testKey = json(k).data.key;
  owned = await activeDomain(t, live);
  await seedElsewhere(t, 'sandbox-transfer.com', 'Sandbox-Code-1');
});

const writes = (): [string, string, string, unknown, number][] => [
  ['register', 'POST', '/v2/domains', { domain: freshName(), years: 2 }, 201],
  ['register .de with contact', 'POST', '/v2/domains', { domain: freshName('de'), years: 1, contact: CONTACT }, 201],
  ['transfer', 'POST', '/v2/domains/transfer', { domain: 'sandbox-transfer.com', auth_code: 'Sandbox-Code-1' }, 201],
  ['renew', 'POST', `/v2/domains/${owned.id}/renew`, { years: 2 }, 200],
  ['bulk register', 'POST', '/v2/domains/bulk/register', { domains: [freshName(), freshName('net'), 'bad.zz'] }, 200],
  ['bulk transfer', 'POST', '/v2/domains/bulk/transfer', { domains: [{ domain: 'sandbox-transfer.com', auth_code: 'Sandbox-Code-1' }] }, 200],
  ['bulk renew', 'POST', '/v2/domains/bulk/renew', { domains: [owned.domain] }, 200],
  ['nameservers', 'PUT', `/v2/domains/${owned.id}/nameservers`, { nameservers: ['ns1.sandbox.example', 'ns2.sandbox.example'] }, 200],
  ['lock', 'PUT', `/v2/domains/${owned.id}/lock`, { enabled: false }, 200],
  ['whois privacy', 'PUT', `/v2/domains/${owned.id}/whois-privacy`, { enabled: false }, 200],
  ['auth code (reads and stores it when live)', 'GET', `/v2/domains/${owned.id}/auth-code`, undefined, 200],
  ['new auth code', 'POST', `/v2/domains/${owned.id}/auth-code`, undefined, 200],
  ['check', 'GET', `/v2/domains/check?domain=${freshName()}`, undefined, 200],
];

test('every domain write of a test key answers like a live one with meta.sandbox, and leaves no row and no change anywhere', async () => {
  // The registrar is not called at all: a switch failing every call would show through otherwise.
  await setRegistrarFault(t, { mode: 'upstream_error' });
  try {
    for (const [what, method, url, body, status] of writes()) {
      const rows = await census();
      assert.ok(rows['public.domains'] !== undefined && rows['pgboss.job'] !== undefined && rows['public.sim_requests'] !== undefined, 'the census counts every table');
      const before = await state();
      const headers: Record<string, string> = method === 'POST' ? { 'idempotency-key': randomUUID() } : {};
      const res = await call(t.app, method as 'GET', url, { key: testKey, headers, ...(body === undefined ? {} : { body }) });
      assert.equal(res.statusCode, status, `${what}: ${res.body}`);
      const answer = json(res);
      assert.equal(answer.meta.sandbox, true, what);
      assert.deepEqual(await census(), rows, `${what}: no row added or removed`);
      assert.deepEqual(await state(), before, `${what}: nothing changed`);
      const op = answer.data.operation;
      if (op) {
        assert.match(op.id, /^op_sandbox_/);
        assert.equal(json(await call(t.app, 'GET', `/v2/operations/${op.id}`, { key: testKey })).data.status, 'completed');
      }
      for (const r of answer.data.results ?? []) {
        if (r.operation) assert.match(r.operation.id, /^op_sandbox_/, what);
      }
    }
  } finally {
    await setRegistrarFault(t, { mode: 'none' });
  }
});

test('sandbox answers: the register answer is the live shape; bulk results are real per item; 422s are real', async () => {
  const name = freshName();
  const reg = json(await call(t.app, 'POST', '/v2/domains', { key: testKey, body: { domain: name, years: 1 } })).data;
  assert.equal(reg.status, 'pending');
  assert.equal(reg.domain, name);
  assert.equal(reg.registrar, 'sandbox');
  assert.equal(reg.operation.type, 'domain.register');
  assert.equal((await call(t.app, 'GET', `/v2/domains/${reg.id}`, { key: testKey })).statusCode, 404, 'nothing was kept');
  const bulk = json(await call(t.app, 'POST', '/v2/domains/bulk/register', { key: testKey, body: { domains: [name, name, 'bad.zz'] } })).data;
  assert.deepEqual(bulk.results.map((r: { ok: boolean }) => r.ok), [true, false, false], 'the second item sees the first within the request');
  const renewed = json(await call(t.app, 'POST', `/v2/domains/${owned.id}/renew`, { key: testKey, body: { years: 1 } })).data;
  assert.notEqual(renewed.expires_at, owned.expires_at, 'the answer shows the would-be expiry');
  for (const [body, field] of [[{ domain: 'bad.zz', years: 1 }, 'domain'], [{ domain: freshName('uk'), years: 6 }, 'years'], [{ domain: freshName('de'), years: 1 }, 'contact']] as const) {
    const res = await call(t.app, 'POST', '/v2/domains', { key: testKey, body });
    assert.equal(res.statusCode, 422);
    assert.equal(json(res).error.errors[0].field, field);
  }
  const poor = await createCustomer(t, { deposit: '1.00', isTest: true });
  const res = await call(t.app, 'POST', '/v2/domains', { key: poor.key, body: { domain: freshName(), years: 1 } });
  assert.equal(json(res).error.code, 'INSUFFICIENT_BALANCE');
  // The live name is taken in the sandbox too: it reads the same data.
  assert.equal(json(await call(t.app, 'POST', '/v2/domains', { key: testKey, body: { domain: owned.domain, years: 1 } })).error.errors[0].field, 'domain');
});
