// GET/POST /v2/servers/{id}/ips: the primary and extra addresses, and the billable extra address
// (price raised, rest of the cycle charged now, everything undone when the platform refuses).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Ctx } from '../../src/core/context.ts';
import { requestFingerprint } from '../../src/core/idempotency/service.ts';
import { executeOperation } from '../../src/core/operations/execute.ts';
import { addIpOnce } from '../../src/core/servers/ip-purchase.ts';
import type { ComputeProvider } from '../../src/providers/compute/types.ts';
import { connect } from '../../src/db/connection.ts';
import { computeFor } from '../../src/runtime.ts';
import { noopPanel } from '../../src/providers/hosting/noop.ts';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { type Json, activeServer, createServer } from '../helpers/servers.ts';
import {
  assertError, assertInvalid, assertLedgerExact, balanceCents, firstCycleHours, withFault, withPendingServer,
} from '../helpers/server-extras.ts';
import { noopRegistrar } from '../../src/providers/registrar/noop.ts';

let t: TestApp;
let c: Customer;
let other: Customer;

before(async () => {
  t = await startApp({ worker: 'embedded' });
  c = await createCustomer(t, { deposit: '500.00' });
  other = await createCustomer(t, { deposit: '100.00' });
});

const url = (id: string) => `/v2/servers/${id}/ips`;
const add = (id: string, body: unknown, key = c.key, headers: Record<string, string> = {}) => call(t.app, 'POST', url(id), { key, body, headers });
const list = async (id: string, key = c.key) => json(await call(t.app, 'GET', url(id), { key }));
const detail = async (id: string, key = c.key) => json(await call(t.app, 'GET', `/v2/servers/${id}`, { key })).data;

/**
 * What raising the server's monthly price by `unitCents` (after `addedCents` already added) costs
 * now: the prorated new price minus the prorated old one, each rounded down.
 */
function prorated(server: Json, unitCents: number, addedCents = 0): number {
  const { period, remaining } = firstCycleHours(server);
  const from = Math.round(Number(server.billing.amount) * 100) + addedCents;
  return Math.floor(((from + unitCents) * remaining) / period) - Math.floor((from * remaining) / period);
}

describe('GET /servers/{id}/ips', () => {
  test('primary IPv4 and IPv6 first, with gateways, then the extra ones with their monthly price', async () => {
    const s = await activeServer(t, c, { ipv4_count: 2 });
    const body = await list(s.id);
    assert.deepEqual(body.meta.pagination, { page: 1, per_page: 25, total: 3, total_pages: 1 });
    const [v4, v6, extra] = body.data;
    assert.deepEqual(v4, { address: s.network.ipv4.address, version: 4, type: 'primary', gateway: s.network.ipv4.gateway, monthly_price: null });
    assert.deepEqual(v6, { address: s.network.ipv6.address, version: 6, type: 'primary', gateway: s.network.ipv6.gateway, monthly_price: null });
    assert.deepEqual(extra, { address: s.network.extra_ips[0].address, version: 4, type: 'extra', gateway: null, monthly_price: { amount: '3.00', currency: 'USD' } });
    const page2 = json(await call(t.app, 'GET', url(s.id), { key: c.key, query: { per_page: '2', page: '2' } }));
    assert.deepEqual(page2.data, [extra]);
  });

  test('a pending server has no addresses yet', async () => {
    await withPendingServer(t, c, async (pending) => {
      assert.deepEqual((await list(pending.id)).data, []);
    });
  });

  test("404 for an unknown server and another account's", async () => {
    const s = await activeServer(t, c);
    assertError(await call(t.app, 'GET', url(s.id), { key: other.key }), 404, 'RESOURCE_NOT_FOUND');
    assertError(await call(t.app, 'GET', url('srv_doesnotexist0000'), { key: c.key }), 404, 'RESOURCE_NOT_FOUND');
  });
});

