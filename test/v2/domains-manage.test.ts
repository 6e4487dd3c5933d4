// Free changes of a domain: GET/PUT nameservers, PUT lock, PUT whois-privacy, GET/POST auth-code —
// the registrar changed first, nothing stored when it fails; only active domains; other accounts 404.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { CONTACT, activeDomain, assertError, balanceOf, freshName, registerDomain, setRegistrarFault, settleOperations } from '../helpers/domains.ts';

let t: TestApp;
let c: Customer;
let other: Customer;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let d: any;

before(async () => {
  t = await startApp({ worker: 'embedded' });
  c = await createCustomer(t, { deposit: '500.00' });
  other = await createCustomer(t, { deposit: '100.00' });
  d = await activeDomain(t, c, { domain: freshName('com') });
});

const registry = (name: string) => t.database.db.selectFrom('sim_registry_domains').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
const put = (path: string, body: unknown, key = c.key) => call(t.app, 'PUT', `/v2/domains/${d.id}/${path}`, { key, body });

describe('nameservers', () => {
  test('GET: {id, domain, nameservers}', async () => {
    const res = await call(t.app, 'GET', `/v2/domains/${d.id}/nameservers`, { key: c.key });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(json(res).data, { id: d.id, domain: d.domain, nameservers: ['ns1.hostcloud.test', 'ns2.hostcloud.test'] });
  });

  test('PUT replaces the set (normalised, IDN in punycode) at the registrar and here; free', async () => {
    const before = await balanceOf(t, c);
    const res = await put('nameservers', { nameservers: ['NS1.Example.NET.', 'ns2.example.net', 'ns.bücher.de'] });
    assert.equal(res.statusCode, 200, res.body);
    const want = ['ns1.example.net', 'ns2.example.net', 'ns.xn--bcher-kva.de'];
    assert.deepEqual(json(res).data, { id: d.id, domain: d.domain, nameservers: want });
    assert.deepEqual(json(await call(t.app, 'GET', `/v2/domains/${d.id}`, { key: c.key })).data.nameservers, want);
    assert.deepEqual((await registry(d.domain)).nameservers, want);
    assert.equal(await balanceOf(t, c), before);
  });

  test('2 to 13 distinct valid host names; bad input named', async () => {
    assertError(await put('nameservers', { nameservers: ['ns1.example.net'] }), 422, 'VALIDATION_FAILED', ['nameservers']);
    assertError(await put('nameservers', { nameservers: Array.from({ length: 14 }, (_, i) => `ns${i}.example.net`) }), 422, 'VALIDATION_FAILED', ['nameservers']);
    assertError(await put('nameservers', { nameservers: ['ns1.example.net', 'NS1.EXAMPLE.NET'] }), 422, 'VALIDATION_FAILED', ['nameservers[1]']);
    assertError(await put('nameservers', { nameservers: ['ns1.example.net', 'not a host'] }), 422, 'VALIDATION_FAILED', ['nameservers[1]']);
    assertError(await put('nameservers', { nameservers: ['ns1.example.net', 'x'.repeat(254)] }), 422, 'VALIDATION_FAILED', ['nameservers[1]']);
    assertError(await put('nameservers', { nameservers: ['ns1.example.net', 'ns2\u0000.example.net'] }), 422, 'VALIDATION_FAILED', ['nameservers[1]']);
    assertError(await put('nameservers', { nameservers: 'ns1.example.net' }), 422, 'VALIDATION_FAILED', ['nameservers']);
    assertError(await put('nameservers', { nameservers: ['a.example.net', 'b.example.net'], ttl: 60 }), 422, 'VALIDATION_FAILED', ['ttl']);
    assertError(await put('nameservers', {}), 422, 'VALIDATION_FAILED', ['nameservers']);
  });

  test('the registrar failing: 502, nothing changed', async () => {
    const now = json(await call(t.app, 'GET', `/v2/domains/${d.id}/nameservers`, { key: c.key })).data.nameservers;
    await setRegistrarFault(t, { mode: 'upstream_error', remaining: 1, calls: ['setNameservers'] });
    assertError(await put('nameservers', { nameservers: ['x1.example.org', 'x2.example.org'] }), 502, 'UPSTREAM_ERROR');
    assert.deepEqual(json(await call(t.app, 'GET', `/v2/domains/${d.id}/nameservers`, { key: c.key })).data.nameservers, now);
  });
});

