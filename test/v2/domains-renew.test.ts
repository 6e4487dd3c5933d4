// POST /v2/domains/{id}/renew: synchronous; the charge, the registrar's renewal (one year per
// request token, never twice) and the answer; a registrar failure refunds and answers 502; a
// request that dies between its transactions is finished by the worker, its keyed answer stored.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { connect } from '../../src/db/connection.ts';
import type { Ctx } from '../../src/core/context.ts';
import { renewDomain } from '../../src/core/domains/renew.ts';
import { requestFingerprint } from '../../src/core/idempotency/service.ts';
import { executeOperation } from '../../src/core/operations/execute.ts';
import type { ComputeProvider } from '../../src/providers/compute/types.ts';
import { noopPanel } from '../../src/providers/hosting/noop.ts';
import type { Registrar } from '../../src/providers/registrar/types.ts';
import { computeFor, registrarFor } from '../../src/runtime.ts';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { activeDomain, assertError, balanceOf, freshName, ledgerCents, registerDomain, setRegistrarFault, settleOperations } from '../helpers/domains.ts';

let t: TestApp;
let c: Customer;

before(async () => {
  t = await startApp({ worker: 'embedded', operationLeaseS: 3, jobMaintenanceS: 1 });
  c = await createCustomer(t, { deposit: '1000.00' });
});

const renew = (id: string, body?: unknown, key = c.key, headers: Record<string, string> = {}) =>
  call(t.app, 'POST', `/v2/domains/${id}/renew`, { key, ...(body === undefined ? {} : { body }), headers });

const addYears = (iso: string, years: number) => {
  const d = new Date(iso);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
};

describe('a renewal', () => {
  test('200 with the domain, expires_at moved by years; renewal price × years charged; the registry agrees', async () => {
    const cust = await createCustomer(t, { deposit: '100.00' });
    const d = await activeDomain(t, cust, { domain: freshName('org') });
    const res = await renew(d.id, { years: 3 }, cust.key);
    assert.equal(res.statusCode, 200, res.body);
    const renewed = json(res).data;
    assert.equal(renewed.id, d.id);
    assert.equal(renewed.status, 'active');
    assert.equal(renewed.expires_at, addYears(d.expires_at, 3));
    assert.equal(renewed.registration_years, 1, 'the years bought at registration');
    // The detail (activeDomain) adds its next charge (recurring billing); the renewal answers the resource.
    const { next_charge: _next, ...resource } = d;
    assert.deepEqual(renewed, { ...resource, expires_at: renewed.expires_at });
    assert.equal(await balanceOf(t, cust), '50.04', '100.00 − 10.99 − 3 × 12.99');
    const [tx] = json(await call(t.app, 'GET', '/v2/billing/transactions', { key: cust.key, query: { type: 'withdraw' } })).data;
    assert.equal(tx.description, `Domain ${d.domain} (${d.service_id}): renewal for 3 years, 38.97 USD`);
    const registry = await t.database.db.selectFrom('sim_registry_domains').select('expires_at').where('name', '=', d.domain).executeTakeFirstOrThrow();
    assert.equal(registry.expires_at.toISOString().replace(/\.\d{3}Z$/, 'Z'), renewed.expires_at);
    const op = await t.database.db.selectFrom('operations').selectAll().where('resource_id', '=', d.id).where('type', '=', 'domain.renew').executeTakeFirstOrThrow();
    assert.equal(op.status, 'completed');
    assert.equal(op.lease_until, null);
  });

  test('years defaults to 1, with an empty body or none at all', async () => {
    const d = await activeDomain(t, c);
    const one = json(await renew(d.id, {})).data;
    assert.equal(one.expires_at, addYears(d.expires_at, 1));
    const two = json(await renew(d.id)).data;
    assert.equal(two.expires_at, addYears(d.expires_at, 2));
  });

  test('parallel renewals of one domain: each answered 200 or 409, and exactly the answered years added', async () => {
    const d = await activeDomain(t, c);
    const answers = await Promise.all(Array.from({ length: 4 }, () => renew(d.id, { years: 1 })));
    const ok = answers.filter((a) => a.statusCode === 200).length;
    for (const a of answers) if (a.statusCode !== 200) assertError(a, 409, 'STATE_CONFLICT');
    assert.ok(ok >= 1);
    const now = json(await call(t.app, 'GET', `/v2/domains/${d.id}`, { key: c.key })).data;
    assert.equal(now.expires_at, addYears(d.expires_at, ok));
  });
});

