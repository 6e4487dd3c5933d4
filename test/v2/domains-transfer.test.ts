// POST /v2/domains/transfer: the registrar is asked at once (a wrong auth code or a name not
// registered elsewhere is 422 and uncharged); accepted, the domain waits in transfer_pending until
// the losing registrar approves, then is active with its expiry moved by `years`.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { activeDomain, assertError, balanceOf, freshName, ledgerCents, registerDomain, seedElsewhere, setRegistrarFault, settleOperations } from '../helpers/domains.ts';

let t: TestApp;
let c: Customer;

before(async () => {
  t = await startApp({ worker: 'embedded', jobRetryLimit: 1, jobRetryDelayS: 1 });
  c = await createCustomer(t, { deposit: '1000.00' });
});

const post = (body: unknown, key = c.key, headers: Record<string, string> = {}) => call(t.app, 'POST', '/v2/domains/transfer', { key, body, headers });
const YEAR_MS = 365.25 * 86_400_000;

describe('an accepted transfer', () => {
  test('201 transfer_pending with the current registration; charged the transfer price; active with expiry + 1 year when approved', async () => {
    const cust = await createCustomer(t, { deposit: '20.00' });
    const name = freshName('net');
    await seedElsewhere(t, name, 'Right-Code-1', { expires_at: '2030-03-01T00:00:00Z', nameservers: ['ns1.old.example', 'ns2.old.example'] });
    const res = await post({ domain: name, auth_code: 'Right-Code-1' }, cust.key);
    assert.equal(res.statusCode, 201, res.body);
    const d = json(res).data;
    assert.equal(d.domain, name);
    assert.equal(d.status, 'transfer_pending');
    assert.equal(d.expires_at, '2030-03-01T00:00:00Z', 'the current registration, until the transfer completes');
    assert.deepEqual(d.nameservers, ['ns1.old.example', 'ns2.old.example']);
    assert.equal(d.registration_years, 1);
    assert.equal(d.transfer_lock, true);
    assert.equal(d.operation.type, 'domain.transfer');
    assert.equal(d.operation.status, 'queued');
    assert.deepEqual(d.operation.resource, { type: 'domain', id: d.id });
    assert.equal(await balanceOf(t, cust), '7.01', '20.00 − 12.99');
    const [tx] = json(await call(t.app, 'GET', '/v2/billing/transactions', { key: cust.key, query: { type: 'withdraw' } })).data;
    assert.equal(tx.description, `Domain ${name} (${d.service_id}): transfer in, 1 year added, 12.99 USD`);

    const op = await waitForOperation(t, cust.key, d.operation.id);
    assert.equal(op.status, 'completed', op.detail);
    assert.equal(op.detail, 'Transferred; registered until 2031-03-01');
    const done = json(await call(t.app, 'GET', `/v2/domains/${d.id}`, { key: cust.key })).data;
    assert.equal(done.status, 'active');
    assert.equal(done.expires_at, '2031-03-01T00:00:00Z');
    assert.deepEqual(done.nameservers, ['ns1.old.example', 'ns2.old.example'], 'DNS keeps working: the nameservers move with the name');
    const registry = await t.database.db.selectFrom('sim_registry_domains').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
    assert.equal(registry.sponsor, 'us');
    assert.notEqual(registry.auth_code, 'Right-Code-1', 'the old auth code stops working');
    const opRow = await t.database.db.selectFrom('operations').select('params').where('id', '=', d.operation.id).executeTakeFirstOrThrow();
    assert.equal(opRow.params.auth_code, undefined, 'the auth code is not kept once the transfer is done');
    const transfers = await t.database.db.selectFrom('sim_registry_transfers').selectAll().where('name', '=', name).execute();
    assert.equal(transfers.length, 1);
    assert.equal(transfers[0]!.token, d.operation.id);
    assert.equal(transfers[0]!.state, 'completed');
  });

  test('years: the transfer price plus the renewal price for each further year; expiry moved by years', async () => {
    const cust = await createCustomer(t, { deposit: '100.00' });
    const name = freshName('org');
    await seedElsewhere(t, name, 'Right-Code-2', { expires_at: '2029-06-15T12:00:00Z' });
    const d = json(await post({ domain: name, auth_code: 'Right-Code-2', years: 3 }, cust.key)).data;
    assert.equal(d.registration_years, 3);
    assert.equal(await balanceOf(t, cust), '63.03', '100.00 − (10.99 + 2 × 12.99)');
    assert.equal((await waitForOperation(t, cust.key, d.operation.id)).status, 'completed');
    assert.equal(json(await call(t.app, 'GET', `/v2/domains/${d.id}`, { key: cust.key })).data.expires_at, '2032-06-15T12:00:00Z');
  });

  test('a free transfer (.de costs 0.00 to transfer) writes no ledger row', async () => {
    const cust = await createCustomer(t, { deposit: '1.00' });
    const name = freshName('de');
    await seedElsewhere(t, name, 'Right-Code-3');
    const d = json(await post({ domain: name, auth_code: 'Right-Code-3' }, cust.key)).data;
    assert.equal(d.status, 'transfer_pending');
    assert.equal(json(await call(t.app, 'GET', '/v2/billing/transactions', { key: cust.key, query: { type: 'withdraw' } })).data.length, 0);
    assert.equal((await waitForOperation(t, cust.key, d.operation.id)).status, 'completed');
  });

  test('the seeded demo name transfers with its documented code', async () => {
    const d = json(await post({ domain: 'TRANSFER-DEMO.COM', auth_code: 'Demo-Auth-2026' })).data;
    assert.equal(d.domain, 'transfer-demo.com');
    assert.equal((await waitForOperation(t, c.key, d.operation.id)).status, 'completed');
  });
});

