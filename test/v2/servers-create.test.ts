// POST /v2/servers in its three modes, its documented errors in the API's check order (docs/architecture.md, "Check order"), and the
// provisioning that follows.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { CLOUD_S, FRA, PASSWORD, SINGAPORE, activeServer, createServer, serverBody } from '../helpers/servers.ts';
import { ledgerSumCents } from '../../src/db/queries/transactions.ts';

let t: TestApp;
let c: Customer;

before(async () => {
  t = await startApp({ worker: 'embedded' });
  c = await createCustomer(t, { deposit: '1000.00' });
});

async function balance(key: string): Promise<string> {
  return json(await call(t.app, 'GET', '/v2/billing/balance', { key })).data.balance.amount;
}

function post(body: unknown, key = c.key, headers: Record<string, string> = {}) {
  return call(t.app, 'POST', '/v2/servers', { key, body, headers });
}

describe('package mode', () => {
  test('201 with the pending server and its queued operation; the first cycle is charged', async () => {
    const cust = await createCustomer(t, { deposit: '20.00' });
    const res = await post(serverBody({ name: 'pkg-1.example.com' }), cust.key);
    assert.equal(res.statusCode, 201, res.body);
    const body = json(res);
    const s = body.data;
    assert.match(s.id, /^srv_[0-9A-Za-z]{16}$/);
    assert.equal(s.name, 'pkg-1.example.com');
    assert.equal(s.status, 'pending');
    assert.equal(s.power_state, 'provisioning');
    assert.equal(s.os, 'ubuntu-24.04');
    assert.equal(s.location_id, FRA);
    assert.deepEqual(s.specs, { cpu_cores: 1, ram_mb: 1024, storage_gb: 25 });
    assert.deepEqual(s.plan, { id: CLOUD_S, name: 'Cloud S' });
    assert.deepEqual(s.network, { ipv4: null, ipv6: null, extra_ips: [] });
    assert.equal(s.billing.amount, '5.00');
    assert.equal(s.billing.currency, 'USD');
    assert.equal(s.billing.cycle, 'monthly');
    const next = new Date(s.billing.next_billing_at).getTime() - new Date(s.created_at).getTime();
    assert.ok(next >= 28 * 86_400_000 && next <= 31 * 86_400_000, 'next billing one month later');
    assert.match(s.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(s.operation.type, 'server.create');
    assert.equal(s.operation.status, 'queued');
    assert.deepEqual(s.operation.resource, { type: 'server', id: s.id });
    assert.match(s.operation.id, /^op_/);
    assert.equal(body.meta.version, '2.0.0');
    assert.equal(body.meta.sandbox, undefined);
    assert.equal(await balance(cust.key), '15.00');
    const tx = json(await call(t.app, 'GET', '/v2/billing/transactions', { key: cust.key, query: { type: 'withdraw' } })).data;
    assert.equal(tx.length, 1);
    assert.equal(tx[0].amount.amount, '5.00');
    assert.match(tx[0].description, new RegExp(s.id));
  });

  test('the worker provisions it: operation completed at 100 %, server active and running with addresses', async () => {
    const created = await createServer(t, c);
    const op = await waitForOperation(t, c.key, created.operation.id);
    assert.equal(op.status, 'completed', op.detail);
    assert.equal(op.progress_pct, 100);
    const s = json(await call(t.app, 'GET', `/v2/servers/${created.id}`, { key: c.key })).data;
    assert.equal(s.status, 'active');
    assert.equal(s.power_state, 'running');
    assert.match(s.network.ipv4.address, /^\d+\.\d+\.\d+\.\d+$/);
    assert.ok(s.network.ipv4.gateway && s.network.ipv4.netmask && s.network.ipv4.subnet);
    assert.ok(s.network.ipv6.address.includes(':'));
  });
});

describe('custom mode', () => {
  test('priced from the unit prices the operator sets', async () => {
    for (const [unit, price] of [['cpu_core', '3.00'], ['ram_gb', '2.00'], ['disk_gb', '0.10']]) {
      assert.equal((await adminCall(t, 'PUT', `/admin/v1/unit-prices/${unit}`, { price })).statusCode, 200);
    }
    const cust = await createCustomer(t, { deposit: '50.00' });
    const res = await post(serverBody({ plan_id: undefined, cpu_cores: 2, ram_mb: 4096, storage_gb: 50 }), cust.key);
    assert.equal(res.statusCode, 201, res.body);
    const s = json(res).data;
    // 2 × 3.00 + 4 × 2.00 + 50 × 0.10 = 19.00
    assert.equal(s.billing.amount, '19.00');
    assert.equal(s.plan, null);
    assert.deepEqual(s.specs, { cpu_cores: 2, ram_mb: 4096, storage_gb: 50 });
    assert.equal(await balance(cust.key), '31.00');
  });

  test('extra addresses are added to the monthly bill and assigned at provisioning', async () => {
    assert.equal((await adminCall(t, 'PUT', '/admin/v1/unit-prices/ipv4', { price: '2.50' })).statusCode, 200);
    assert.equal((await adminCall(t, 'PUT', '/admin/v1/unit-prices/ipv6', { price: '0.50' })).statusCode, 200);
    const s = await activeServer(t, c, { ipv4_count: 3, ipv6_count: 2 });
    // Cloud S 5.00 + 2 × 2.50 + 1 × 0.50
    assert.equal(s.billing.amount, '10.50');
    assert.equal(s.network.extra_ips.length, 3);
    assert.deepEqual(s.network.extra_ips.map((ip: { version: number }) => ip.version).sort(), [4, 4, 6]);
  });

  test('ipv6_count 0: no IPv6 at all', async () => {
    const s = await activeServer(t, c, { ipv6_count: 0 });
    assert.equal(s.network.ipv6, null);
  });

  test('RAM must be whole GB; a missing custom field is named', async () => {
    let res = await post(serverBody({ plan_id: undefined, cpu_cores: 2, ram_mb: 1500, storage_gb: 50 }));
    assert.equal(res.statusCode, 422);
    assert.equal(json(res).error.errors[0].field, 'ram_mb');
    res = await post(serverBody({ plan_id: undefined, cpu_cores: 2, storage_gb: 50 }));
    assert.equal(res.statusCode, 422);
    assert.deepEqual(json(res).error.errors.map((e: { field: string }) => e.field), ['ram_mb']);
  });
});

describe('errors, in order: input, references, state, balance', () => {
  const codeOf = async (body: unknown, key = c.key) => {
    const res = await post(body, key);
    return { status: res.statusCode, code: json(res).error?.code, fields: (json(res).error?.errors ?? []).map((e: { field: string }) => e.field) };
  };

  test('VALIDATION_FAILED: missing, wrong-typed, unknown and oversize fields, mixed modes, no mode', async () => {
    assert.deepEqual((await codeOf({})).fields.sort(), ['location_id', 'name', 'password']);
    assert.deepEqual(await codeOf(serverBody({ location_id: '1' })), { status: 422, code: 'VALIDATION_FAILED', fields: ['location_id'] });
    assert.deepEqual(await codeOf(serverBody({ colour: 'red' })), { status: 422, code: 'VALIDATION_FAILED', fields: ['colour'] });
    assert.deepEqual(await codeOf(serverBody({ name: 'a'.repeat(254) })), { status: 422, code: 'VALIDATION_FAILED', fields: ['name'] });
    assert.deepEqual(await codeOf(serverBody({ name: 'bad_name!' })), { status: 422, code: 'VALIDATION_FAILED', fields: ['name'] });
    assert.deepEqual(await codeOf(serverBody({ cpu_cores: 2 })), { status: 422, code: 'VALIDATION_FAILED', fields: ['plan_id'] });
    assert.deepEqual(await codeOf(serverBody({ plan_id: undefined })), { status: 422, code: 'VALIDATION_FAILED', fields: ['plan_id'] });
    assert.deepEqual(await codeOf(serverBody({ os_version_id: undefined })), { status: 422, code: 'VALIDATION_FAILED', fields: ['os_version_id'] });
    assert.deepEqual(await codeOf(serverBody({ ipv4_count: 0 })), { status: 422, code: 'VALIDATION_FAILED', fields: ['ipv4_count'] });
    assert.deepEqual(await codeOf(serverBody({ plan_id: undefined, source: {} })), { status: 422, code: 'VALIDATION_FAILED', fields: ['source'] });
  });

  test('INVALID_PASSWORD names what is missing', async () => {
    for (const password of ['short1!A', 'alllowercase1!', 'ALLUPPER1!', 'NoDigits!!', 'NoSymbol123']) {
      const res = await post(serverBody({ password }));
      if (password === 'short1!A') { assert.equal(res.statusCode, 201, 'eight characters are enough'); continue; }
      assert.equal(res.statusCode, 422, password);
      assert.equal(json(res).error.code, 'INVALID_PASSWORD');
      assert.equal(json(res).error.errors[0].field, 'password');
    }
    // The message states the whole rule (all four classes and the length), then what is missing.
    const rule = 'The password must have at least 8 characters with an upper-case letter, a lower-case letter, a digit and a symbol';
    const res = await post(serverBody({ password: 'Ab1!' }));
    assert.equal(json(res).error.message, `${rule}; this one is shorter than 8 characters`);
    const lower = await post(serverBody({ password: 'alllowercase' }));
    assert.equal(json(lower).error.message, `${rule}; this one has no upper-case letter, has no digit, has no symbol`);
    assert.equal(json(lower).error.errors[0].message, json(lower).error.message);
  });

  test('PLAN_NOT_FOUND for an unknown plan, and for an unavailable one saying so', async () => {
    const unknown = await post(serverBody({ plan_id: 999 }));
    assert.equal(json(unknown).error.code, 'PLAN_NOT_FOUND');
    assert.equal(json(unknown).error.message, 'Plan 999 does not exist');
    const legacy = await post(serverBody({ plan_id: 6 }));
    assert.equal(json(legacy).error.code, 'PLAN_NOT_FOUND', 'Cloud Legacy is unavailable');
    assert.equal(json(legacy).error.message, 'Plan 6 (Cloud Legacy) is not available for new servers');
    assert.match(json(legacy).error.errors[0].message, /not available/);
    assert.doesNotMatch(json(legacy).error.message, /does not exist/);
  });

  test('LOCATION_INVALID for a partner-routed, unknown or unavailable location', async () => {
    assert.deepEqual(await codeOf(serverBody({ location_id: SINGAPORE })), { status: 422, code: 'LOCATION_INVALID', fields: ['location_id'] });
    assert.equal((await codeOf(serverBody({ location_id: 999 }))).code, 'LOCATION_INVALID');
  });

  test('OS_VERSION_INVALID', async () => {
    assert.deepEqual(await codeOf(serverBody({ os_version_id: 999 })), { status: 422, code: 'OS_VERSION_INVALID', fields: ['os_version_id'] });
  });

  test('SOURCE_NOT_FOUND for an unknown snapshot or any backup', async () => {
    assert.equal((await codeOf({ name: 'src-1', location_id: FRA, password: PASSWORD, source: { snapshot_id: 999 } })).code, 'SOURCE_NOT_FOUND');
    assert.equal((await codeOf({ name: 'src-2', location_id: FRA, password: PASSWORD, source: { backup_id: 1 } })).code, 'SOURCE_NOT_FOUND');
  });

  test('HOSTNAME_IN_USE (409) for a live server of the account, any case; free in another account', async () => {
    await createServer(t, c, { name: 'dup.example.com' });
    const res = await post(serverBody({ name: 'DUP.example.com' }));
    assert.equal(res.statusCode, 409);
    assert.equal(json(res).error.code, 'HOSTNAME_IN_USE');
    const other = await createCustomer(t, { deposit: '10.00' });
    assert.equal((await post(serverBody({ name: 'dup.example.com' }), other.key)).statusCode, 201);
  });

  test('INSUFFICIENT_BALANCE writes nothing; a reference error wins over the balance', async () => {
    const poor = await createCustomer(t, { deposit: '4.99' });
    const res = await post(serverBody({ name: 'poor.example.com' }), poor.key);
    assert.equal(res.statusCode, 422);
    assert.equal(json(res).error.code, 'INSUFFICIENT_BALANCE');
    assert.equal(json(res).error.message, 'Balance 4.99 USD is less than the 5.00 USD this costs');
    assert.equal(await balance(poor.key), '4.99');
    assert.equal(json(await call(t.app, 'GET', '/v2/servers', { key: poor.key })).meta.pagination.total, 0);
    const ops = await t.database.db.selectFrom('operations').select('id').where('account_id', '=', poor.accountId).execute();
    assert.equal(ops.length, 0);
    assert.equal((await codeOf(serverBody({ plan_id: 999 }), poor.key)).code, 'PLAN_NOT_FOUND');
    // The name was not taken by the refused request.
    await adminCall(t, 'POST', `/admin/v1/accounts/${poor.accountId}/deposits`, { amount: '1.00' });
    assert.equal((await post(serverBody({ name: 'poor.example.com' }), poor.key)).statusCode, 201);
  });

  test('415 for a non-JSON body; 400 for broken JSON; 401 without a key', async () => {
    const res = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: 'name=x', headers: { 'content-type': 'text/plain' } });
    assert.equal(res.statusCode, 415);
    const bad = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: '{"name":', headers: { 'content-type': 'application/json' } });
    assert.equal(bad.statusCode, 400);
    assert.equal((await call(t.app, 'POST', '/v2/servers', { body: serverBody() })).statusCode, 401);
  });

  test('a key without servers:write gets 403 AUTH_SCOPE_INSUFFICIENT', async () => {
    const ro = await createCustomer(t, { deposit: '10.00', scopes: ['servers:read'] });
    const res = await post(serverBody(), ro.key);
    assert.equal(res.statusCode, 403);
    assert.equal(json(res).error.code, 'AUTH_SCOPE_INSUFFICIENT');
  });
});

