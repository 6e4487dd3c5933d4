// POST /v2/servers/{id}/actions/{verb}: power, reset_password, reinstall — the 202 shape, the
// operation completing through the worker with a visible effect, state conflicts, per-verb
// input rules, tenant isolation and the sandbox. Resize and clone (billable) have their own file.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { passwordProblem } from '../../src/core/servers/rules.ts';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { action, assertError, assertLedger, balanceCents, clearFault, holdBusy, serverRow, setFault } from '../helpers/server-actions.ts';
import { type Json, activeServer, createServer } from '../helpers/servers.ts';

const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
let t: TestApp;
let c: Customer;
let other: Customer;
let srv: Json;

before(async () => {
  t = await startApp({ worker: 'embedded' });
  c = await createCustomer(t, { deposit: '200.00' });
  other = await createCustomer(t, { deposit: '50.00' });
  srv = await activeServer(t, c);
});

async function run(id: string, verb: string, body?: unknown, key = c.key): Promise<Json> {
  const res = await action(t, key, id, verb, body);
  assert.equal(res.statusCode, 202, res.body);
  const data = json(res).data;
  assert.equal(data.operation.status, 'queued');
  assert.equal(data.operation.type, `server.${verb}`);
  const op = await waitForOperation(t, key, data.operation.id);
  assert.equal(op.status, 'completed', op.detail);
  return data;
}

const live = async (id: string) => json(await call(t.app, 'GET', `/v2/servers/${id}`, { key: c.key })).data;

test('stop, start and reboot: 202 with a queued operation, then the power state the platform reached', async () => {
  const res = await action(t, c.key, srv.id, 'stop');
  assert.equal(res.statusCode, 202, res.body);
  const body = json(res);
  assert.deepEqual(Object.keys(body.data), ['operation']);
  const op = body.data.operation;
  assert.match(op.id, /^op_/);
  assert.deepEqual(op.resource, { type: 'server', id: srv.id });
  assert.equal(op.status, 'queued');
  assert.match(op.created_at, TS);
  assert.equal(body.meta.sandbox, undefined);
  assert.equal((await waitForOperation(t, c.key, op.id)).status, 'completed');
  assert.equal((await live(srv.id)).power_state, 'stopped');
  assert.equal((await serverRow(t, srv.id)).power_state, 'stopped');

  await run(srv.id, 'start');
  assert.equal((await live(srv.id)).power_state, 'running');
  await run(srv.id, 'reboot');
  assert.equal((await live(srv.id)).power_state, 'running');
  assert.equal((await serverRow(t, srv.id)).power_state, 'running');
});

test('power verbs that make no sense in the current power state are 409 STATE_CONFLICT', async () => {
  assertError(await action(t, c.key, srv.id, 'start'), 409, 'STATE_CONFLICT');
  await run(srv.id, 'stop');
  assertError(await action(t, c.key, srv.id, 'stop'), 409, 'STATE_CONFLICT');
  assertError(await action(t, c.key, srv.id, 'reboot'), 409, 'STATE_CONFLICT');
  await run(srv.id, 'start');
});

test('a power action the platform refuses fails its operation; the power state becomes unknown, so either verb may follow', async () => {
  const s = await activeServer(t, c);
  await setFault(t, { mode: 'capacity_unavailable', calls: ['power'] });
  try {
    const res = await action(t, c.key, s.id, 'stop');
    assert.equal(res.statusCode, 202, res.body);
    const op = await waitForOperation(t, c.key, json(res).data.operation.id);
    assert.equal(op.status, 'failed');
    assert.match(op.detail, /capacity/i);
  } finally {
    await clearFault(t);
  }
  assert.equal((await serverRow(t, s.id)).power_state, 'unknown');
  await run(s.id, 'stop');
  assert.equal((await live(s.id)).power_state, 'stopped');
});

