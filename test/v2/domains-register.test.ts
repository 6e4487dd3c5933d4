// POST /v2/domains: the answer field by field, the charge, the worker's registration, every
// documented error in the API's check order (docs/architecture.md, "Check order"), bad input, the Idempotency-Key, and a registrar failure
// after the charge (the operation fails and refunds).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { CONTACT, assertError, balanceOf, freshName, ledgerCents, registerDomain, seedElsewhere, setRegistrarFault, settleOperations } from '../helpers/domains.ts';

let t: TestApp;
let c: Customer;

before(async () => {
  // One retry, a second apart: a failing registrar gives up within the test's time.
  t = await startApp({ worker: 'embedded', jobRetryLimit: 1, jobRetryDelayS: 1 });
  c = await createCustomer(t, { deposit: '1000.00' });
});

const post = (body: unknown, key = c.key, headers: Record<string, string> = {}) => call(t.app, 'POST', '/v2/domains', { key, body, headers });

async function registryFault(): Promise<{ remaining: number | null }> {
  return json(await adminCall(t, 'GET', '/admin/v1/providers/registrar/fault')).data;
}

describe('a registration', () => {
  test('201: the pending domain and its queued domain.register operation; register price × years charged', async () => {
    const cust = await createCustomer(t, { deposit: '50.00' });
    const name = freshName('net');
    const res = await post({ domain: name.toUpperCase(), years: 2 }, cust.key);
    assert.equal(res.statusCode, 201, res.body);
    const body = json(res);
    const d = body.data;
    assert.match(d.id, /^dom_[0-9A-Za-z]{16}$/);
    assert.equal(d.domain, name);
    assert.equal(d.status, 'pending');
    assert.equal(d.auto_renew, true);
    assert.equal(d.registered_at, null);
    assert.equal(d.expires_at, null);
    assert.deepEqual(d.nameservers, ['ns1.hostcloud.test', 'ns2.hostcloud.test']);
    assert.equal(d.tld, '.net');
    assert.match(d.service_id, /^svc_/);
    assert.equal(d.registrar, 'Hostcloud Registrar (simulated)');
    assert.equal(d.transfer_lock, true);
    assert.equal(d.whois_privacy, true);
    assert.equal(d.registration_years, 2);
    assert.deepEqual(d.billing, { register: { amount: '12.99', currency: 'USD' }, renewal: { amount: '14.99', currency: 'USD' } });
    assert.equal(d.operation.type, 'domain.register');
    assert.equal(d.operation.status, 'queued');
    assert.deepEqual(d.operation.resource, { type: 'domain', id: d.id });
    assert.equal(body.meta.sandbox, undefined);
    assert.equal(res.headers['idempotent-replayed'], undefined);
    assert.equal(await balanceOf(t, cust), '24.02', '50.00 − 2 × 12.99');
    const [tx] = json(await call(t.app, 'GET', '/v2/billing/transactions', { key: cust.key, query: { type: 'withdraw' } })).data;
    assert.equal(tx.amount.amount, '25.98');
    assert.equal(tx.description, `Domain ${name} (${d.service_id}): registration for 2 years, 25.98 USD`);

    const op = await waitForOperation(t, cust.key, d.operation.id);
    assert.equal(op.status, 'completed', op.detail);
    assert.equal(op.progress_pct, 100);
    assert.match(op.detail, /^Registered until \d{4}-\d\d-\d\d$/);
    const active = json(await call(t.app, 'GET', `/v2/domains/${d.id}`, { key: cust.key })).data;
    assert.equal(active.status, 'active');
    const years = (new Date(active.expires_at).getTime() - new Date(active.registered_at).getTime()) / (365.25 * 86_400_000);
    assert.ok(Math.abs(years - 2) < 0.01, `two years: ${active.registered_at} → ${active.expires_at}`);
    // The registry holds it now, sponsored by us: no one can register it again.
    assert.equal(json(await call(t.app, 'GET', '/v2/domains/check', { key: c.key, query: { domain: name } })).data.available, false);
    const row = await t.database.db.selectFrom('sim_registry_domains').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
    assert.equal(row.sponsor, 'us');
    assert.equal(row.created_by, d.operation.id, 'the operation id was the request token');
  });

  test('options: nameservers (normalised), whois_privacy off, auto_renew off, an IDN', async () => {
    const created = await registerDomain(t, c, {
      domain: 'Bücher-Shop-42.COM', nameservers: ['NS1.Example.NET.', 'ns2.example.net', 'ns3.bücher.de'], whois_privacy: false, auto_renew: false,
    });
    assert.equal(created.domain, 'xn--bcher-shop-42-wob.com');
    assert.deepEqual(created.nameservers, ['ns1.example.net', 'ns2.example.net', 'ns3.xn--bcher-kva.de']);
    assert.equal(created.whois_privacy, false);
    assert.equal(created.auto_renew, false);
    assert.equal((await waitForOperation(t, c.key, created.operation.id)).status, 'completed');
  });

  test('TLDs flagged requires_contact (.de, .eu) need the contact; others take it when given', async () => {
    const error = assertError(await post({ domain: freshName('de'), years: 1 }), 422, 'VALIDATION_FAILED', ['contact']);
    assert.match(error.errors[0].message, /required for \.de/);
    const de = await registerDomain(t, c, { domain: freshName('de'), contact: CONTACT });
    assert.equal(de.whois_privacy, false, '.de has no WHOIS privacy: off by default');
    assert.equal((await waitForOperation(t, c.key, de.operation.id)).status, 'completed');
    const opRow = await t.database.db.selectFrom('operations').select('params').where('id', '=', de.operation.id).executeTakeFirstOrThrow();
    assert.equal(opRow.params.contact, undefined, 'the registrant contact is not kept once registered');
    await registerDomain(t, c, { domain: freshName('com'), contact: { ...CONTACT, country: 'gb' } });
    assertError(await post({ domain: freshName('de'), years: 1, contact: { ...CONTACT, email: 'not-an-email' } }), 422, 'VALIDATION_FAILED', ['contact.email']);
    assertError(await post({ domain: freshName('de'), years: 1, contact: { ...CONTACT, phone: '030 1234' } }), 422, 'VALIDATION_FAILED', ['contact.phone']);
    const { city: _city, ...noCity } = CONTACT;
    assertError(await post({ domain: freshName('de'), years: 1, contact: noCity }), 422, 'VALIDATION_FAILED', ['contact.city']);
    assertError(await post({ domain: freshName('de'), years: 1, contact: { ...CONTACT, fax: '1' } }), 422, 'VALIDATION_FAILED', ['contact.fax']);
  });
});