describe('refusals, uncharged', () => {
  test('a wrong auth code is 422 naming auth_code', async () => {
    const name = freshName();
    await seedElsewhere(t, name, 'Right-Code-4');
    const before = await balanceOf(t, c);
    const error = assertError(await post({ domain: name, auth_code: 'Wrong-Code' }), 422, 'VALIDATION_FAILED', ['auth_code']);
    assert.match(error.errors[0].message, /is not the auth code of/);
    assert.equal(await balanceOf(t, c), before);
    assert.equal(await t.database.db.selectFrom('domains').select('id').where('name', '=', name).executeTakeFirst(), undefined);
  });

  test('a name registered nowhere, or already with us, is 422 naming domain', async () => {
    assert.match(assertError(await post({ domain: freshName(), auth_code: 'Any-Code-1' }), 422, 'VALIDATION_FAILED', ['domain']).errors[0].message,
      /not registered at another registrar/);
    const ours = await activeDomain(t, await createCustomer(t, { deposit: '50.00' }));
    assertError(await post({ domain: ours.domain, auth_code: 'Any-Code-1' }), 422, 'VALIDATION_FAILED', ['domain']);
  });

  test("a name another account is transferring or holds is 422 naming domain", async () => {
    const name = freshName();
    await seedElsewhere(t, name, 'Right-Code-5');
    const first = await createCustomer(t, { deposit: '50.00' });
    assert.equal((await post({ domain: name, auth_code: 'Right-Code-5' }, first.key)).statusCode, 201);
    assertError(await post({ domain: name, auth_code: 'Right-Code-5' }), 422, 'VALIDATION_FAILED', ['domain']);
  });

  test('INSUFFICIENT_BALANCE before any registrar call; validation before the balance', async () => {
    const poor = await createCustomer(t, { deposit: '1.00' });
    const name = freshName();
    await seedElsewhere(t, name, 'Right-Code-6');
    await settleOperations(t);
    await setRegistrarFault(t, { mode: 'upstream_error', remaining: 1, calls: ['info'] });
    try {
      assertError(await post({ domain: name, auth_code: 'Right-Code-6' }, poor.key), 422, 'INSUFFICIENT_BALANCE');
      assert.equal(json(await adminCall(t, 'GET', '/admin/v1/providers/registrar/fault')).data.remaining, 1, 'the registrar was not asked');
      assertError(await post({ domain: name, auth_code: 'Right-Code-6', years: 11 }, poor.key), 422, 'VALIDATION_FAILED', ['years']);
    } finally {
      await setRegistrarFault(t, { mode: 'none' });
    }
  });

  test('the registrar failing when asked is 502, nothing charged', async () => {
    const name = freshName();
    await seedElsewhere(t, name, 'Right-Code-7');
    const before = await balanceOf(t, c);
    await setRegistrarFault(t, { mode: 'upstream_error', remaining: 1, calls: ['info'] });
    assertError(await post({ domain: name, auth_code: 'Right-Code-7' }), 502, 'UPSTREAM_ERROR');
    assert.equal(await balanceOf(t, c), before);
  });

  test('bad input: missing auth_code, oversize, wrong types, unknown fields, NUL', async () => {
    assertError(await post({ domain: freshName() }), 422, 'VALIDATION_FAILED', ['auth_code']);
    assertError(await post({ domain: freshName(), auth_code: 'x'.repeat(256) }), 422, 'VALIDATION_FAILED', ['auth_code']);
    assertError(await post({ domain: freshName(), auth_code: 12345678 }), 422, 'VALIDATION_FAILED', ['auth_code']);
    assertError(await post({ domain: freshName(), auth_code: 'Code-1234', nameservers: ['a.b.c', 'd.e.f'] }), 422, 'VALIDATION_FAILED', ['nameservers']);
    assertError(await post({ domain: freshName(), auth_code: 'Code\u0000' }), 422, 'VALIDATION_FAILED', ['auth_code']);
    assertError(await post({ domain: 'shop.zz', auth_code: 'Code-1234' }), 422, 'VALIDATION_FAILED', ['domain']);
  });
});

