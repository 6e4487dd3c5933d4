// GET /admin/v1/hosting/servers and `hostcloud admin hosting-servers list`: the hosting panel's
// servers with their usage, as the panel reports them.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { runAdmin } from '../../src/cli/admin.ts';
import { type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { activeHosting, withPanelFault } from '../helpers/hosting.ts';
import { assertError } from '../helpers/server-extras.ts';

let t: TestApp;

before(async () => {
  t = await startApp({ worker: 'embedded' });
});

test('every panel server with capacity, accounts and free places; an account counts where it was placed', async () => {
  const c = await createCustomer(t, { deposit: '50.00' });
  const h = await activeHosting(t, c);
  const res = await adminCall(t, 'GET', '/admin/v1/hosting/servers');
  assert.equal(res.statusCode, 200, res.body);
  const { data, meta } = json(res);
  assert.equal(meta.pagination.total, 8, 'two per seeded location');
  assert.deepEqual(Object.keys(data[0]).sort(), ['accounts', 'capacity', 'free', 'hostname', 'location_id']);
  const used = data.find((s: { hostname: string }) => s.hostname === h.server.hostname);
  assert.deepEqual({ accounts: used.accounts, capacity: used.capacity, free: used.free }, { accounts: 1, capacity: 250, free: 249 });
  for (const s of data) {
    assert.equal(s.free, s.capacity - s.accounts);
    assert.equal(typeof s.location_id, 'number');
  }
  const page = json(await adminCall(t, 'GET', '/admin/v1/hosting/servers?per_page=3&page=3')).data;
  assert.deepEqual(page.map((s: { hostname: string }) => s.hostname), data.slice(6).map((s: { hostname: string }) => s.hostname));
});

test('502 while the panel does not answer; admin token required; bad paging 422', async () => {
  await withPanelFault(t, 'upstream_error', ['listServers'], async () => {
    assertError(await adminCall(t, 'GET', '/admin/v1/hosting/servers'), 502, 'UPSTREAM_ERROR');
  });
  assertError(await call(t.app, 'GET', '/admin/v1/hosting/servers'), 401, 'AUTH_REQUIRED');
  const c = await createCustomer(t);
  assertError(await call(t.app, 'GET', '/admin/v1/hosting/servers', { key: c.key }), 401, 'AUTH_INVALID');
  assertError(await adminCall(t, 'GET', '/admin/v1/hosting/servers?per_page=0'), 422, 'VALIDATION_FAILED');
});

test('hostcloud admin hosting-servers list: a table, or the JSON answer', async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  const cli = async (...args: string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runAdmin(['--url', `http://127.0.0.1:${port}`, '--token', t.adminToken, ...args], {
      stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; },
    });
    return { code, stdout, stderr };
  };
  const table = await cli('hosting-servers', 'list');
  assert.equal(table.code, 0, table.stderr);
  const lines = table.stdout.trim().split('\n');
  assert.match(lines[0]!, /^HOSTNAME\s+LOCATION_ID\s+CAPACITY\s+ACCOUNTS\s+FREE$/);
  assert.match(lines[1]!, /^web1\.fra1\.panel\.hostcloud\.example\s+1\s+250\s+\d+\s+\d+$/);
  assert.match(lines.at(-1)!, /page 1 of 1 \(8 hosting servers\)/);
  const asJson = await cli('hosting-servers', 'list', '--json');
  assert.equal(asJson.code, 0);
  assert.equal(JSON.parse(asJson.stdout).data.length, 8);
  const help = await cli('help');
  assert.match(help.stdout, /hosting-servers list\s+the hosting panel's servers/);
});
