// Reading domains: availability (GET /domains/check), the price list (GET /domains/pricing), the
// list and the detail — shapes field by field, their errors, bad input, other accounts' ids.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type Customer, type TestApp, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { activeDomain, assertError, freshName, registerDomain, seedElsewhere, setRegistrarFault } from '../helpers/domains.ts';
import { metric } from '../telemetry/helpers.ts';

let t: TestApp;
let c: Customer;
let other: Customer;

before(async () => {
  t = await startApp({ worker: 'embedded' });
  c = await createCustomer(t, { deposit: '500.00' });
  other = await createCustomer(t, { deposit: '500.00' });
});

const check = (domain: string, key = c.key) => call(t.app, 'GET', '/v2/domains/check', { key, query: { domain } });

describe('GET /domains/check', () => {
  test('a free name: {domain, tld, available: true}, normalised', async () => {
    const res = await check('Fresh-Name-42.COM.');
    assert.equal(res.statusCode, 200, res.body);
    const body = json(res);
    assert.deepEqual(body.data, { domain: 'fresh-name-42.com', tld: '.com', available: true });
    assert.equal(body.meta.version, '2.0.0');
  });

  test('an IDN is accepted and answered in punycode', async () => {
    assert.deepEqual(json(await check('Bücher.DE')).data, { domain: 'xn--bcher-kva.de', tld: '.de', available: true });
    assert.deepEqual(json(await check('例え.io')).data, { domain: 'xn--r8jz45g.io', tld: '.io', available: true });
  });

  test('unavailable: held by any account (pending included), or at the registry (seeded or reserved)', async () => {
    const name = freshName();
    await registerDomain(t, other, { domain: name });
    assert.equal(json(await check(name)).data.available, false, "another account's pending registration");
    assert.equal(json(await check('example.com')).data.available, false, 'reserved at IANA (seeded)');
    const elsewhere = freshName('net');
    await seedElsewhere(t, elsewhere);
    assert.equal(json(await check(elsewhere)).data.available, false, 'registered at another registrar');
  });

  test('422 naming domain: unsupported TLD, subdomain, bad labels, numeric TLD, a TLD alone', async () => {
    for (const bad of ['example.zz', 'www.example.com', '-bad.com', `${'a'.repeat(64)}.com`, 'a..com', 'example.123', 'com', 'exa mple.com', 'a/b.com']) {
      assertError(await check(bad), 422, 'VALIDATION_FAILED', ['domain']);
    }
  });

  test('422 naming domain for any spelling of an IP address, said so (not "TLD not offered")', async () => {
    for (const bad of ['0x7f000001', '127.1', '0177.0.0.1', '2130706433', '0x7f000001.', '１２７.０.０.１']) {
      const res = await check(bad);
      assertError(res, 422, 'VALIDATION_FAILED', ['domain']);
      assert.match(json(res).error.errors[0].message, /an IP address, in any spelling, is not a domain name/, bad);
    }
  });

  test('bad query: missing, empty, oversize, NUL, unknown parameters are refused or named', async () => {
    assertError(await call(t.app, 'GET', '/v2/domains/check', { key: c.key }), 422, 'VALIDATION_FAILED', ['domain']);
    assertError(await check(''), 422, 'VALIDATION_FAILED', ['domain']);
    assertError(await check(`${'a'.repeat(250)}.com`), 422, 'VALIDATION_FAILED', ['domain']);
    assertError(await check('a\u0000b.com'), 422, 'VALIDATION_FAILED', ['domain']);
  });

  test('502 UPSTREAM_ERROR when the registrar fails; free and nothing stored', async () => {
    await setRegistrarFault(t, { mode: 'upstream_error', remaining: 1, calls: ['check'] });
    assertError(await check(freshName()), 502, 'UPSTREAM_ERROR');
    assert.equal(json(await check(freshName())).data.available, true, 'the next call works');
  });

  test('registrar calls are counted and timed per method (provider="registrar")', async () => {
    const calls = await metric(t, 'hostcloud_provider_calls_total', { provider: 'registrar', method: 'check' });
    const failures = await metric(t, 'hostcloud_provider_failures_total', { provider: 'registrar', method: 'check', code: 'UPSTREAM_ERROR' });
    await check(freshName());
    await setRegistrarFault(t, { mode: 'upstream_error', remaining: 1, calls: ['check'] });
    await check(freshName());
    assert.equal(await metric(t, 'hostcloud_provider_calls_total', { provider: 'registrar', method: 'check' }), calls + 2);
    assert.equal(await metric(t, 'hostcloud_provider_failures_total', { provider: 'registrar', method: 'check', code: 'UPSTREAM_ERROR' }), failures + 1);
    assert.ok(await metric(t, 'hostcloud_provider_call_duration_seconds', { provider: 'registrar', method: 'check' }) >= 2);
  });

  test('needs the domains:read scope; no key is 401', async () => {
    const servers = await createCustomer(t, { scopes: ['servers:read'] });
    assertError(await check('x.com', servers.key), 403, 'AUTH_SCOPE_INSUFFICIENT');
    assertError(await call(t.app, 'GET', '/v2/domains/check', { query: { domain: 'x.com' } }), 401, 'AUTH_REQUIRED');
  });
});

