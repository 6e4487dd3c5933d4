// v1 IPs (list, purchase, rDNS get/set on primary and extra addresses, cancel) and server
// snapshots (list, create, delete, restore), over the same core as v2.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type Customer, type TestApp, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { type Json, activeServer, createServer } from '../helpers/servers.ts';
import { assertLedgerExact, balanceCents, firstCycleHours, withFault } from '../helpers/server-extras.ts';
import { expectV1Error, v1 } from '../helpers/v1.ts';

let t: TestApp;
let c: Customer;
let other: Customer;

before(async () => {
  t = await startApp({ worker: 'embedded' });
  c = await createCustomer(t, { deposit: '500.00' });
  other = await createCustomer(t, { deposit: '100.00' });
});

const ipsOf = async (id: string) => json(await v1(t.app, 'GET', `/v1/servers/${id}/ips`, { key: c.key })).data;

describe('GET /v1/servers/{server_id}/ips and POST …/ips/purchase', () => {
  test('the list: primary IPv4, extra addresses, primary IPv6 — each with rDNS', async () => {
    const s = await activeServer(t, c);
    const list = await ipsOf(s.id);
    assert.deepEqual(list, {
      server_id: s.id, primary_ip: { ip_address: s.network.ipv4.address, type: 'IPv4', rdns: null }, extra_ips: [], ipv6_address: s.network.ipv6.address,
    });
  });

  test('purchase with ip_type IPv4 / ipv6: charged the rest of the cycle, listed, price raised', async () => {
    const s = await activeServer(t, c);
    const before = await balanceCents(t, c);
    const res = await v1(t.app, 'POST', `/v1/servers/${s.id}/ips/purchase`, { key: c.key, body: { ip_type: 'IPv4' } });
    assert.equal(res.statusCode, 200, res.body);
    const ip = json(res).data;
    assert.deepEqual(Object.keys(ip).sort(), ['ip_address', 'rdns', 'type']);
    assert.equal(ip.type, 'IPv4');
    const { period, remaining } = firstCycleHours(s);
    assert.equal(await balanceCents(t, c), before - (Math.floor((800 * remaining) / period) - Math.floor((500 * remaining) / period)));
    const v6 = json(await v1(t.app, 'POST', `/v1/servers/${s.id}/ips/purchase`, { key: c.key, body: { ip_type: 'ipv6' } })).data;
    assert.equal(v6.type, 'IPv6');
    const list = await ipsOf(s.id);
    assert.deepEqual(list.extra_ips, [{ ip_address: ip.ip_address, type: 'IPv4', rdns: null }, { ip_address: v6.ip_address, type: 'IPv6', rdns: null }]);
    const server = json(await v1(t.app, 'GET', '/v1/servers', { key: c.key })).data.find((x: Json) => x.server_id === s.id);
    assert.equal(server.amount, 8.5);
    await assertLedgerExact(t, c);
  });

  test('bad ip_type → 422 naming ip_type; a pending server → 422 STATE_CONFLICT; nothing charged', async () => {
    const s = await activeServer(t, c);
    const before = await balanceCents(t, c);
    for (const b of [{}, { ip_type: 'IPv5' }, { ip_type: 4 }, { version: 4 }]) {
      const res = await v1(t.app, 'POST', `/v1/servers/${s.id}/ips/purchase`, { key: c.key, body: b });
      assert.equal(res.statusCode, 422, res.body);
      assert.ok('ip_type' in json(res).error.details.fields || 'version' in json(res).error.details.fields, res.body);
    }
    await withFault(t, 'upstream_error', ['create'], async () => {
      const pending = await createServer(t, c);
      const b2 = await balanceCents(t, c);
      expectV1Error(await v1(t.app, 'POST', `/v1/servers/${pending.id}/ips/purchase`, { key: c.key, body: { ip_type: 'IPv4' } }), 422, 'STATE_CONFLICT');
      assert.equal(await balanceCents(t, c), b2);
    });
    assert.ok(await balanceCents(t, c) <= before);
  });
});