describe('transfer lock', () => {
  test('PUT lock {enabled} → the domain, locked or not, at the registrar too', async () => {
    const off = await put('lock', { enabled: false });
    assert.equal(off.statusCode, 200, off.body);
    assert.equal(json(off).data.transfer_lock, false);
    assert.equal(json(off).data.id, d.id);
    assert.equal((await registry(d.domain)).transfer_lock, false);
    const on = await put('lock', { enabled: true });
    assert.equal(json(on).data.transfer_lock, true);
    assert.equal((await registry(d.domain)).transfer_lock, true);
  });

  test('bad input and a failing registrar', async () => {
    assertError(await put('lock', {}), 422, 'VALIDATION_FAILED', ['enabled']);
    assertError(await put('lock', { enabled: 'yes' }), 422, 'VALIDATION_FAILED', ['enabled']);
    assertError(await put('lock', { enabled: true, until: 1 }), 422, 'VALIDATION_FAILED', ['until']);
    await setRegistrarFault(t, { mode: 'upstream_error', remaining: 1, calls: ['setTransferLock'] });
    assertError(await put('lock', { enabled: false }), 502, 'UPSTREAM_ERROR');
    assert.equal(json(await call(t.app, 'GET', `/v2/domains/${d.id}`, { key: c.key })).data.transfer_lock, true);
  });
});

describe('WHOIS privacy', () => {
  test('PUT whois-privacy {enabled} → the domain, at the registrar too', async () => {
    const off = await put('whois-privacy', { enabled: false });
    assert.equal(off.statusCode, 200, off.body);
    assert.equal(json(off).data.whois_privacy, false);
    assert.equal((await registry(d.domain)).whois_privacy, false);
    assert.equal(json(await put('whois-privacy', { enabled: true })).data.whois_privacy, true);
    assert.equal((await registry(d.domain)).whois_privacy, true);
  });

  test('a TLD without WHOIS privacy: enabling is 422 naming whois_privacy; disabling is fine', async () => {
    const de = await activeDomain(t, c, { domain: freshName('de'), contact: CONTACT });
    assertError(await call(t.app, 'PUT', `/v2/domains/${de.id}/whois-privacy`, { key: c.key, body: { enabled: true } }), 422, 'VALIDATION_FAILED', ['whois_privacy']);
    assert.equal((await call(t.app, 'PUT', `/v2/domains/${de.id}/whois-privacy`, { key: c.key, body: { enabled: false } })).statusCode, 200);
    assertError(await put('whois-privacy', { enabled: null }), 422, 'VALIDATION_FAILED', ['enabled']);
  });
});

describe('auth code', () => {
  const authCode = (method: 'GET' | 'POST', key = c.key, id = d.id) => call(t.app, method, `/v2/domains/${id}/auth-code`, { key });

  test('GET auth-code: read from the registrar the first time, then the stored one; a GET never changes it', async () => {
    const res = await authCode('GET');
    assert.equal(res.statusCode, 200, res.body);
    const code = json(res).data.auth_code;
    assert.equal(code, (await registry(d.domain)).auth_code);
    assert.deepEqual(Object.keys(json(res).data), ['auth_code']);
    // Stored: the registrar is not asked again (a failing one does not matter).
    await setRegistrarFault(t, { mode: 'upstream_error', remaining: 1, calls: ['getAuthCode'] });
    assert.equal(json(await authCode('GET')).data.auth_code, code);
    await setRegistrarFault(t, { mode: 'none' });
    // The old `?refresh=true` issues nothing (refused as an unknown parameter, or ignored).
    await call(t.app, 'GET', `/v2/domains/${d.id}/auth-code`, { key: c.key, query: { refresh: 'true' } });
    assert.equal((await registry(d.domain)).auth_code, code);
    assert.equal(json(await authCode('GET')).data.auth_code, code);
  });

  test('POST auth-code issues a new code at the registrar; the old one is gone and GET answers the new one', async () => {
    const old = json(await authCode('GET')).data.auth_code;
    const res = await authCode('POST');
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(Object.keys(json(res).data), ['auth_code']);
    const fresh = json(res).data.auth_code;
    assert.notEqual(fresh, old);
    assert.equal((await registry(d.domain)).auth_code, fresh);
    assert.equal(json(await authCode('GET')).data.auth_code, fresh);
  });

  test('both need domains:write: a read-only key (or sub-user) is 403 on GET and POST and learns nothing; a write key works', async () => {
    const keyOf = async (scopes: string[], subUserId?: number) => {
      const res = await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/api-keys`, {
        name: 'scoped', ip_allowlist: ['127.0.0.1'], scopes, ...(subUserId === undefined ? {} : { sub_user_id: subUserId }),
      });
      assert.equal(res.statusCode, 201, res.body);
      return json(res).data.key as string;
    };
    const before = (await registry(d.domain)).auth_code;
    const reader = await keyOf(['domains:read']);
    assert.equal((await call(t.app, 'GET', `/v2/domains/${d.id}`, { key: reader })).statusCode, 200);
    for (const method of ['GET', 'POST'] as const) {
      const err = assertError(await authCode(method, reader), 403, 'AUTH_SCOPE_INSUFFICIENT');
      assert.match(err.message, /domains:write/);
      assert.ok(!JSON.stringify(err).includes(before));
    }
    assert.equal((await registry(d.domain)).auth_code, before);

    const writer = await keyOf(['domains:write']);
    assert.equal(json(await authCode('GET', writer)).data.auth_code, before);
    const fresh = json(await authCode('POST', writer)).data.auth_code;
    assert.notEqual(fresh, before);

    // A sub-user's key: its permissions are scope names, so `domains:read` alone is not enough either.
    const invited = await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/sub-users`, { email: `sub-${freshName()}@example.com`, first_name: 'R', last_name: 'O' });
    const sub = json(invited).data.id as number;
    assert.equal((await call(t.app, 'PATCH', `/v2/sub-users/${sub}`, { key: c.key, body: { status: 'active' } })).statusCode, 200);
    const permit = (permissions: string[]) => call(t.app, 'PUT', `/v2/sub-users/${sub}/permissions`, { key: c.key, body: { permissions } });
    assert.equal((await permit(['domains:read'])).statusCode, 200);
    const subKey = await keyOf(['domains:read', 'domains:write'], sub);
    for (const method of ['GET', 'POST'] as const) assertError(await authCode(method, subKey), 403, 'AUTH_SCOPE_INSUFFICIENT');
    assert.equal((await permit(['domains:read', 'domains:write'])).statusCode, 200);
    assert.equal(json(await authCode('GET', subKey)).data.auth_code, fresh);
  });

  test('the registrar failing on a first read or on a new code is 502, and the stored code stays', async () => {
    const fresh = await activeDomain(t, c);
    await setRegistrarFault(t, { mode: 'upstream_error', remaining: 2, calls: ['getAuthCode', 'refreshAuthCode'] });
    assertError(await authCode('GET', c.key, fresh.id), 502, 'UPSTREAM_ERROR');
    assertError(await authCode('POST', c.key, fresh.id), 502, 'UPSTREAM_ERROR');
    const code = json(await authCode('GET', c.key, fresh.id)).data.auth_code;
    await setRegistrarFault(t, { mode: 'upstream_error', remaining: 1, calls: ['refreshAuthCode'] });
    assertError(await authCode('POST', c.key, fresh.id), 502, 'UPSTREAM_ERROR');
    assert.equal(json(await authCode('GET', c.key, fresh.id)).data.auth_code, code);
  });
});

