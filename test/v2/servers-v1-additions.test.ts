// What v2 gained from v1: reverse DNS of an address (set at the platform), cancelling an
// extra address (prorated refund, price lowered, address released), deleting a snapshot (billing
// stops) and restoring one (an operation).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import ipaddr from 'ipaddr.js';
import { type Customer, type TestApp, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { type Json, activeServer, createServer } from '../helpers/servers.ts';
import { assertError, assertInvalid, assertLedgerExact, balanceCents, firstCycleHours, withFault } from '../helpers/server-extras.ts';

let t: TestApp;
let c: Customer;
let other: Customer;

before(async () => {
  t = await startApp({ worker: 'embedded' });
  c = await createCustomer(t, { deposit: '500.00' });
  other = await createCustomer(t, { deposit: '100.00' });
});

const simRdns = async (address: string) =>
  (await t.database.db.selectFrom('sim_reverse_dns').select('hostname').where('address', '=', address).executeTakeFirst())?.hostname ?? null;
const rdnsUrl = (id: string, address: string) => `/v2/servers/${id}/ips/${encodeURIComponent(address)}/rdns`;

async function addIp(s: Json, version = 4): Promise<string> {
  const res = await call(t.app, 'POST', `/v2/servers/${s.id}/ips`, { key: c.key, body: { version } });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data.address;
}

describe('reverse DNS: GET/PUT /v2/servers/{id}/ips/{address}/rdns', () => {
  test('primary and extra addresses: null at first, set at the platform, read back, removed with null', async () => {
    const s = await activeServer(t, c);
    const extra = await addIp(s);
    for (const address of [s.network.ipv4.address, s.network.ipv6.address, extra]) {
      const first = await call(t.app, 'GET', rdnsUrl(s.id, address), { key: c.key });
      assert.equal(first.statusCode, 200, first.body);
      assert.deepEqual(json(first).data, { address, rdns: null });
      const put = await call(t.app, 'PUT', rdnsUrl(s.id, address), { key: c.key, body: { rdns: 'Mail.Example.COM.' } });
      assert.equal(put.statusCode, 200, put.body);
      assert.deepEqual(json(put).data, { address, rdns: 'mail.example.com' });
      assert.equal(await simRdns(address), 'mail.example.com', 'the platform holds the record');
      assert.deepEqual(json(await call(t.app, 'GET', rdnsUrl(s.id, address), { key: c.key })).data, { address, rdns: 'mail.example.com' });
    }
    const cleared = await call(t.app, 'PUT', rdnsUrl(s.id, extra), { key: c.key, body: { rdns: null } });
    assert.deepEqual(json(cleared).data, { address: extra, rdns: null });
    assert.equal(await simRdns(extra), null);
  });

  test('an IPv6 address in another spelling names the same address; an IDN is stored as punycode', async () => {
    const s = await activeServer(t, c);
    const v6 = s.network.ipv6.address as string;
    const long = ipaddr.IPv6.parse(v6).toNormalizedString().toUpperCase();
    assert.notEqual(long, v6);
    const res = await call(t.app, 'PUT', rdnsUrl(s.id, long), { key: c.key, body: { rdns: 'bücher.example.de' } });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(json(res).data, { address: v6, rdns: 'xn--bcher-kva.example.de' });
  });

  test('bad names → 422 naming rdns; unknown fields and types → 422', async () => {
    const s = await activeServer(t, c);
    const address = s.network.ipv4.address;
    for (const rdns of ['localhost', '-bad-.example.com', 'a..b.com', 'under_score.example.com', ' ', `${'a'.repeat(64)}.example.com`]) {
      assertInvalid(await call(t.app, 'PUT', rdnsUrl(s.id, address), { key: c.key, body: { rdns } }), ['rdns']);
    }
    assertInvalid(await call(t.app, 'PUT', rdnsUrl(s.id, address), { key: c.key, body: { rdns: 5 } }), ['rdns']);
    assertInvalid(await call(t.app, 'PUT', rdnsUrl(s.id, address), { key: c.key, body: { rdns: 'a.example.com', ttl: 5 } }), ['ttl']);
    assertInvalid(await call(t.app, 'PUT', rdnsUrl(s.id, address), { key: c.key, body: {} }), ['rdns']);
  });

  test('404: an address the server does not hold, not an address, another account\'s server', async () => {
    const s = await activeServer(t, c);
    assertError(await call(t.app, 'GET', rdnsUrl(s.id, '192.0.2.99'), { key: c.key }), 404, 'RESOURCE_NOT_FOUND');
    assertError(await call(t.app, 'GET', rdnsUrl(s.id, 'not-an-ip'), { key: c.key }), 404, 'RESOURCE_NOT_FOUND');
    assertError(await call(t.app, 'GET', rdnsUrl(s.id, s.network.ipv4.address), { key: other.key }), 404, 'RESOURCE_NOT_FOUND');
    assertError(await call(t.app, 'PUT', rdnsUrl(s.id, s.network.ipv4.address), { key: other.key, body: { rdns: 'x.example.com' } }), 404, 'RESOURCE_NOT_FOUND');
  });

  test('a platform failure → 502 UPSTREAM_ERROR and nothing changes', async () => {
    const s = await activeServer(t, c);
    const address = s.network.ipv4.address;
    await withFault(t, 'upstream_error', ['setReverseDns'], async () => {
      assertError(await call(t.app, 'PUT', rdnsUrl(s.id, address), { key: c.key, body: { rdns: 'x.example.com' } }), 502, 'UPSTREAM_ERROR');
    });
    assert.equal(await simRdns(address), null);
    assert.deepEqual(json(await call(t.app, 'GET', rdnsUrl(s.id, address), { key: c.key })).data.rdns, null);
  });
});

describe('DELETE /v2/servers/{id}/ips/{address}', () => {
  test('prorated refund, monthly price lowered, rDNS removed, address released at the platform', async () => {
    const s = await activeServer(t, c);
    const extra = await addIp(s);
    await call(t.app, 'PUT', rdnsUrl(s.id, extra), { key: c.key, body: { rdns: 'x.example.com' } });
    const priced = json(await call(t.app, 'GET', `/v2/servers/${s.id}`, { key: c.key })).data;
    assert.equal(priced.billing.amount, '8.00');
    const before = await balanceCents(t, c);
    const res = await call(t.app, 'DELETE', `/v2/servers/${s.id}/ips/${extra}`, { key: c.key });
    assert.equal(res.statusCode, 200, res.body);
    const body = json(res).data;
    const { period, remaining } = firstCycleHours(s);
    const refund = Math.floor((300 * remaining) / period);
    assert.deepEqual({ ...body, operation: undefined }, {
      address: extra, version: 4, status: 'released', refund: { amount: (refund / 100).toFixed(2), currency: 'USD' },
      server_monthly_price: { amount: '5.00', currency: 'USD' }, balance: { amount: ((before + refund) / 100).toFixed(2), currency: 'USD' }, operation: undefined,
    });
    assert.equal(body.operation.type, 'server.ip_release');
    assert.equal(await balanceCents(t, c), before + refund);
    await assertLedgerExact(t, c);
    const op = await waitForOperation(t, c.key, body.operation.id);
    assert.equal(op.status, 'completed', op.detail);
    const lease = await t.database.db.selectFrom('ip_addresses').select('vm_id').where('address', '=', extra).executeTakeFirstOrThrow();
    assert.equal(lease.vm_id, null, 'the address is back in the pool');
    assert.equal(await simRdns(extra), null);
    const after = json(await call(t.app, 'GET', `/v2/servers/${s.id}`, { key: c.key })).data;
    assert.equal(after.billing.amount, '5.00');
    assert.deepEqual(after.network.extra_ips, []);
    assertError(await call(t.app, 'DELETE', `/v2/servers/${s.id}/ips/${extra}`, { key: c.key }), 404, 'RESOURCE_NOT_FOUND');
    assertError(await call(t.app, 'GET', rdnsUrl(s.id, extra), { key: c.key }), 404, 'RESOURCE_NOT_FOUND');
  });

  test('ten parallel cancels of one address: one succeeds and refunds once, the rest are 404', async () => {
    const s = await activeServer(t, c);
    const extra = await addIp(s);
    const before = await balanceCents(t, c);
    const answers = await Promise.all(Array.from({ length: 10 }, () => call(t.app, 'DELETE', `/v2/servers/${s.id}/ips/${extra}`, { key: c.key })));
    const statuses = answers.map((r) => r.statusCode).sort();
    assert.deepEqual(statuses, [200, 404, 404, 404, 404, 404, 404, 404, 404, 404]);
    const refund = json(answers.find((r) => r.statusCode === 200)!).data.refund.amount;
    assert.equal(await balanceCents(t, c), before + Math.round(Number(refund) * 100));
    await assertLedgerExact(t, c);
  });

  test('a primary address → 409; another account\'s server or an unknown address → 404', async () => {
    const s = await activeServer(t, c);
    assertError(await call(t.app, 'DELETE', `/v2/servers/${s.id}/ips/${s.network.ipv4.address}`, { key: c.key }), 409, 'STATE_CONFLICT');
    assertError(await call(t.app, 'DELETE', `/v2/servers/${s.id}/ips/${encodeURIComponent(s.network.ipv6.address)}`, { key: c.key }), 409, 'STATE_CONFLICT');
    const extra = await addIp(s);
    assertError(await call(t.app, 'DELETE', `/v2/servers/${s.id}/ips/${extra}`, { key: other.key }), 404, 'RESOURCE_NOT_FOUND');
    assertError(await call(t.app, 'DELETE', `/v2/servers/${s.id}/ips/192.0.2.1`, { key: c.key }), 404, 'RESOURCE_NOT_FOUND');
  });
});

async function availableSnapshot(s: Json): Promise<Json> {
  const res = await call(t.app, 'POST', `/v2/servers/${s.id}/snapshots`, { key: c.key, body: { name: 'before' } });
  assert.equal(res.statusCode, 201, res.body);
  const data = json(res).data;
  const op = await waitForOperation(t, c.key, data.operation.id);
  assert.equal(op.status, 'completed', op.detail);
  return data;
}

describe('DELETE /v2/servers/{id}/snapshots/{sid}', () => {
  test('gone from the list at once, no refund, removed at the platform', async () => {
    const s = await activeServer(t, c);
    const snap = await availableSnapshot(s);
    const ref = (await t.database.db.selectFrom('snapshots').select('provider_ref').where('id', '=', snap.id).executeTakeFirstOrThrow()).provider_ref!;
    const before = await balanceCents(t, c);
    const res = await call(t.app, 'DELETE', `/v2/servers/${s.id}/snapshots/${snap.id}`, { key: c.key });
    assert.equal(res.statusCode, 200, res.body);
    const body = json(res).data;
    assert.equal(body.id, snap.id);
    assert.equal(body.status, 'deleted');
    assert.equal(body.operation.type, 'server.snapshot_delete');
    assert.deepEqual(json(await call(t.app, 'GET', `/v2/servers/${s.id}/snapshots`, { key: c.key })).data, []);
    assert.equal(await balanceCents(t, c), before);
    assert.equal((await waitForOperation(t, c.key, body.operation.id)).status, 'completed');
    assert.equal(await t.database.db.selectFrom('sim_snapshots').select('id').where('id', '=', ref).executeTakeFirst(), undefined);
    assertError(await call(t.app, 'DELETE', `/v2/servers/${s.id}/snapshots/${snap.id}`, { key: c.key }), 404, 'RESOURCE_NOT_FOUND');
  });

  test('another account\'s → 404; another server\'s snapshot → 404; bad id → 422', async () => {
    const s = await activeServer(t, c);
    const s2 = await createServer(t, c);
    const snap = await availableSnapshot(s);
    assertError(await call(t.app, 'DELETE', `/v2/servers/${s.id}/snapshots/${snap.id}`, { key: other.key }), 404, 'RESOURCE_NOT_FOUND');
    assertError(await call(t.app, 'DELETE', `/v2/servers/${s2.id}/snapshots/${snap.id}`, { key: c.key }), 404, 'RESOURCE_NOT_FOUND');
    assertInvalid(await call(t.app, 'DELETE', `/v2/servers/${s.id}/snapshots/abc`, { key: c.key }), ['sid']);
  });
});

describe('POST /v2/servers/{id}/snapshots/{sid}/restore', () => {
  test('202 with server.restore; completes with the server running', async () => {
    const s = await activeServer(t, c);
    const snap = await availableSnapshot(s);
    const res = await call(t.app, 'POST', `/v2/servers/${s.id}/snapshots/${snap.id}/restore`, { key: c.key });
    assert.equal(res.statusCode, 202, res.body);
    const op = json(res).data.operation;
    assert.equal(op.type, 'server.restore');
    assert.equal((await waitForOperation(t, c.key, op.id)).status, 'completed');
    const after = json(await call(t.app, 'GET', `/v2/servers/${s.id}`, { key: c.key })).data;
    assert.equal(after.power_state, 'running');
  });

  test('a snapshot still being taken → 409; another account\'s → 404; a body field → 422', async () => {
    const s = await activeServer(t, c);
    const snap = await availableSnapshot(s);
    assertError(await call(t.app, 'POST', `/v2/servers/${s.id}/snapshots/${snap.id}/restore`, { key: other.key }), 404, 'RESOURCE_NOT_FOUND');
    assertInvalid(await call(t.app, 'POST', `/v2/servers/${s.id}/snapshots/${snap.id}/restore`, { key: c.key, body: { force: true } }), ['force']);
    await withFault(t, 'timeout', ['snapshot'], async () => {
      const taking = json(await call(t.app, 'POST', `/v2/servers/${s.id}/snapshots`, { key: c.key, body: { name: 'slow' } })).data;
      assertError(await call(t.app, 'POST', `/v2/servers/${s.id}/snapshots/${taking.id}/restore`, { key: c.key }), 409, 'STATE_CONFLICT');
      assertError(await call(t.app, 'DELETE', `/v2/servers/${s.id}/snapshots/${taking.id}`, { key: c.key }), 409, 'STATE_CONFLICT');
    });
  });
});