describe('errors', () => {
  test('404 for another account\'s domain or an unknown id; 409 unless active or expired', async () => {
    const d = await activeDomain(t, c);
    const other = await createCustomer(t, { deposit: '100.00' });
    assertError(await renew(d.id, { years: 1 }, other.key), 404, 'RESOURCE_NOT_FOUND');
    assertError(await renew('dom_nope', { years: 1 }), 404, 'RESOURCE_NOT_FOUND');
    await settleOperations(t);
    await setRegistrarFault(t, { mode: 'upstream_error', calls: ['register'] });
    try {
      const pending = await registerDomain(t, c, { domain: freshName() });
      assert.match(assertError(await renew(pending.id, { years: 1 }), 409, 'STATE_CONFLICT').message, /is pending/);
    } finally {
      await setRegistrarFault(t, { mode: 'none' });
    }
  });

  test('years: within the TLD\'s range and at most 10 years ahead (422 naming years)', async () => {
    const d = await activeDomain(t, c, { domain: freshName(), years: 9 });
    assertError(await renew(d.id, { years: 2 }), 422, 'VALIDATION_FAILED', ['years']);
    assert.equal((await renew(d.id, { years: 1 })).statusCode, 200, 'ten years ahead exactly is fine… almost: one year is');
    const uk = await activeDomain(t, c, { domain: freshName('uk') });
    assertError(await renew(uk.id, { years: 6 }), 422, 'VALIDATION_FAILED', ['years']);
    assertError(await renew(uk.id, { years: 0 }), 422, 'VALIDATION_FAILED', ['years']);
    assertError(await renew(uk.id, { years: '1' }), 422, 'VALIDATION_FAILED', ['years']);
    assertError(await renew(uk.id, { years: 1, extra: true }), 422, 'VALIDATION_FAILED', ['extra']);
  });

  test('INSUFFICIENT_BALANCE before any registrar call', async () => {
    const poor = await createCustomer(t, { deposit: '12.00' });
    const d = await activeDomain(t, poor, { domain: freshName('org') });
    await setRegistrarFault(t, { mode: 'upstream_error', remaining: 1, calls: ['renew'] });
    try {
      assertError(await renew(d.id, { years: 1 }, poor.key), 422, 'INSUFFICIENT_BALANCE');
      assert.equal(json(await adminCall(t, 'GET', '/admin/v1/providers/registrar/fault')).data.remaining, 1);
    } finally {
      await setRegistrarFault(t, { mode: 'none' });
    }
    assert.equal(json(await call(t.app, 'GET', `/v2/domains/${d.id}`, { key: poor.key })).data.expires_at, d.expires_at);
  });

  test('the registrar failing: 502 UPSTREAM_ERROR, the charge refunded, the expiry unchanged, the domain free for the next renewal', async () => {
    const cust = await createCustomer(t, { deposit: '50.00' });
    const d = await activeDomain(t, cust);
    const before = await balanceOf(t, cust);
    // The request's own three attempts all fail; the registry's expiry is then read and found unchanged.
    await setRegistrarFault(t, { mode: 'upstream_error', remaining: 3, calls: ['renew'] });
    assert.match(assertError(await renew(d.id, { years: 2 }, cust.key), 502, 'UPSTREAM_ERROR').message, /The registrar failed/);
    assert.equal(await balanceOf(t, cust), before);
    const refunds = json(await call(t.app, 'GET', '/v2/billing/transactions', { key: cust.key, query: { type: 'refund' } })).data;
    assert.equal(refunds.length, 1);
    assert.equal(refunds[0].amount.amount, '27.98');
    assert.match(refunds[0].description, /^Refund: renewal of domain .* failed/);
    const { ledger, balance } = await ledgerCents(t, cust.accountId);
    assert.equal(ledger, balance);
    const op = await t.database.db.selectFrom('operations').selectAll().where('resource_id', '=', d.id).where('type', '=', 'domain.renew').executeTakeFirstOrThrow();
    assert.equal(op.status, 'failed');
    assert.equal(json(await call(t.app, 'GET', `/v2/domains/${d.id}`, { key: cust.key })).data.expires_at, d.expires_at);
    assert.equal((await renew(d.id, { years: 1 }, cust.key)).statusCode, 200);
  });

  test('a lost answer is asked again with the same token: one failure is retried, one year added', async () => {
    const d = await activeDomain(t, c);
    await setRegistrarFault(t, { mode: 'upstream_error', remaining: 1, calls: ['renew'] });
    const res = await renew(d.id, { years: 1 });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json(res).data.expires_at, addYears(d.expires_at, 1));
  });
});