test('a transfer the losing registrar rejects fails its operation: cancelled and refunded', async () => {
  const cust = await createCustomer(t, { deposit: '20.00' });
  const name = freshName();
  await seedElsewhere(t, name, 'Right-Code-8');
  await settleOperations(t);
  // The first poll of the transfer fails (retried a second later); meanwhile the name moves to yet
  // another registrar, so the losing registrar can no longer approve: the request is rejected.
  await setRegistrarFault(t, { mode: 'upstream_error', remaining: 1, calls: ['transferStatus'] });
  const d = json(await post({ domain: name, auth_code: 'Right-Code-8' }, cust.key)).data;
  for (let i = 0; !(await t.database.db.selectFrom('sim_registry_transfers').select('id').where('name', '=', name).executeTakeFirst()); i++) {
    assert.ok(i < 200, 'the transfer is requested');
    await new Promise((r) => setTimeout(r, 25));
  }
  await t.database.db.updateTable('sim_registry_domains').set({ sponsor: 'Third Registrar' }).where('name', '=', name).execute();
  const op = await waitForOperation(t, cust.key, d.operation.id, 60_000);
  assert.equal(op.status, 'failed');
  assert.match(op.detail, /rejected: The losing registrar no longer sponsors the name/);
  assert.equal(json(await call(t.app, 'GET', `/v2/domains/${d.id}`, { key: cust.key })).data.status, 'cancelled');
  assert.equal(await balanceOf(t, cust), '20.00');
  const { ledger, balance } = await ledgerCents(t, cust.accountId);
  assert.equal(ledger, balance);
});

test('Idempotency-Key: replayed, charged once, one transfer at the registry', async () => {
  const cust = await createCustomer(t, { deposit: '100.00' });
  const name = freshName();
  await seedElsewhere(t, name, 'Right-Code-9');
  const key = randomUUID();
  const body = { domain: name, auth_code: 'Right-Code-9' };
  const first = await post(body, cust.key, { 'idempotency-key': key });
  assert.equal(first.statusCode, 201, first.body);
  await waitForOperation(t, cust.key, json(first).data.operation.id);
  const again = await post(body, cust.key, { 'idempotency-key': key });
  assert.equal(again.statusCode, 201);
  assert.equal(again.headers['idempotent-replayed'], 'true');
  assert.deepEqual(json(again).data, json(first).data);
  assert.equal(await balanceOf(t, cust), '88.01');
  assertError(await post({ ...body, years: 2 }, cust.key, { 'idempotency-key': key }), 409, 'IDEMPOTENCY_KEY_CONFLICT');
  assert.equal((await t.database.db.selectFrom('sim_registry_transfers').select('id').where('name', '=', name).execute()).length, 1);
});

test('registered_at and expires_at stay within a second of what the registry says', async () => {
  const name = freshName();
  const seeded = await seedElsewhere(t, name, 'Right-Code-10');
  const d = json(await post({ domain: name, auth_code: 'Right-Code-10' })).data;
  await waitForOperation(t, c.key, d.operation.id);
  const done = json(await call(t.app, 'GET', `/v2/domains/${d.id}`, { key: c.key })).data;
  assert.ok(Math.abs(new Date(done.expires_at).getTime() - new Date(seeded.expires_at).getTime() - YEAR_MS) < 2 * 86_400_000);
  assert.equal(done.registered_at, seeded.created_at);
});

test("another account's pending registration blocks a transfer, and our own registration is not transferable", async () => {
  const name = freshName();
  await registerDomain(t, await createCustomer(t, { deposit: '50.00' }), { domain: name });
  assertError(await post({ domain: name, auth_code: 'Any-Code-1' }), 422, 'VALIDATION_FAILED', ['domain']);
});