describe('GET /domains/pricing', () => {
  test('without tld: the catalog, 50 a page by default, TLD order, every field', async () => {
    const res = await call(t.app, 'GET', '/v2/domains/pricing', { key: c.key });
    assert.equal(res.statusCode, 200, res.body);
    const body = json(res);
    assert.deepEqual(body.meta.pagination, { page: 1, per_page: 50, total: 12, total_pages: 1 });
    const tlds = body.data.map((p: { tld: string }) => p.tld);
    assert.deepEqual(tlds, [...tlds].sort());
    const com = body.data.find((p: { tld: string }) => p.tld === '.com');
    assert.deepEqual(com, {
      tld: '.com', register: { amount: '11.99', currency: 'USD' }, renewal: { amount: '13.99', currency: 'USD' },
      transfer: { amount: '11.99', currency: 'USD' }, supports_whois_privacy: true, years_min: 1, years_max: 10, requires_contact: false,
    });
    const de = body.data.find((p: { tld: string }) => p.tld === '.de');
    assert.equal(de.requires_contact, true);
    assert.equal(de.supports_whois_privacy, false);
  });

  test('paging: per_page up to 200; 201 and 0 are 422', async () => {
    const two = json(await call(t.app, 'GET', '/v2/domains/pricing', { key: c.key, query: { per_page: '5', page: '3' } }));
    assert.deepEqual(two.meta.pagination, { page: 3, per_page: 5, total: 12, total_pages: 3 });
    assert.equal(two.data.length, 2);
    assert.equal(json(await call(t.app, 'GET', '/v2/domains/pricing', { key: c.key, query: { per_page: '200' } })).data.length, 12);
    assertError(await call(t.app, 'GET', '/v2/domains/pricing', { key: c.key, query: { per_page: '201' } }), 422, 'VALIDATION_FAILED', ['per_page']);
    assertError(await call(t.app, 'GET', '/v2/domains/pricing', { key: c.key, query: { per_page: '0' } }), 422, 'VALIDATION_FAILED', ['per_page']);
  });

  test('with tld, with or without the dot, any case: that TLD as an object', async () => {
    for (const tld of ['io', '.io', 'IO']) {
      const res = await call(t.app, 'GET', '/v2/domains/pricing', { key: c.key, query: { tld } });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(json(res).data.tld, '.io');
      assert.equal(json(res).data.register.amount, '39.99');
      assert.equal(json(res).meta.pagination, undefined);
    }
  });

  test('an unknown TLD is 404 RESOURCE_NOT_FOUND', async () => {
    assertError(await call(t.app, 'GET', '/v2/domains/pricing', { key: c.key, query: { tld: 'zz' } }), 404, 'RESOURCE_NOT_FOUND');
    assertError(await call(t.app, 'GET', '/v2/domains/pricing', { key: c.key, query: { tld: 'x'.repeat(65) } }), 422, 'VALIDATION_FAILED', ['tld']);
  });
});