test('every verb is 409 while another operation runs on the server, and works once it finished', async () => {
  const release = await holdBusy(t, c.accountId, srv.id);
  const before = await balanceCents(t, c.accountId);
  for (const [verb, body] of [['stop'], ['reboot'], ['reset_password'], ['reinstall'], ['resize', { ram_gb: 2 }], ['clone', { hostname: 'busy-clone' }]] as const) {
    const res = await action(t, c.key, srv.id, verb, body);
    assertError(res, 409, 'STATE_CONFLICT');
    assert.match(json(res).error.message, new RegExp(`^Operation ${release.operationId} \\(server\\.test_hold\\) is still running on ${srv.id}`), verb);
  }
  // The sandbox (a test key of the same account) names it too.
  const testKey = json(await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/api-keys`, { name: 'sandbox', ip_allowlist: ['127.0.0.1'], is_test: true })).data.key;
  const sandboxed = await action(t, testKey, srv.id, 'stop');
  assertError(sandboxed, 409, 'STATE_CONFLICT');
  assert.match(json(sandboxed).error.message, new RegExp(`^Operation ${release.operationId} `));
  assert.equal(await balanceCents(t, c.accountId), before, 'nothing was charged');
  assert.equal((await serverRow(t, srv.id)).power_state, 'running', 'power state untouched');
  await release();
  await run(srv.id, 'reboot');
});

test('actions on a server that is not active are 409 STATE_CONFLICT', async () => {
  const s = await createServer(t, c);
  await waitForOperation(t, c.key, s.operation.id);
  for (const status of ['pending', 'suspended', 'cancelled'] as const) {
    await t.database.db.updateTable('servers').set({ status }).where('id', '=', s.id).execute();
    for (const verb of ['start', 'stop', 'reboot', 'reset_password', 'reinstall', 'clone']) {
      assertError(await action(t, c.key, s.id, verb), 409, 'STATE_CONFLICT');
    }
    assertError(await action(t, c.key, s.id, 'resize', { disk_gb: 40 }), 409, 'STATE_CONFLICT');
  }
});

test('reset_password without a password: a generated one is shown once, then erased from the operation', async () => {
  const data = await run(srv.id, 'reset_password');
  assert.equal(typeof data.password, 'string');
  assert.equal(passwordProblem(data.password), null, 'the generated password meets the password rule');
  const row = await t.database.db.selectFrom('operations').select('params').where('id', '=', data.operation.id).executeTakeFirstOrThrow();
  assert.equal((row.params as Record<string, unknown>).password, undefined, 'not kept after the operation finished');
  const polled = json(await call(t.app, 'GET', `/v2/operations/${data.operation.id}`, { key: c.key }));
  assert.ok(!JSON.stringify(polled).includes(data.password));
});

test('reset_password with a password: it is never echoed; a weak one is 422 INVALID_PASSWORD', async () => {
  const data = await run(srv.id, 'reset_password', { password: 'N3w!Passw0rd' });
  assert.equal(data.password, undefined);
  assertError(await action(t, c.key, srv.id, 'reset_password', { password: 'weakpass' }), 422, 'INVALID_PASSWORD', 'password');
});

test('reinstall: another OS becomes the server\'s OS; without a body the current one is reinstalled', async () => {
  await run(srv.id, 'reinstall', { os_version_id: 3 });
  assert.equal((await live(srv.id)).os, 'debian-12');
  assert.equal((await serverRow(t, srv.id)).os_version_id, 3);
  await run(srv.id, 'reinstall');
  assert.equal((await live(srv.id)).os, 'debian-12');
  assert.equal((await serverRow(t, srv.id)).power_state, 'running');
});

test('reinstall: an unknown or unavailable OS is 422 OS_VERSION_INVALID naming os_version_id', async () => {
  assertError(await action(t, c.key, srv.id, 'reinstall', { os_version_id: 999 }), 422, 'OS_VERSION_INVALID', 'os_version_id');
  const os = await adminCall(t, 'POST', '/admin/v1/operating-systems', { family: 'Gone', version: '1', slug: 'gone-1', available: false });
  assert.equal(os.statusCode, 201, os.body);
  assertError(await action(t, c.key, srv.id, 'reinstall', { os_version_id: json(os).data.id }), 422, 'OS_VERSION_INVALID', 'os_version_id');
});

test('bad input is 422 VALIDATION_FAILED naming the field: another verb\'s field, unknown field, wrong type', async () => {
  const cases: [string, unknown, string][] = [
    ['start', { password: 'N3w!Passw0rd' }, 'password'],
    ['reboot', { os_version_id: 1 }, 'os_version_id'],
    ['reinstall', { hostname: 'x' }, 'hostname'],
    ['reset_password', { cpu: 2 }, 'cpu'],
    ['clone', { disk_gb: 50 }, 'disk_gb'],
    ['stop', { force: true }, 'force'],
    ['reinstall', { os_version_id: '3' }, 'os_version_id'],
    ['reset_password', { password: 12345678 }, 'password'],
    ['resize', { ram_gb: 2.5 }, 'ram_gb'],
    ['resize', { cpu: 0 }, 'cpu'],
    ['clone', { hostname: 'bad host!' }, 'hostname'],
    ['clone', { hostname: '' }, 'hostname'],
  ];
  for (const [verb, body, field] of cases) assertError(await action(t, c.key, srv.id, verb, body), 422, 'VALIDATION_FAILED', field);
  const notObject = await call(t.app, 'POST', `/v2/servers/${srv.id}/actions/start`, { key: c.key, body: [1], headers: { 'content-type': 'application/json' } });
  assertError(notObject, 422, 'VALIDATION_FAILED');
  const malformed = await call(t.app, 'POST', `/v2/servers/${srv.id}/actions/start`, { key: c.key, body: '{', headers: { 'content-type': 'application/json' } });
  assertError(malformed, 400, 'REQUEST_MALFORMED');
});

test('an unknown verb is 422 VALIDATION_FAILED naming verb (the route exists; the parameter is wrong)', async () => {
  const res = await action(t, c.key, srv.id, 'explode');
  assertError(res, 422, 'VALIDATION_FAILED', 'verb');
  assert.match(json(res).error.errors[0].message, /start, stop, reboot, reset_password, reinstall, resize, clone/);
  assertError(await call(t.app, 'GET', `/v2/servers/${srv.id}/actions/start`, { key: c.key }), 405, 'METHOD_NOT_ALLOWED');
});

test('another account\'s server (and an unknown id) is 404 for every verb, and nothing happens to it', async () => {
  const before = await serverRow(t, srv.id);
  for (const [verb, body] of [['start'], ['stop'], ['reboot'], ['reset_password'], ['reinstall'], ['resize', { ram_gb: 4 }], ['clone']] as const) {
    const res = await action(t, other.key, srv.id, verb, body);
    assertError(res, 404, 'RESOURCE_NOT_FOUND');
    assert.ok(!res.body.includes(srv.name));
    assertError(await action(t, c.key, 'srv_doesnotexist00', verb, body), 404, 'RESOURCE_NOT_FOUND');
  }
  assert.deepEqual(await serverRow(t, srv.id), before);
  const ops = await t.database.db.selectFrom('operations').select('id').where('account_id', '=', other.accountId).execute();
  assert.deepEqual(ops, []);
});

test('sandbox: a test key gets 202 with meta.sandbox and a pollable operation; nothing persists', async () => {
  // One account, a live key (to own a real server) and a test key.
  const owner = await createCustomer(t, { deposit: '60.00' });
  const s = await activeServer(t, owner);
  const k = await adminCall(t, 'POST', `/admin/v1/accounts/${owner.accountId}/api-keys`, { name: 'sandbox', ip_allowlist: ['127.0.0.1'], is_test: true });
  const testKey = json(k).data.key as string;
  const rowBefore = await serverRow(t, s.id);
  const balance = await balanceCents(t, owner.accountId);
  const opsBefore = await t.database.db.selectFrom('operations').select('id').where('account_id', '=', owner.accountId).execute();

  for (const [verb, body] of [['stop'], ['reboot'], ['reset_password'], ['reinstall', { os_version_id: 4 }], ['resize', { ram_gb: 8 }], ['clone']] as const) {
    const res = await action(t, testKey, s.id, verb, body);
    assert.equal(res.statusCode, 202, res.body);
    const out = json(res);
    assert.equal(out.meta.sandbox, true);
    assert.equal(out.data.operation.status, 'queued');
    const polled = json(await call(t.app, 'GET', `/v2/operations/${out.data.operation.id}`, { key: testKey }));
    assert.equal(polled.data.status, 'completed');
    assert.equal(polled.meta.sandbox, true);
  }
  assert.deepEqual(await serverRow(t, s.id), rowBefore);
  assert.equal(await balanceCents(t, owner.accountId), balance);
  assert.deepEqual(await t.database.db.selectFrom('operations').select('id').where('account_id', '=', owner.accountId).execute(), opsBefore);
  const list = json(await call(t.app, 'GET', '/v2/servers', { key: owner.key }));
  assert.equal(list.meta.pagination.total, 1, 'the sandbox clone left no server');
  // Validation is real in the sandbox.
  assertError(await action(t, testKey, s.id, 'start', { cpu: 1 }), 422, 'VALIDATION_FAILED', 'cpu');
  await assertLedger(t, owner.accountId);
});
