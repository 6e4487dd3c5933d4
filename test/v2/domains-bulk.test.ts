// POST /v2/domains/bulk/{register|transfer|renew}: each item its own order and charge, one result
// per item in request order, always 200; whole-request problems 422; the whole answer replayed
// with an Idempotency-Key, and a request cut off midway finished by its retry without redoing items.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { connect } from '../../src/db/connection.ts';
import type { Ctx } from '../../src/core/context.ts';
import { bulkDomains } from '../../src/core/domains/bulk.ts';
import { requestFingerprint } from '../../src/core/idempotency/service.ts';
import type { ComputeProvider } from '../../src/providers/compute/types.ts';
import { noopPanel } from '../../src/providers/hosting/noop.ts';
import type { Registrar } from '../../src/providers/registrar/types.ts';
import { registrarFor } from '../../src/runtime.ts';
import { type Customer, type TestApp, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { CONTACT, activeDomain, assertError, balanceOf, freshName, ledgerCents, seedElsewhere, setRegistrarFault } from '../helpers/domains.ts';

let t: TestApp;
let c: Customer;

before(async () => {
  t = await startApp({ worker: 'embedded', operationLeaseS: 3, jobMaintenanceS: 1 });
  c = await createCustomer(t, { deposit: '2000.00' });
});

const bulk = (action: string, body: unknown, key = c.key, headers: Record<string, string> = {}) =>
  call(t.app, 'POST', `/v2/domains/bulk/${action}`, { key, body, headers });

describe('bulk register', () => {
  test('one bad item in the middle: the others are registered and charged, results in request order', async () => {
    const cust = await createCustomer(t, { deposit: '100.00' });
    const [a, b] = [freshName('com'), freshName('net')];
    const res = await bulk('register', { domains: [a, 'bad name.zz', { domain: b.toUpperCase(), years: 2 }] }, cust.key);
    assert.equal(res.statusCode, 200, res.body);
    const body = json(res).data;
    assert.equal(body.ok_count, 2);
    assert.equal(body.fail_count, 1);
    assert.equal(body.results.length, 3);
    const [first, bad, third] = body.results;
    assert.equal(first.domain, a);
    assert.equal(first.ok, true);
    assert.match(first.id, /^dom_/);
    assert.equal(first.operation.type, 'domain.register');
    assert.equal(first.error, undefined);
    assert.deepEqual(bad, { domain: 'bad name.zz', ok: false, error: { code: 'VALIDATION_FAILED', message: bad.error.message } });
    assert.match(bad.error.message, /^One or more parameters are invalid: domain /);
    assert.equal(third.domain, b);
    assert.equal(third.ok, true);
    assert.equal(await balanceOf(t, cust), '62.03', '100.00 − 11.99 − 2 × 12.99');
    const tx = json(await call(t.app, 'GET', '/v2/billing/transactions', { key: cust.key, query: { type: 'withdraw' } })).data;
    assert.equal(tx.length, 2, 'one charge per item');
    for (const r of [first, third]) assert.equal((await waitForOperation(t, cust.key, r.operation.id)).status, 'completed');
    assert.equal(json(await call(t.app, 'GET', `/v2/domains/${third.id}`, { key: cust.key })).data.registration_years, 2);
  });

  test('a balance for two of four: the first two in request order win, the rest INSUFFICIENT_BALANCE; ledger = balance', async () => {
    const cust = await createCustomer(t, { deposit: '25.00' });
    const names = [freshName(), freshName(), freshName(), freshName()];
    const body = json(await bulk('register', { domains: names }, cust.key)).data;
    assert.deepEqual(body.results.map((r: { ok: boolean }) => r.ok), [true, true, false, false]);
    for (const r of body.results.slice(2)) assert.equal(r.error.code, 'INSUFFICIENT_BALANCE');
    assert.equal(await balanceOf(t, cust), '1.02');
    const { ledger, balance } = await ledgerCents(t, cust.accountId);
    assert.equal(ledger, balance);
  });

  test('items with options; the request\'s years as default; a name twice in one request; options of another action fail their item', async () => {
    const name = freshName('org');
    const body = json(await bulk('register', {
      years: 3,
      domains: [
        { domain: name, nameservers: ['ns1.example.net', 'ns2.example.net'], whois_privacy: false, auto_renew: false },
        name,
        { domain: freshName('de'), contact: CONTACT, years: 1 },
        { domain: freshName('de') },
        { domain: freshName(), auth_code: 'x1234567' },
      ],
    })).data;
    assert.deepEqual(body.results.map((r: { ok: boolean }) => r.ok), [true, false, true, false, false]);
    const d = json(await call(t.app, 'GET', `/v2/domains/${body.results[0].id}`, { key: c.key })).data;
    assert.equal(d.registration_years, 3);
    assert.deepEqual(d.nameservers, ['ns1.example.net', 'ns2.example.net']);
    assert.equal(d.whois_privacy, false);
    assert.equal(d.auto_renew, false);
    assert.match(body.results[1].error.message, /already in your account/);
    assert.match(body.results[3].error.message, /contact is required for \.de/);
    assert.match(body.results[4].error.message, /auth_code does not apply to bulk register/);
  });

  test('names held elsewhere fail alone; a failing registrar fails every register item, uncharged', async () => {
    const taken = freshName();
    await seedElsewhere(t, taken);
    const res = json(await bulk('register', { domains: [taken, freshName()] })).data;
    assert.deepEqual(res.results.map((r: { ok: boolean }) => r.ok), [false, true]);
    assert.match(res.results[0].error.message, /not available/);
    const cust = await createCustomer(t, { deposit: '50.00' });
    await setRegistrarFault(t, { mode: 'upstream_error', remaining: 1, calls: ['check'] });
    const down = json(await bulk('register', { domains: [freshName(), freshName()] }, cust.key)).data;
    assert.deepEqual(down.results.map((r: { error: { code: string } }) => r.error.code), ['UPSTREAM_ERROR', 'UPSTREAM_ERROR']);
    assert.equal(await balanceOf(t, cust), '50.00');
  });
});

describe('bulk transfer and renew', () => {
  test('transfer: per-item refusals (wrong code, string item without a code), the rest pending then active', async () => {
    const [good, wrong] = [freshName(), freshName()];
    await seedElsewhere(t, good, 'Bulk-Code-1');
    await seedElsewhere(t, wrong, 'Bulk-Code-2');
    const body = json(await bulk('transfer', { domains: [{ domain: good, auth_code: 'Bulk-Code-1' }, { domain: wrong, auth_code: 'nope-nope' }, good] })).data;
    assert.equal(body.ok_count, 1);
    assert.equal(body.results[0].operation.type, 'domain.transfer');
    assert.match(body.results[1].error.message, /auth_code is not the auth code/);
    assert.match(body.results[2].error.message, /auth_code is required/);
    assert.equal((await waitForOperation(t, c.key, body.results[0].operation.id)).status, 'completed');
  });

  test('renew: the account\'s domains by name; unknown or another account\'s names fail alone', async () => {
    const [a, b] = [await activeDomain(t, c), await activeDomain(t, c)];
    const theirs = await activeDomain(t, await createCustomer(t, { deposit: '50.00' }));
    const before = await balanceOf(t, c);
    const body = json(await bulk('renew', { domains: [a.domain, { domain: b.domain.toUpperCase(), years: 2 }, theirs.domain, freshName()] })).data;
    assert.deepEqual(body.results.map((r: { ok: boolean }) => r.ok), [true, true, false, false]);
    assert.equal(body.results[0].id, a.id);
    assert.equal(body.results[0].operation, undefined, 'a renewal is synchronous: no operation to poll');
    assert.equal(body.results[2].error.code, 'RESOURCE_NOT_FOUND');
    const spent = Math.round((Number(before) - Number(await balanceOf(t, c))) * 100);
    assert.equal(spent, 3 * 1399);
    const later = (iso: string, years: number) => { const x = new Date(iso); x.setUTCFullYear(x.getUTCFullYear() + years); return x.toISOString().replace(/\.\d{3}Z$/, 'Z'); };
    assert.equal(json(await call(t.app, 'GET', `/v2/domains/${b.id}`, { key: c.key })).data.expires_at, later(b.expires_at, 2));
    assert.match(json(await bulk('renew', { domains: [{ domain: a.domain, nameservers: ['a.b.c', 'd.e.f'] }] })).data.results[0].error.message, /nameservers does not apply/);
  });
});

describe('whole-request problems are 422', () => {
  test('not a list, empty, more than 100 items, a malformed item, an unknown field, an unknown action', async () => {
    assertError(await bulk('register', { domains: 'a.com' }), 422, 'VALIDATION_FAILED', ['domains']);
    assertError(await bulk('register', { domains: [] }), 422, 'VALIDATION_FAILED', ['domains']);
    assertError(await bulk('register', { domains: Array.from({ length: 101 }, () => freshName()) }), 422, 'VALIDATION_FAILED', ['domains']);
    assertError(await bulk('register', { domains: [freshName(), 42] }), 422, 'VALIDATION_FAILED', ['domains[1]']);
    assertError(await bulk('register', { domains: [{ domain: freshName(), colour: 'red' }] }), 422, 'VALIDATION_FAILED');
    assertError(await bulk('register', { domains: [freshName()], mode: 'fast' }), 422, 'VALIDATION_FAILED', ['mode']);
    assertError(await bulk('register', {}), 422, 'VALIDATION_FAILED', ['domains']);
    assertError(await bulk('delete', { domains: [freshName()] }), 422, 'VALIDATION_FAILED', ['action']);
    assertError(await bulk('register', { domains: [`${'a'.repeat(254)}.com`] }), 422, 'VALIDATION_FAILED');
    const hundred = json(await bulk('register', { domains: Array.from({ length: 100 }, () => 'bad.zz') })).data;
    assert.equal(hundred.fail_count, 100, '100 items is the limit, not a whole-request problem');
  });
});

describe('Idempotency-Key', () => {
  test('the whole answer is replayed; charged once; another body is 409', async () => {
    const cust = await createCustomer(t, { deposit: '100.00' });
    const key = randomUUID();
    const body = { domains: [freshName(), 'x.zz', freshName()] };
    const first = await bulk('register', body, cust.key, { 'idempotency-key': key });
    assert.equal(first.statusCode, 200, first.body);
    const again = await bulk('register', body, cust.key, { 'idempotency-key': key });
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(json(again).data, json(first).data);
    assert.equal(await balanceOf(t, cust), '76.02');
    assertError(await bulk('register', { domains: body.domains.slice(0, 1) }, cust.key, { 'idempotency-key': key }), 409, 'IDEMPOTENCY_KEY_CONFLICT');
    assertError(await bulk('renew', body, cust.key, { 'idempotency-key': key }), 409, 'IDEMPOTENCY_KEY_CONFLICT');
  });

  test('a request cut off after some items: its retry takes over once the lease lapses and runs only the rest', async () => {
    const cust = await createCustomer(t, { deposit: '100.00' });
    const key = randomUUID();
    const [done, rest] = [freshName(), freshName()];
    const body = { domains: [done, rest] };
    const fingerprint = requestFingerprint('POST', '/v2/domains/bulk/register', body);
    // What a dead run leaves: a placeholder whose lease has lapsed, holding the first item's result.
    const earlier = { domain: done, ok: false, error: { code: 'UPSTREAM_ERROR', message: 'recorded by the first run' } };
    await t.database.db.insertInto('idempotency_keys').values({
      account_id: cust.accountId, key, request_hash: fingerprint, status_code: 0,
      response: JSON.stringify({ lease_until: new Date(Date.now() - 1000).toISOString(), items: { 0: earlier } }),
      expires_at: new Date(Date.now() + 86_400_000),
    }).execute();
    const res = await bulk('register', body, cust.key, { 'idempotency-key': key });
    assert.equal(res.statusCode, 200, res.body);
    const answer = json(res).data;
    assert.deepEqual(answer.results[0], earlier, 'the recorded item is not run again');
    assert.equal(answer.results[1].ok, true);
    assert.equal(await balanceOf(t, cust), '88.01', 'only the second item was charged');
    const replay = await bulk('register', body, cust.key, { 'idempotency-key': key });
    assert.deepEqual(json(replay).data, answer);
  });

  test('a bulk renewal whose request died between its transactions: the worker finishes each renewal, the retry reports them, no year twice', async () => {
    const [a, b] = [await activeDomain(t, c), await activeDomain(t, c)];
    const before = await balanceOf(t, c);
    const key = randomUUID();
    const body = { domains: [a.domain, b.domain] };
    const dying = connect(t.databaseUrl);
    const hanging = { ...registrarFor(t.config, dying.db), renew: () => new Promise(() => {}) } as unknown as Registrar;
    const ctx: Ctx = {
      db: dying.db, accountId: c.accountId, sandbox: false, now: new Date(), providerTimeoutMs: 1000, operationLeaseS: 3,
      compute: {} as ComputeProvider, hosting: noopPanel, registrar: hanging, jobs: { async enqueueOperation() {} },
    };
    void bulkDomains(ctx, 'renew', body, { key, fingerprint: requestFingerprint('POST', '/v2/domains/bulk/renew', body) }, (op) => op.id).catch(() => {});
    for (let i = 0; ; i++) {
      const ops = await t.database.db.selectFrom('operations').select('id').where('type', '=', 'domain.renew').where('resource_id', 'in', [a.id, b.id]).execute();
      if (ops.length === 2) break;
      assert.ok(i < 400, 'both first transactions commit');
      await new Promise((r) => setTimeout(r, 10));
    }
    await dying.close();
    const res = await bulk('renew', body, c.key, { 'idempotency-key': key });
    // The first tries meet the placeholder while its lease holds (409 after 10 s at most); then the retry takes over.
    const answer = res.statusCode === 409 ? await bulk('renew', body, c.key, { 'idempotency-key': key }) : res;
    assert.equal(answer.statusCode, 200, answer.body);
    assert.deepEqual(json(answer).data.results.map((r: { ok: boolean; id: string }) => [r.ok, r.id]), [[true, a.id], [true, b.id]]);
    const spent = Math.round((Number(before) - Number(await balanceOf(t, c))) * 100);
    assert.equal(spent, 2 * 1399, 'one year each, charged once');
    for (const d of [a, b]) {
      const x = new Date(d.expires_at);
      x.setUTCFullYear(x.getUTCFullYear() + 1);
      assert.equal(json(await call(t.app, 'GET', `/v2/domains/${d.id}`, { key: c.key })).data.expires_at, x.toISOString().replace(/\.\d{3}Z$/, 'Z'));
    }
  });
});