describe('POST /servers/{id}/ips', () => {
  test('201 with the new address; the monthly price rises by the unit price and the rest of the cycle is charged', async () => {
    const s = await activeServer(t, c);
    const before = await balanceCents(t, c);
    const res = await add(s.id, { version: 4 });
    assert.equal(res.statusCode, 201, res.body);
    const ip = json(res).data;
    assert.match(ip.address, /^10\.1\.0\.\d+$/, 'from the location pool');
    assert.deepEqual({ ...ip, address: '' }, { address: '', version: 4, type: 'extra', gateway: null, monthly_price: { amount: '3.00', currency: 'USD' } });
    const due = prorated(s, 300);
    assert.ok(due > 290 && due < 300, `prorated ${due}`);
    assert.equal(await balanceCents(t, c), before - due);
    const tx = json(await call(t.app, 'GET', '/v2/billing/transactions', { key: c.key, query: { type: 'withdraw' } })).data[0];
    assert.match(tx.description, new RegExp(`IPv4.*${s.id}|${s.id}.*IPv4`));

    const v6 = json(await add(s.id, { version: 6 })).data;
    assert.match(v6.address, /^2001:db8:1::/);
    assert.equal(v6.monthly_price.amount, '0.50');
    assert.equal(await balanceCents(t, c), before - due - prorated(s, 50, 300));

    const now = await detail(s.id);
    assert.equal(now.billing.amount, '8.50', '5.00 + 3.00 + 0.50 a month');
    assert.deepEqual(now.network.extra_ips, [{ address: ip.address, version: 4 }, { address: v6.address, version: 6 }]);
    assert.deepEqual((await list(s.id)).data.slice(2).map((e: Json) => e.address), [ip.address, v6.address]);
    await assertLedgerExact(t, c);
  });

  test('bad input is 422 naming the field, before the balance', async () => {
    const poor = await createCustomer(t, { deposit: '5.00' });
    const s = await activeServer(t, poor);
    for (const [body, field] of [
      [{}, 'version'], [{ version: 5 }, 'version'], [{ version: '4' }, 'version'], [{ version: 4.5 }, 'version'],
      [{ version: null }, 'version'], [{ version: 4, count: 2 }, 'count'],
    ] as const) {
      assertInvalid(await add(s.id, body, poor.key), [field]);
    }
    assertError(await add(s.id, { version: 4 }, poor.key), 422, 'INSUFFICIENT_BALANCE');
    const after = await detail(s.id, poor.key);
    assert.equal(after.billing.amount, '5.00', 'price unchanged');
    assert.equal((await list(s.id, poor.key)).data.length, 2);
    assert.equal(await balanceCents(t, poor), 0);
    await assertLedgerExact(t, poor);
  });

  test("404 for an unknown server and another account's; nothing charged", async () => {
    const s = await activeServer(t, c);
    const before = await balanceCents(t, other);
    assertError(await add(s.id, { version: 4 }, other.key), 404, 'RESOURCE_NOT_FOUND');
    assertError(await add('srv_doesnotexist0000', { version: 4 }), 404, 'RESOURCE_NOT_FOUND');
    assert.equal(await balanceCents(t, other), before);
  });

  test('409 STATE_CONFLICT for a server not active (pending, or cancelled after failing)', async () => {
    await withPendingServer(t, c, async (pending) => {
      assertError(await add(pending.id, { version: 4 }), 409, 'STATE_CONFLICT');
    });
    const cancelled = await withFault(t, 'capacity_unavailable', ['create'], async () => {
      const s = await createServer(t, c);
      for (let i = 0; i < 200 && (await detail(s.id)).status === 'pending'; i++) await new Promise((r) => setTimeout(r, 50));
      return s;
    });
    assert.equal((await detail(cancelled.id)).status, 'cancelled');
    assertError(await add(cancelled.id, { version: 6 }), 409, 'STATE_CONFLICT');
  });

  test('422 CAPACITY_UNAVAILABLE when the location pool is exhausted: refunded, price restored, no address', async () => {
    const loc = json(await adminCall(t, 'POST', '/admin/v1/locations', { name: 'Tiny', code: 'tiny1', country: 'FR', provider: 'primary' })).data.id;
    // One leasable IPv4 address (a /30 less its gateway): the server's primary takes it.
    const pool = await adminCall(t, 'POST', `/admin/v1/locations/${loc}/ip-pools`, { version: 4, cidr: '192.168.77.0/30', gateway: '192.168.77.2' });
    assert.equal(pool.statusCode, 201, pool.body);
    // A location needs a host for its servers as well as addresses.
    const node = await adminCall(t, 'POST', '/admin/v1/nodes', { location_id: loc, name: 'tiny1-kvm1', cpu_vendor: 'intel', cpu_cores: 8, ram_mb: 16384, storage_gb: 500 });
    assert.equal(node.statusCode, 201, node.body);
    const s = await activeServer(t, c, { location_id: loc, ipv6_count: 0 });
    const before = await balanceCents(t, c);
    assertError(await add(s.id, { version: 4 }), 422, 'CAPACITY_UNAVAILABLE');
    assert.equal(await balanceCents(t, c), before);
    const refund = json(await call(t.app, 'GET', '/v2/billing/transactions', { key: c.key, query: { type: 'refund' } })).data[0];
    assert.equal(refund.amount.amount, (prorated(s, 300) / 100).toFixed(2));
    assert.equal((await detail(s.id)).billing.amount, '5.00');
    assert.equal((await list(s.id)).data.length, 1);
    await assertLedgerExact(t, c);
  });

  test('the fault switch: 502 UPSTREAM_ERROR and 422 CAPACITY_UNAVAILABLE, each fully undone', async () => {
    const s = await activeServer(t, c);
    const before = await balanceCents(t, c);
    await withFault(t, 'upstream_error', ['attachIp'], async () => assertError(await add(s.id, { version: 4 }), 502, 'UPSTREAM_ERROR'));
    await withFault(t, 'capacity_unavailable', ['attachIp'], async () => assertError(await add(s.id, { version: 6 }), 422, 'CAPACITY_UNAVAILABLE'));
    await withFault(t, 'timeout', ['attachIp'], async () => assertError(await add(s.id, { version: 4 }), 502, 'UPSTREAM_ERROR'));
    assert.equal(await balanceCents(t, c), before);
    assert.equal((await detail(s.id)).billing.amount, '5.00');
    assert.equal((await list(s.id)).data.length, 2);
    // The platform is fine again: the next request works.
    assert.equal((await add(s.id, { version: 4 })).statusCode, 201);
    await assertLedgerExact(t, c);
  });

  test('422 QUOTA_EXCEEDED past 16 addresses of a family', async () => {
    const s = await activeServer(t, c, { ipv4_count: 16 });
    assertError(await add(s.id, { version: 4 }), 422, 'QUOTA_EXCEEDED');
    assert.equal((await add(s.id, { version: 6 })).statusCode, 201, 'the other family is not full');
  });

  test('Idempotency-Key: replayed without a second address or charge; another body is 409', async () => {
    const s = await activeServer(t, c);
    const headers = { 'idempotency-key': '0d5b1f9e-3c77-4f0a-8e21-6b4d2a9c1e55' };
    const before = await balanceCents(t, c);
    const [a, b] = await Promise.all([add(s.id, { version: 4 }, c.key, headers), add(s.id, { version: 4 }, c.key, headers)]);
    assert.deepEqual([a.statusCode, b.statusCode], [201, 201], a.body + b.body);
    assert.deepEqual(json(a).data, json(b).data);
    assert.equal([a, b].filter((r) => r.headers['idempotent-replayed'] === 'true').length, 1);
    assert.equal(await balanceCents(t, c), before - prorated(s, 300));
    assert.equal((await list(s.id)).data.length, 3);
    assertError(await add(s.id, { version: 6 }, c.key, headers), 409, 'IDEMPOTENCY_KEY_CONFLICT');
    // A failed request is not stored: after a refused attempt the same key works.
    const key2 = { 'idempotency-key': '9a3e7c21-5b0d-4e8f-a1c6-2f7d9b3e0a14' };
    await withFault(t, 'upstream_error', ['attachIp'], async () => assertError(await add(s.id, { version: 6 }, c.key, key2), 502, 'UPSTREAM_ERROR'));
    const retried = await add(s.id, { version: 6 }, c.key, key2);
    assert.equal(retried.statusCode, 201, retried.body);
    assert.equal(retried.headers['idempotent-replayed'], undefined);
    await assertLedgerExact(t, c);
  });

  test('a burst of keyed requests (more than the connection pool) all succeed, each charged once', async () => {
    const s = await activeServer(t, c, { ipv6_count: 1 });
    const before = await balanceCents(t, c);
    const keys = Array.from({ length: 14 }, () => randomUUID());
    const res = await Promise.all(keys.map((k) => add(s.id, { version: 6 }, c.key, { 'idempotency-key': k })));
    assert.deepEqual(res.map((r) => r.statusCode), keys.map(() => 201), res.map((r) => r.body).join('\n'));
    assert.equal(new Set(res.map((r) => json(r).data.address)).size, 14);
    assert.equal(await balanceCents(t, c), before - prorated(s, 14 * 50), 'the 14 charges add up to the prorated rise');
    const replay = await add(s.id, { version: 6 }, c.key, { 'idempotency-key': keys[0]! });
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.deepEqual(json(replay).data, json(res[0]!).data);
    await assertLedgerExact(t, c);
  });

  test('sandbox: 201 with meta.sandbox; no address, price or charge persists', async () => {
    const s = await activeServer(t, c);
    const testKey = json(await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/api-keys`, { name: 'sandbox', ip_allowlist: ['127.0.0.1', '::1'], is_test: true })).data.key;
    const before = await balanceCents(t, c);
    const res = await add(s.id, { version: 4 }, testKey);
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(json(res).meta.sandbox, true);
    assert.match(json(res).data.address, /^192\.0\.2\./, 'a documentation address from the no-op platform');
    assert.equal(await balanceCents(t, c), before);
    assert.equal((await detail(s.id)).billing.amount, '5.00');
    assert.equal((await list(s.id)).data.length, 2);
    const listed = await list(s.id, testKey);
    assert.equal(listed.meta.sandbox, true);
    assert.equal(listed.data.length, 2);
    assertError(await add(s.id, { version: 4 }, json(await adminCall(t, 'POST', `/admin/v1/accounts/${other.accountId}/api-keys`, { name: 's', ip_allowlist: ['127.0.0.1'], is_test: true })).data.key), 404, 'RESOURCE_NOT_FOUND');
  });
});

describe('POST /servers/{id}/ips: the safety net behind the two transactions', () => {
  const compute = () => computeFor(t.config, t.database.db);
  const runJob = (opId: string) => executeOperation({ db: t.database.db, compute: compute(), hosting: noopPanel }, opId, true);
  const attachOps = (serverId: string) => t.database.db.selectFrom('operations').selectAll()
    .where('type', '=', 'server.ip_attach').where(sql<string>`params->>'server_id'`, '=', serverId).execute();
  const pendingRows = (serverId: string) => t.database.db.selectFrom('server_ips').selectAll()
    .where('server_id', '=', serverId).where('address', 'is', null).where('released_at', 'is', null).execute();

  /**
   * A keyed purchase whose request dies after tx1: the platform leases the address (or not, when
   * it refuses) but the answer never comes back, so tx2 never runs; the request's own database
   * connections are gone with it (closed), so its lease is no longer renewed.
   */
  async function abandonedPurchase(serverId: string, key: string, leaseS = 30): Promise<{ opId: string; queued: string[]; leased: Promise<string>; abandonedAt: number }> {
    const queued: string[] = [];
    const real = compute();
    const dying = connect(t.databaseUrl);
    let leased!: (address: string) => void;
    const ctx: Ctx = {
      db: dying.db, accountId: c.accountId, sandbox: false, now: new Date(), providerTimeoutMs: 1000, operationLeaseS: leaseS, hosting: noopPanel,
      compute: {
        async attachIp(ref, version, token) {
          // Whatever the platform answers, the request is gone before it can act on it.
          await real.attachIp(ref, version, token).then((a) => leased(a.address), () => {});
          return new Promise(() => {});
        },
      } as ComputeProvider,
      jobs: { async enqueueOperation(_trx, opId) { queued.push(opId); } },
      registrar: noopRegistrar,
    };
    const result = new Promise<string>((resolve) => { leased = resolve; });
    void addIpOnce(ctx, serverId, 4, { key, fingerprint: requestFingerprint('POST', url(serverId), { version: 4 }) }).catch(() => {});
    for (let i = 0; ; i++) {
      const [op] = await attachOps(serverId);
      if (op) {
        await dying.close();
        return { opId: op.id, queued, leased: result, abandonedAt: Date.now() };
      }
      assert.ok(i < 200, 'the first transaction commits');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  test('normal path: tx2 completes the operation under the request\'s lease; nothing is queued, and a late run finds nothing to do', async () => {
    const s = await activeServer(t, c);
    const before = await balanceCents(t, c);
    const headers = { 'idempotency-key': randomUUID() };
    const res = await add(s.id, { version: 4 }, c.key, headers);
    assert.equal(res.statusCode, 201, res.body);
    const [op] = await attachOps(s.id);
    assert.equal(op!.status, 'completed');
    assert.equal(op!.lease_until, null);
    assert.deepEqual([op!.resource_type, op!.resource_id], ['server_ip', String(op!.params.row_id)]);
    const job = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pgboss.job WHERE data->>'operation_id' = ${op!.id}`.execute(t.database.db);
    assert.equal(job.rows[0]!.n, 0);
    await runJob(op!.id);
    assert.equal(await balanceCents(t, c), before - prorated(s, 300), 'charged once');
    assert.equal((await detail(s.id)).billing.amount, '8.00');
    assert.deepEqual((await list(s.id)).data.slice(2).map((e: Json) => e.address), [json(res).data.address], 'no second address');
    const replay = await add(s.id, { version: 4 }, c.key, headers);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.deepEqual(json(replay).data, json(res).data);
    await assertLedgerExact(t, c);
  });

  test('a request that died between its transactions: the job stores the leased address and the 201 its key replays', async () => {
    const s = await activeServer(t, c);
    const before = await balanceCents(t, c);
    const key = randomUUID();
    const job = await abandonedPurchase(s.id, key);
    assert.deepEqual(job.queued, [], 'no delayed job: the lease is the safety net');
    const leased = await job.leased;
    assert.equal((await attachOps(s.id))[0]!.status, 'running', 'held under the dead request\'s lease');
    // Paid for and billed, not shown yet; other actions on the server are not held up.
    assert.equal(await balanceCents(t, c), before - prorated(s, 300));
    assert.equal((await pendingRows(s.id)).length, 1);
    assert.equal((await list(s.id)).data.length, 2);
    assert.equal((await call(t.app, 'POST', `/v2/servers/${s.id}/actions/reboot`, { key: c.key })).statusCode, 202);

    await runJob(job.opId);
    assert.equal((await attachOps(s.id))[0]!.status, 'completed');
    const extra = (await list(s.id)).data[2];
    assert.equal(extra.address, leased, 'the same token: the lease the platform already made');
    assert.equal((await list(s.id)).data.length, 3);
    assert.equal((await pendingRows(s.id)).length, 0);
    const replay = await add(s.id, { version: 4 }, c.key, { 'idempotency-key': key });
    assert.equal(replay.statusCode, 201, replay.body);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.deepEqual(json(replay).data, extra, 'the shape the route answers');
    assert.equal(await balanceCents(t, c), before - prorated(s, 300), 'charged once');
    assert.equal((await detail(s.id)).billing.amount, '8.00');
    await runJob(job.opId);
    assert.equal((await list(s.id)).data.length, 3, 'a second delivery does nothing');
    await assertLedgerExact(t, c);
  });

  test('a request that died between its transactions is recovered by the running worker within about OPERATION_LEASE_S; its key then replays', async () => {
    const s = await activeServer(t, c);
    const before = await balanceCents(t, c);
    const key = randomUUID();
    const job = await abandonedPurchase(s.id, key, 3);
    const leased = await job.leased;
    for (;;) {
      const [op] = await attachOps(s.id);
      if (op!.status === 'completed' || op!.status === 'failed') break;
      assert.ok(Date.now() - job.abandonedAt < 15_000, `still ${op!.status} after 15 s`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const recoveredS = (Date.now() - job.abandonedAt) / 1000;
    assert.equal((await attachOps(s.id))[0]!.status, 'completed');
    assert.ok(recoveredS >= 2 && recoveredS < 10, `recovered after ${recoveredS} s`);
    process.stdout.write(`# IP purchase recovery: ${recoveredS.toFixed(1)} s after the request died (OPERATION_LEASE_S=3)\n`);
    const replay = await add(s.id, { version: 4 }, c.key, { 'idempotency-key': key });
    assert.equal(replay.statusCode, 201, replay.body);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(json(replay).data.address, leased);
    assert.equal(await balanceCents(t, c), before - prorated(s, 300), 'charged once');
    await assertLedgerExact(t, c);
  });

  test('a request that died and a platform that refuses: the job refunds, releases, restores the price and frees the key', async () => {
    const s = await activeServer(t, c);
    const before = await balanceCents(t, c);
    const key = randomUUID();
    const job = await withFault(t, 'capacity_unavailable', ['attachIp'], async () => {
      const j = await abandonedPurchase(s.id, key);
      await new Promise((r) => setTimeout(r, 100));
      assert.equal((await attachOps(s.id))[0]!.status, 'running', 'held under the dead request\'s lease');
      assert.equal((await detail(s.id)).billing.amount, '8.00');
      await runJob(j.opId);
      return j;
    });
    const op = json(await call(t.app, 'GET', `/v2/operations/${job.opId}`, { key: c.key })).data;
    assert.deepEqual([op.status, op.resource.type], ['failed', 'server_ip']);
    assert.equal(await balanceCents(t, c), before);
    assert.equal((await detail(s.id)).billing.amount, '5.00');
    assert.equal((await pendingRows(s.id)).length, 0);
    assert.equal((await list(s.id)).data.length, 2);
    const refund = json(await call(t.app, 'GET', '/v2/billing/transactions', { key: c.key, query: { type: 'refund' } })).data[0];
    assert.equal(refund.amount.amount, (prorated(s, 300) / 100).toFixed(2));
    await assertLedgerExact(t, c);
    // The key was forgotten with the refund: the retry is a purchase of its own.
    const retried = await add(s.id, { version: 4 }, c.key, { 'idempotency-key': key });
    assert.equal(retried.statusCode, 201, retried.body);
    assert.equal(retried.headers['idempotent-replayed'], undefined);
    assert.equal(await balanceCents(t, c), before - prorated(s, 300));
    await assertLedgerExact(t, c);
  });

  test('the request\'s own refusal fails its operation in tx2; sandbox purchases leave no operation', async () => {
    const s = await activeServer(t, c);
    await withFault(t, 'upstream_error', ['attachIp'], async () => assertError(await add(s.id, { version: 6 }), 502, 'UPSTREAM_ERROR'));
    const [op] = await attachOps(s.id);
    assert.equal(op!.status, 'failed');
    await runJob(op!.id);
    assert.equal((await detail(s.id)).billing.amount, '5.00', 'the job does not undo twice');
    await assertLedgerExact(t, c);

    const testKey = json(await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/api-keys`, { name: 'sb-net', ip_allowlist: ['127.0.0.1', '::1'], is_test: true })).data.key;
    assert.equal((await add(s.id, { version: 4 }, testKey, { 'idempotency-key': randomUUID() })).statusCode, 201);
    assert.equal((await attachOps(s.id)).length, 1);
  });
});