describe("another account's domain, and a domain that is not active", () => {
  test("every read, write and action on another account's id is 404, and changes nothing", async () => {
    const before = json(await call(t.app, 'GET', `/v2/domains/${d.id}`, { key: c.key })).data;
    const attempts: [string, string, unknown][] = [
      ['GET', `/v2/domains/${d.id}`, undefined],
      ['GET', `/v2/domains/${d.id}/nameservers`, undefined],
      ['PUT', `/v2/domains/${d.id}/nameservers`, { nameservers: ['a.example.net', 'b.example.net'] }],
      ['PUT', `/v2/domains/${d.id}/lock`, { enabled: false }],
      ['PUT', `/v2/domains/${d.id}/whois-privacy`, { enabled: false }],
      ['GET', `/v2/domains/${d.id}/auth-code`, undefined],
      ['POST', `/v2/domains/${d.id}/auth-code`, undefined],
      ['POST', `/v2/domains/${d.id}/renew`, { years: 1 }],
    ];
    for (const [method, url, body] of attempts) {
      assertError(await call(t.app, method as 'GET', url, { key: other.key, ...(body === undefined ? {} : { body }) }), 404, 'RESOURCE_NOT_FOUND');
    }
    assert.deepEqual(json(await call(t.app, 'GET', `/v2/domains/${d.id}`, { key: c.key })).data, before);
    const bulk = json(await call(t.app, 'POST', '/v2/domains/bulk/renew', { key: other.key, body: { domains: [d.domain] } })).data;
    assert.equal(bulk.results[0].error.code, 'RESOURCE_NOT_FOUND');
  });

  test('a pending domain: changes are 409 STATE_CONFLICT; its nameservers can be read', async () => {
    await settleOperations(t);
    await setRegistrarFault(t, { mode: 'upstream_error', calls: ['register'] });
    try {
      const pending = await registerDomain(t, c, { domain: freshName() });
      for (const [method, path, body] of [['PUT', 'nameservers', { nameservers: ['a.example.net', 'b.example.net'] }], ['PUT', 'lock', { enabled: false }],
        ['PUT', 'whois-privacy', { enabled: false }], ['GET', 'auth-code', undefined], ['POST', 'auth-code', undefined]] as const) {
        const res = await call(t.app, method, `/v2/domains/${pending.id}/${path}`, { key: c.key, ...(body === undefined ? {} : { body }) });
        assert.match(assertError(res, 409, 'STATE_CONFLICT').message, /is pending; this change needs an active domain/);
      }
      assert.equal((await call(t.app, 'GET', `/v2/domains/${pending.id}/nameservers`, { key: c.key })).statusCode, 200);
    } finally {
      await setRegistrarFault(t, { mode: 'none' });
    }
  });
});