/** The fault switch hits the next create call: let earlier tests' provisioning finish first. */
async function settle() {
  for (let i = 0; i < 400; i++) {
    const busy = await t.database.db.selectFrom('operations').select('id').where('status', 'in', ['queued', 'running']).execute();
    if (busy.length === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('provisioning failures', () => {
  test('capacity: the operation fails with a readable detail, the server is cancelled and refunded', async () => {
    const cust = await createCustomer(t, { deposit: '5.00' });
    await settle();
    assert.equal((await adminCall(t, 'PUT', '/admin/v1/provider/fault', { mode: 'capacity_unavailable', calls: ['create'], remaining: 1 })).statusCode, 200);
    try {
      const created = await createServer(t, cust, { name: 'nocap.example.com' });
      assert.equal(await balance(cust.key), '0.00');
      const op = await waitForOperation(t, cust.key, created.operation.id);
      assert.equal(op.status, 'failed');
      assert.match(op.detail, /capacity/i);
      const s = json(await call(t.app, 'GET', `/v2/servers/${created.id}`, { key: cust.key })).data;
      assert.equal(s.status, 'cancelled');
      assert.equal(await balance(cust.key), '5.00');
      const active = json(await call(t.app, 'GET', '/v2/servers', { key: cust.key, query: { status: 'active' } }));
      assert.equal(active.meta.pagination.total, 0);
      // Its host name is free again.
      assert.equal((await post(serverBody({ name: 'nocap.example.com' }), cust.key)).statusCode, 201);
      assert.equal(await ledgerSumCents(t.database.db, cust.accountId), 0);
    } finally {
      await adminCall(t, 'PUT', '/admin/v1/provider/fault', { mode: 'none' });
    }
  });

  test('an upstream error is retried and the server still comes up', async () => {
    await settle();
    assert.equal((await adminCall(t, 'PUT', '/admin/v1/provider/fault', { mode: 'upstream_error', calls: ['create'], remaining: 1 })).statusCode, 200);
    try {
      const created = await createServer(t, c);
      const op = await waitForOperation(t, c.key, created.operation.id);
      assert.equal(op.status, 'completed', op.detail);
      const row = await t.database.db.selectFrom('operations').select(['attempts', 'last_error']).where('id', '=', created.operation.id).executeTakeFirstOrThrow();
      assert.equal(row.attempts, 2);
      assert.ok(row.last_error);
    } finally {
      await adminCall(t, 'PUT', '/admin/v1/provider/fault', { mode: 'none' });
    }
  });
});

test('the password is not kept once provisioning is done', async () => {
  const created = await createServer(t, c);
  await waitForOperation(t, c.key, created.operation.id);
  const row = await t.database.db.selectFrom('operations').select('params').where('id', '=', created.operation.id).executeTakeFirstOrThrow();
  assert.equal(JSON.stringify(row.params).includes(PASSWORD), false);
});
