// Test keys through v1: the same sandbox as v2 (the core runs in a rolled-back transaction with
// no-op providers). Every v1 write of servers, addresses, reverse DNS and snapshots answers as a
// live one would and leaves no row in any table — ours, the simulated platform's or the queue's.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { type Customer, type TestApp, adminCall, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { PASSWORD, type Json, activeServer } from '../helpers/servers.ts';
import { balanceCents } from '../helpers/server-extras.ts';
import { expectV1Error, v1 } from '../helpers/v1.ts';

let t: TestApp;
let live: Customer;
let testKey: string;
let server: Json;
let snapshotId: string;

async function census(): Promise<Record<string, number>> {
  const { rows } = await sql<{ table_name: string; table_schema: string }>`
    SELECT table_schema, table_name FROM information_schema.tables
     WHERE table_schema IN ('public', 'pgboss') AND table_type = 'BASE TABLE'`.execute(t.database.db);
  const out: Record<string, number> = {};
  for (const r of rows) {
    const { rows: [n] } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(`${r.table_schema}.${r.table_name}`)}`.execute(t.database.db);
    out[`${r.table_schema}.${r.table_name}`] = n!.n;
  }
  return out;
}

before(async () => {
  t = await startApp({ worker: 'embedded' });
  live = await createCustomer(t, { deposit: '100.00' });
  server = await activeServer(t, live, { ipv4_count: 2 });
  const snap = json(await v1(t.app, 'POST', `/v1/servers/${server.id}/snapshots`, { key: live.key, body: { name: 'live' } })).data;
  snapshotId = snap.id;
  const op = await t.database.db.selectFrom('operations').select('id').where('resource_id', '=', server.id).where('type', '=', 'server.snapshot').executeTakeFirstOrThrow();
  assert.equal((await waitForOperation(t, live.key, op.id)).status, 'completed');
  // A test key of the same account: it sees the live server, and changes nothing.
  const k = await adminCall(t, 'POST', `/admin/v1/accounts/${live.accountId}/api-keys`, { name: 'sandbox', ip_allowlist: ['127.0.0.1'], is_test: true });
  assert.equal(k.statusCode, 201, k.body);
  testKey = json(k).data.key;
});

test('every v1 server, IP, rDNS and snapshot write with a test key answers 200 and leaves no row anywhere', async () => {
  const before = await census();
  const balance = await balanceCents(t, live);
  const id = server.id as string;
  const extra = server.network.extra_ips[0].address as string;
  const writes: [string, string, unknown?][] = [
    ['POST', '/v1/servers', { package_id: 1, version_id: 1, location_id: 1, server_name: 'sbx.example.com', password: PASSWORD }],
    ['POST', `/v1/servers/${id}/stop`],
    ['POST', `/v1/servers/${id}/restart`],
    ['POST', `/v1/servers/${id}/password-reset`],
    ['POST', `/v1/servers/${id}/reinstall`, { version_id: 2 }],
    ['POST', `/v1/servers/${id}/vnc`],
    ['POST', `/v1/servers/${id}/upgrade`, { new_package_id: 2 }],
    ['POST', `/v1/servers/${id}/ips/purchase`, { ip_type: 'IPv4' }],
    ['POST', `/v1/servers/${id}/ips/${server.network.ipv4.address}`, { rdns: 'sbx.example.com' }],
    ['DELETE', `/v1/servers/${id}/ips/${extra}`],
    ['POST', `/v1/servers/${id}/snapshots`, { name: 'sbx' }],
    ['POST', `/v1/servers/${id}/snapshots/${snapshotId}/restore`],
    ['DELETE', `/v1/servers/${id}/snapshots/${snapshotId}`],
    ['DELETE', `/v1/servers/${id}`],
  ];
  for (const [method, url, body] of writes) {
    const res = await v1(t.app, method as 'POST', url, { key: testKey, body });
    assert.equal(res.statusCode, 200, `${method} ${url}: ${res.body}`);
    assert.equal(res.headers['x-sandbox'], 'true', `${method} ${url}`);
    assert.equal(json(res).success, true);
  }
  assert.deepEqual(await census(), before);
  assert.equal(await balanceCents(t, live), balance);
  // Still there, unchanged, for the live key.
  const d = json(await v1(t.app, 'GET', `/v1/servers/${id}`, { key: live.key })).data;
  assert.equal(d.status, 'active');
  assert.equal(d.primary_ip.rdns, null);
  assert.equal(d.extra_ips.length, 1);
});

test('sandbox validation is real: 422s in the v1 envelope', async () => {
  expectV1Error(await v1(t.app, 'POST', '/v1/servers', { key: testKey, body: { package_id: 1 } }), 422, 'VALIDATION_FAILED');
  expectV1Error(await v1(t.app, 'POST', `/v1/servers/${server.id}/ips/${server.network.ipv4.address}`, { key: testKey, body: { rdns: 'bad name' } }), 422, 'VALIDATION_FAILED', ['rdns']);
});