describe('GET /domains and /domains/{id}', () => {
  let active: Record<string, unknown>;
  let owner: Customer;

  before(async () => {
    owner = await createCustomer(t, { deposit: '200.00' });
    active = await activeDomain(t, owner, { domain: freshName('net'), nameservers: ['ns1.example.net', 'NS2.Example.NET.'], auto_renew: false });
  });

  test('the detail: every field of the domain resource', async () => {
    const res = await call(t.app, 'GET', `/v2/domains/${active.id}`, { key: owner.key });
    const d = json(res).data;
    assert.match(d.id, /^dom_[0-9A-Za-z]{16}$/);
    assert.match(d.domain, /^shop-[0-9a-f]{10}\.net$/);
    assert.equal(d.status, 'active');
    assert.equal(d.auto_renew, false);
    assert.match(d.registered_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const years = (new Date(d.expires_at).getTime() - new Date(d.registered_at).getTime()) / (365 * 86_400_000);
    assert.ok(years > 0.99 && years < 1.01, `one year: ${d.registered_at} → ${d.expires_at}`);
    assert.deepEqual(d.nameservers, ['ns1.example.net', 'ns2.example.net']);
    assert.equal(d.tld, '.net');
    assert.match(d.service_id, /^svc_[0-9A-Za-z]{12}$/);
    assert.equal(d.registrar, 'Hostcloud Registrar (simulated)');
    assert.equal(d.transfer_lock, true);
    assert.equal(d.whois_privacy, true, 'on by default where the TLD has it');
    assert.equal(d.registration_years, 1);
    assert.deepEqual(d.billing, { register: { amount: '12.99', currency: 'USD' }, renewal: { amount: '14.99', currency: 'USD' } });
    assert.deepEqual(Object.keys(d).sort(), ['auto_renew', 'billing', 'domain', 'expires_at', 'id', 'nameservers', 'registered_at', 'registrar',
      'registration_years', 'service_id', 'status', 'tld', 'transfer_lock', 'whois_privacy']);
  });

  test('the list: newest first, paged, status filter, the same items as the detail', async () => {
    const pending = await registerDomain(t, owner, { domain: freshName('org') });
    const list = json(await call(t.app, 'GET', '/v2/domains', { key: owner.key }));
    assert.equal(list.meta.pagination.total, 2);
    assert.equal(list.data[0].id, pending.id, 'newest first');
    assert.deepEqual(list.data[1], json(await call(t.app, 'GET', `/v2/domains/${active.id}`, { key: owner.key })).data);
    const onlyActive = json(await call(t.app, 'GET', '/v2/domains', { key: owner.key, query: { status: 'active' } }));
    assert.deepEqual(onlyActive.data.map((d: { id: string }) => d.id), [active.id]);
    const page2 = json(await call(t.app, 'GET', '/v2/domains', { key: owner.key, query: { per_page: '1', page: '2' } }));
    assert.deepEqual(page2.data.map((d: { id: string }) => d.id), [active.id]);
    assert.deepEqual(page2.meta.pagination, { page: 2, per_page: 1, total: 2, total_pages: 2 });
    assertError(await call(t.app, 'GET', '/v2/domains', { key: owner.key, query: { status: 'parked' } }), 422, 'VALIDATION_FAILED', ['status']);
    assertError(await call(t.app, 'GET', '/v2/domains', { key: owner.key, query: { per_page: '101' } }), 422, 'VALIDATION_FAILED', ['per_page']);
    await waitForOperation(t, owner.key, pending.operation.id);
  });

  test("another account's id is 404 and never data; so is an unknown id", async () => {
    assertError(await call(t.app, 'GET', `/v2/domains/${active.id}`, { key: other.key }), 404, 'RESOURCE_NOT_FOUND');
    assertError(await call(t.app, 'GET', '/v2/domains/dom_doesnotexist0000', { key: owner.key }), 404, 'RESOURCE_NOT_FOUND');
    assertError(await call(t.app, 'GET', `/v2/domains/${'x'.repeat(65)}`, { key: owner.key }), 422, 'VALIDATION_FAILED', ['id']);
    assert.equal(json(await call(t.app, 'GET', '/v2/domains', { key: other.key })).data.some((d: { id: string }) => d.id === active.id), false);
  });
});