describe('rDNS: GET/POST /v1/servers/{server_id}/ips/{ip_address}', () => {
  test('primary and extra addresses: {ip_address, rdns}, set at the platform, shown in the IP list and the detail', async () => {
    const s = await activeServer(t, c, { ipv4_count: 2 });
    const extra = s.network.extra_ips[0].address;
    for (const address of [s.network.ipv4.address, extra]) {
      const get = await v1(t.app, 'GET', `/v1/servers/${s.id}/ips/${address}`, { key: c.key });
      assert.deepEqual(json(get).data, { ip_address: address, rdns: null });
      const set = await v1(t.app, 'POST', `/v1/servers/${s.id}/ips/${address}`, { key: c.key, body: { rdns: `h-${address.replaceAll('.', '-')}.example.com` } });
      assert.equal(set.statusCode, 200, set.body);
      assert.deepEqual(json(set), { success: true, data: { ip_address: address, rdns: `h-${address.replaceAll('.', '-')}.example.com` }, message: 'Reverse DNS updated' });
      const sim = await t.database.db.selectFrom('sim_reverse_dns').select('hostname').where('address', '=', address).executeTakeFirst();
      assert.equal(sim?.hostname, `h-${address.replaceAll('.', '-')}.example.com`);
    }
    const list = await ipsOf(s.id);
    assert.equal(list.primary_ip.rdns, `h-${s.network.ipv4.address.replaceAll('.', '-')}.example.com`);
    assert.equal(list.extra_ips[0].rdns, `h-${extra.replaceAll('.', '-')}.example.com`);
    // v2 reads what v1 wrote.
    assert.equal(json(await call(t.app, 'GET', `/v2/servers/${s.id}/ips/${extra}/rdns`, { key: c.key })).data.rdns, `h-${extra.replaceAll('.', '-')}.example.com`);
  });

  test('bad names → 422 naming rdns; an address the server does not hold → 404; another account\'s → 404', async () => {
    const s = await activeServer(t, c);
    const a = s.network.ipv4.address;
    expectV1Error(await v1(t.app, 'POST', `/v1/servers/${s.id}/ips/${a}`, { key: c.key, body: { rdns: 'not a name' } }), 422, 'VALIDATION_FAILED', ['rdns']);
    expectV1Error(await v1(t.app, 'POST', `/v1/servers/${s.id}/ips/${a}`, { key: c.key, body: {} }), 422, 'VALIDATION_FAILED', ['rdns']);
    expectV1Error(await v1(t.app, 'GET', `/v1/servers/${s.id}/ips/192.0.2.50`, { key: c.key }), 404, 'NOT_FOUND');
    expectV1Error(await v1(t.app, 'GET', `/v1/servers/${s.id}/ips/${a}`, { key: other.key }), 404, 'NOT_FOUND');
    expectV1Error(await v1(t.app, 'POST', `/v1/servers/${s.id}/ips/${a}`, { key: other.key, body: { rdns: 'x.example.com' } }), 404, 'NOT_FOUND');
  });
});

describe('DELETE /v1/servers/{server_id}/ips/{ip_address}', () => {
  test('cancels an extra address: refund as a number, monthly price lowered, address gone', async () => {
    const s = await activeServer(t, c, { ipv4_count: 2 });
    const extra = s.network.extra_ips[0].address;
    const before = await balanceCents(t, c);
    const res = await v1(t.app, 'DELETE', `/v1/servers/${s.id}/ips/${extra}`, { key: c.key });
    assert.equal(res.statusCode, 200, res.body);
    const d = json(res).data;
    const { period, remaining } = firstCycleHours(s);
    const refund = Math.floor((300 * remaining) / period);
    assert.deepEqual(d, { ip_address: extra, refund_amount: refund / 100, monthly_price: 5 });
    assert.equal(await balanceCents(t, c), before + refund);
    assert.deepEqual((await ipsOf(s.id)).extra_ips, []);
    expectV1Error(await v1(t.app, 'DELETE', `/v1/servers/${s.id}/ips/${extra}`, { key: c.key }), 404, 'NOT_FOUND');
    expectV1Error(await v1(t.app, 'DELETE', `/v1/servers/${s.id}/ips/${s.network.ipv4.address}`, { key: c.key }), 422, 'STATE_CONFLICT');
  });
});