describe('errors, in the order input → TLD → state → balance → registrar', () => {
  test('years outside the TLD\'s range is 422 naming years', async () => {
    assertError(await post({ domain: freshName('uk'), years: 6 }), 422, 'VALIDATION_FAILED', ['years']);
    assertError(await post({ domain: freshName(), years: 0 }), 422, 'VALIDATION_FAILED', ['years']);
    assertError(await post({ domain: freshName(), years: 11 }), 422, 'VALIDATION_FAILED', ['years']);
    assertError(await post({ domain: freshName() }), 422, 'VALIDATION_FAILED', ['years']);
  });

  test('the name: unsupported TLD, subdomain, invalid labels — 422 naming domain', async () => {
    for (const domain of ['shop.zz', 'www.shop.com', 'sh_op.com', '-shop.com', `${'a'.repeat(64)}.com`, 'shop.123', 'a\u0000b.com']) {
      assertError(await post({ domain, years: 1 }), 422, 'VALIDATION_FAILED', ['domain']);
    }
  });

  test('nameservers: 2 to 13 distinct valid host names', async () => {
    assertError(await post({ domain: freshName(), years: 1, nameservers: ['ns1.example.net'] }), 422, 'VALIDATION_FAILED', ['nameservers']);
    const fourteen = Array.from({ length: 14 }, (_, i) => `ns${i}.example.net`);
    assertError(await post({ domain: freshName(), years: 1, nameservers: fourteen }), 422, 'VALIDATION_FAILED', ['nameservers']);
    assertError(await post({ domain: freshName(), years: 1, nameservers: ['ns1.example.net', 'NS1.example.net.'] }), 422, 'VALIDATION_FAILED', ['nameservers[1]']);
    assertError(await post({ domain: freshName(), years: 1, nameservers: ['ns1.example.net', 'localhost'] }), 422, 'VALIDATION_FAILED', ['nameservers[1]']);
    assertError(await post({ domain: freshName(), years: 1, nameservers: ['ns1 example net', 'ns2.example.net'] }), 422, 'VALIDATION_FAILED', ['nameservers[0]']);
  });

  test('WHOIS privacy on a TLD without it is 422 naming whois_privacy', async () => {
    assertError(await post({ domain: freshName('eu'), years: 1, whois_privacy: true, contact: CONTACT }), 422, 'VALIDATION_FAILED', ['whois_privacy']);
  });

  test('bad input: wrong types, unknown fields, oversize strings, NUL, no body', async () => {
    assertError(await post({ domain: 42, years: '1' }), 422, 'VALIDATION_FAILED', ['domain', 'years']);
    assertError(await post({ domain: freshName(), years: 1, colour: 'blue' }), 422, 'VALIDATION_FAILED', ['colour']);
    assertError(await post({ domain: `${'a'.repeat(250)}.com`, years: 1 }), 422, 'VALIDATION_FAILED', ['domain']);
    assertError(await post({ domain: freshName(), years: 1, auto_renew: 'yes', whois_privacy: 1 }), 422, 'VALIDATION_FAILED', ['auto_renew', 'whois_privacy']);
    assertError(await post({ domain: freshName(), years: 1, nameservers: 'ns1.example.net' }), 422, 'VALIDATION_FAILED', ['nameservers']);
    assertError(await post({ domain: freshName(), years: 1, contact: { ...CONTACT, first_name: 'A\u0000' } }), 422, 'VALIDATION_FAILED', ['contact.first_name']);
    assertError(await post(undefined), 422, 'VALIDATION_FAILED');
    assertError(await call(t.app, 'POST', '/v2/domains', { key: c.key, body: 'domain=x', headers: { 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
    assertError(await call(t.app, 'POST', '/v2/domains', { key: c.key, body: '{"domain":', headers: { 'content-type': 'application/json' } }), 400, 'REQUEST_MALFORMED');
  });

  test('a name held here (another account\'s, or the caller\'s own) or at another registrar is 422 naming domain, uncharged', async () => {
    const other = await createCustomer(t, { deposit: '100.00' });
    const name = freshName();
    await registerDomain(t, other, { domain: name });
    const before = await balanceOf(t, c);
    assert.match(assertError(await post({ domain: name, years: 1 }), 422, 'VALIDATION_FAILED', ['domain']).errors[0].message, /not available/);
    assert.match(assertError(await post({ domain: name, years: 1 }, other.key), 422, 'VALIDATION_FAILED', ['domain']).errors[0].message, /already in your account/);
    const elsewhere = freshName();
    await seedElsewhere(t, elsewhere);
    assertError(await post({ domain: elsewhere, years: 1 }), 422, 'VALIDATION_FAILED', ['domain']);
    assertError(await post({ domain: 'example.org', years: 1 }), 422, 'VALIDATION_FAILED', ['domain']);
    assert.equal(await balanceOf(t, c), before);
  });

  test('INSUFFICIENT_BALANCE comes before any registrar call, and after validation', async () => {
    const poor = await createCustomer(t, { deposit: '5.00' });
    await setRegistrarFault(t, { mode: 'upstream_error', remaining: 1, calls: ['check'] });
    try {
      assert.match(assertError(await post({ domain: freshName(), years: 1 }, poor.key), 422, 'INSUFFICIENT_BALANCE').message, /5\.00 USD is less than the 11\.99 USD/);
      assert.equal((await registryFault()).remaining, 1, 'the registrar was not asked');
      assertError(await post({ domain: freshName(), years: 99 }, poor.key), 422, 'VALIDATION_FAILED', ['years']);
    } finally {
      await setRegistrarFault(t, { mode: 'none' });
    }
    assert.equal(await balanceOf(t, poor), '5.00');
  });

  test('the registrar failing before the charge is 502 UPSTREAM_ERROR, nothing charged, nothing kept', async () => {
    const name = freshName();
    const before = await balanceOf(t, c);
    await setRegistrarFault(t, { mode: 'upstream_error', remaining: 1, calls: ['check'] });
    assertError(await post({ domain: name, years: 1 }), 502, 'UPSTREAM_ERROR');
    assert.equal(await balanceOf(t, c), before);
    assert.equal(json(await call(t.app, 'GET', '/v2/domains/check', { key: c.key, query: { domain: name } })).data.available, true);
  });
});

test('register and transfer: any spelling of an IP address is 422 naming domain, said so; nothing charged', async () => {
  const before = await balanceOf(t, c);
  for (const domain of ['0x7f000001', '127.1', '0177.0.0.1', '2130706433']) {
    for (const [url, body] of [['/v2/domains', { domain, years: 1 }], ['/v2/domains/transfer', { domain, auth_code: 'Abc-12345' }]] as const) {
      const res = await call(t.app, 'POST', url, { key: c.key, body });
      assertError(res, 422, 'VALIDATION_FAILED', ['domain']);
      assert.match(json(res).error.errors[0].message, /an IP address, in any spelling, is not a domain name/, `${url} ${domain}`);
    }
  }
  assert.equal(await balanceOf(t, c), before);
});

test('the registrar failing after the charge: the operation fails, the domain is cancelled and refunded, the name is free again', async () => {
  const cust = await createCustomer(t, { deposit: '30.00' });
  const name = freshName('org');
  // Both attempts (the first and its one retry) fail at the registrar — this registration's, once
  // the registrations of earlier tests are done.
  await settleOperations(t);
  await setRegistrarFault(t, { mode: 'upstream_error', remaining: 2, calls: ['register'] });
  const created = await registerDomain(t, cust, { domain: name });
  assert.equal(await balanceOf(t, cust), '19.01');
  const op = await waitForOperation(t, cust.key, created.operation.id, 60_000);
  assert.equal(op.status, 'failed');
  assert.match(op.detail, /The provider failed: Simulated upstream error \(register\)/);
  const d = json(await call(t.app, 'GET', `/v2/domains/${created.id}`, { key: cust.key })).data;
  assert.equal(d.status, 'cancelled');
  assert.equal(await balanceOf(t, cust), '30.00', 'the balance ends where it started');
  const refunds = json(await call(t.app, 'GET', '/v2/billing/transactions', { key: cust.key, query: { type: 'refund' } })).data;
  assert.equal(refunds.length, 1);
  assert.equal(refunds[0].amount.amount, '10.99');
  assert.match(refunds[0].description, new RegExp(`^Refund: domain ${name.replace(/\./g, '\\.')} \\(svc_\\w+\\) could not be registered`));
  const { ledger, balance } = await ledgerCents(t, cust.accountId);
  assert.equal(ledger, balance);
  assert.equal(json(await call(t.app, 'GET', '/v2/domains/check', { key: c.key, query: { domain: name } })).data.available, true);
  // It can be registered again.
  assert.equal((await waitForOperation(t, cust.key, (await registerDomain(t, cust, { domain: name })).operation.id)).status, 'completed');
});

test('scopes: a domains-only key registers and polls its domain operations; a servers-only key does neither', async () => {
  const scoped = await createCustomer(t, { deposit: '50.00', scopes: ['domains:read', 'domains:write'] });
  const created = await registerDomain(t, scoped, { domain: freshName() });
  const polled = await call(t.app, 'GET', `/v2/operations/${created.operation.id}`, { key: scoped.key });
  assert.equal(polled.statusCode, 200, polled.body);
  assert.equal(json(polled).data.type, 'domain.register');
  const k = await adminCall(t, 'POST', `/admin/v1/accounts/${scoped.accountId}/api-keys`, { name: 'servers', ip_allowlist: ['127.0.0.1'], scopes: ['servers:read', 'servers:write'] });
  const serversKey = json(k).data.key as string;
  assert.match(assertError(await call(t.app, 'GET', `/v2/operations/${created.operation.id}`, { key: serversKey }), 403, 'AUTH_SCOPE_INSUFFICIENT').message, /domains:read/);
  assertError(await call(t.app, 'POST', '/v2/domains', { key: serversKey, body: { domain: freshName(), years: 1 } }), 403, 'AUTH_SCOPE_INSUFFICIENT');
  const readOnly = await createCustomer(t, { scopes: ['domains:read'] });
  assertError(await call(t.app, 'POST', '/v2/domains', { key: readOnly.key, body: { domain: freshName(), years: 1 } }), 403, 'AUTH_SCOPE_INSUFFICIENT');
  assert.equal((await call(t.app, 'GET', '/v2/domains', { key: readOnly.key })).statusCode, 200);
});

describe('Idempotency-Key', () => {
  test('the same key and body replays the 201 (also once the name is taken by it), charged once; another body is 409', async () => {
    const cust = await createCustomer(t, { deposit: '100.00' });
    const key = randomUUID();
    const body = { domain: freshName(), years: 1 };
    const first = await post(body, cust.key, { 'idempotency-key': key });
    assert.equal(first.statusCode, 201, first.body);
    const again = await post(body, cust.key, { 'idempotency-key': key });
    assert.equal(again.statusCode, 201, again.body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(json(again).data, json(first).data);
    await waitForOperation(t, cust.key, json(first).data.operation.id);
    const later = await post(body, cust.key, { 'idempotency-key': key });
    assert.equal(later.statusCode, 201, 'replayed, not refused as taken');
    assert.deepEqual(json(later).data, json(first).data);
    assert.equal(await balanceOf(t, cust), '88.01');
    assertError(await post({ ...body, years: 2 }, cust.key, { 'idempotency-key': key }), 409, 'IDEMPOTENCY_KEY_CONFLICT');
    assertError(await post(body, cust.key, { 'idempotency-key': 'not-a-uuid' }), 422, 'VALIDATION_FAILED', ['Idempotency-Key']);
  });

  test('parallel duplicates with one key: one registration, one charge', async () => {
    const cust = await createCustomer(t, { deposit: '100.00' });
    const key = randomUUID();
    const body = { domain: freshName(), years: 1 };
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(body, cust.key, { 'idempotency-key': key })));
    for (const a of answers) assert.equal(a.statusCode, 201, a.body);
    assert.equal(new Set(answers.map((a) => json(a).data.id)).size, 1);
    assert.equal(await balanceOf(t, cust), '88.01');
  });
});