describe('Idempotency-Key', () => {
  test('the same key and body replays the 200 and adds no second year; another body is 409', async () => {
    const cust = await createCustomer(t, { deposit: '100.00' });
    const d = await activeDomain(t, cust);
    const key = randomUUID();
    const first = await renew(d.id, { years: 1 }, cust.key, { 'idempotency-key': key });
    assert.equal(first.statusCode, 200, first.body);
    const again = await renew(d.id, { years: 1 }, cust.key, { 'idempotency-key': key });
    assert.equal(again.statusCode, 200);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(json(again).data, json(first).data);
    assert.equal(json(await call(t.app, 'GET', `/v2/domains/${d.id}`, { key: cust.key })).data.expires_at, addYears(d.expires_at, 1));
    assert.equal(await balanceOf(t, cust), '74.02', '100.00 − 11.99 − 13.99');
    assertError(await renew(d.id, { years: 2 }, cust.key, { 'idempotency-key': key }), 409, 'IDEMPOTENCY_KEY_CONFLICT');
  });

  test('a failed renewal frees its key: the retry renews', async () => {
    const d = await activeDomain(t, c);
    const key = randomUUID();
    await setRegistrarFault(t, { mode: 'upstream_error', remaining: 3, calls: ['renew'] });
    assertError(await renew(d.id, { years: 1 }, c.key, { 'idempotency-key': key }), 502, 'UPSTREAM_ERROR');
    const retry = await renew(d.id, { years: 1 }, c.key, { 'idempotency-key': key });
    assert.equal(retry.statusCode, 200, retry.body);
    assert.equal(retry.headers['idempotent-replayed'], undefined);
    assert.equal(json(retry).data.expires_at, addYears(d.expires_at, 1));
  });
});

/**
 * Renews as a request that dies after its first transaction: the registrar never answers it, and
 * the request's own database connections are gone, so its lease is no longer renewed.
 */
async function abandonedRenewal(domainId: string, key: string, years: number): Promise<{ opId: string; abandonedAt: number }> {
  const dying = connect(t.databaseUrl);
  const hanging = { ...registrarFor(t.config, dying.db), renew: () => new Promise(() => {}) } as unknown as Registrar;
  const ctx: Ctx = {
    db: dying.db, accountId: c.accountId, sandbox: false, now: new Date(), providerTimeoutMs: 1000, operationLeaseS: 3,
    compute: {} as ComputeProvider, hosting: noopPanel, registrar: hanging, jobs: { async enqueueOperation() {} },
  };
  const fingerprint = requestFingerprint('POST', `/v2/domains/${domainId}/renew`, { years });
  void renewDomain(ctx, domainId, years, { key, fingerprint }).catch(() => {});
  for (let i = 0; ; i++) {
    const op = await t.database.db.selectFrom('operations').select('id').where('resource_id', '=', domainId).where('type', '=', 'domain.renew').executeTakeFirst();
    if (op) {
      await dying.close();
      return { opId: op.id, abandonedAt: Date.now() };
    }
    assert.ok(i < 200, 'the first transaction commits');
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('a request that died mid-renewal: the worker renews with its token within about OPERATION_LEASE_S and stores the keyed answer', async () => {
  const d = await activeDomain(t, c);
  const before = await balanceOf(t, c);
  const key = randomUUID();
  const job = await abandonedRenewal(d.id, key, 2);
  // Meanwhile the domain is busy and the key in flight.
  assertError(await renew(d.id, { years: 1 }), 409, 'STATE_CONFLICT');
  let op;
  for (;;) {
    op = await t.database.db.selectFrom('operations').selectAll().where('id', '=', job.opId).executeTakeFirstOrThrow();
    if (op.status === 'completed' || op.status === 'failed') break;
    assert.ok(Date.now() - job.abandonedAt < 20_000, `still ${op.status} after 20 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(op.status, 'completed', op.detail);
  assert.ok(op.attempts >= 1);
  const { next_charge: _next, ...now } = json(await call(t.app, 'GET', `/v2/domains/${d.id}`, { key: c.key })).data;
  assert.equal(now.expires_at, addYears(d.expires_at, 2));
  // The client's retry with its key gets the answer the request would have sent; nothing is charged twice.
  const retry = await renew(d.id, { years: 2 }, c.key, { 'idempotency-key': key });
  assert.equal(retry.statusCode, 200, retry.body);
  assert.equal(retry.headers['idempotent-replayed'], 'true');
  assert.deepEqual(json(retry).data, now);
  const spent = Math.round((Number(before) - Number(await balanceOf(t, c))) * 100);
  assert.equal(spent, 2 * 1399, 'two years of .com renewal, once');
  // A late duplicate run finds the operation finished and renews nothing.
  await executeOperation({ db: t.database.db, compute: computeFor(t.config, t.database.db), hosting: noopPanel, registrar: registrarFor(t.config, t.database.db) }, job.opId, true);
  assert.equal(json(await call(t.app, 'GET', `/v2/domains/${d.id}`, { key: c.key })).data.expires_at, now.expires_at);
  process.stdout.write(`# renewal recovery: operation ${job.opId} finished ${((Date.now() - job.abandonedAt) / 1000).toFixed(1)} s after its request died\n`);
});