describe('server snapshots', () => {
  test('create (charged), list with string ids, restore, delete (no refund) — `{success, message}`', async () => {
    const s = await activeServer(t, c);
    const before = await balanceCents(t, c);
    const res = await v1(t.app, 'POST', `/v1/servers/${s.id}/snapshots`, { key: c.key, body: { name: 'nightly' } });
    assert.equal(res.statusCode, 200, res.body);
    const snap = json(res).data;
    assert.deepEqual(Object.keys(snap).sort(), ['created_at', 'id', 'name']);
    assert.match(snap.id, /^\d+$/);
    assert.equal(await balanceCents(t, c), before - 150);
    const op = await t.database.db.selectFrom('operations').select('id').where('resource_id', '=', s.id).where('type', '=', 'server.snapshot').executeTakeFirstOrThrow();
    assert.equal((await waitForOperation(t, c.key, op.id)).status, 'completed');
    const list = json(await v1(t.app, 'GET', `/v1/servers/${s.id}/snapshots`, { key: c.key }));
    assert.deepEqual(list.data, [snap]);
    assert.deepEqual(list.pagination, { current_page: 1, total: 1, total_pages: 1 });

    const restore = await v1(t.app, 'POST', `/v1/servers/${s.id}/snapshots/${snap.id}/restore`, { key: c.key });
    assert.deepEqual(json(restore), { success: true, message: `Restore from snapshot ${snap.id} started` });
    const rop = await t.database.db.selectFrom('operations').select('id').where('resource_id', '=', s.id).where('type', '=', 'server.restore').executeTakeFirstOrThrow();
    assert.equal((await waitForOperation(t, c.key, rop.id)).status, 'completed');

    const del = await v1(t.app, 'DELETE', `/v1/servers/${s.id}/snapshots/${snap.id}`, { key: c.key });
    assert.deepEqual(json(del), { success: true, message: `Snapshot ${snap.id} deleted` });
    assert.equal(await balanceCents(t, c), before - 150);
    assert.deepEqual(json(await v1(t.app, 'GET', `/v1/servers/${s.id}/snapshots`, { key: c.key })).data, []);
    expectV1Error(await v1(t.app, 'DELETE', `/v1/servers/${s.id}/snapshots/${snap.id}`, { key: c.key }), 404, 'NOT_FOUND');
  });

  test('bad input: blank or missing name → 422; a snapshot id that is not a number → 404; another account\'s → 404', async () => {
    const s = await activeServer(t, c);
    expectV1Error(await v1(t.app, 'POST', `/v1/servers/${s.id}/snapshots`, { key: c.key, body: {} }), 422, 'VALIDATION_FAILED', ['name']);
    expectV1Error(await v1(t.app, 'POST', `/v1/servers/${s.id}/snapshots`, { key: c.key, body: { name: '   ' } }), 422, 'VALIDATION_FAILED', ['name']);
    expectV1Error(await v1(t.app, 'DELETE', `/v1/servers/${s.id}/snapshots/abc`, { key: c.key }), 404, 'NOT_FOUND');
    expectV1Error(await v1(t.app, 'POST', `/v1/servers/${s.id}/snapshots/99999999999/restore`, { key: c.key }), 404, 'NOT_FOUND');
    const snap = json(await v1(t.app, 'POST', `/v1/servers/${s.id}/snapshots`, { key: c.key, body: { name: 'x' } })).data;
    expectV1Error(await v1(t.app, 'DELETE', `/v1/servers/${s.id}/snapshots/${snap.id}`, { key: other.key }), 404, 'NOT_FOUND');
    expectV1Error(await v1(t.app, 'GET', `/v1/servers/${s.id}/snapshots?per_page=101`, { key: c.key }), 422, 'VALIDATION_FAILED', ['per_page']);
  });
});
