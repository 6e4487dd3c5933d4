// The operator's lists across accounts: GET /admin/v1/servers and /vdc-vms (by account, node,
// status), GET /admin/v1/accounts/{id}/services, and the CLI's `servers list`, `nodes get` and
// `accounts get` that show them (in 120 columns).
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { adminCli } from '../helpers/admin-cli.ts';
import { activeDomain } from '../helpers/domains.ts';
import { activeHosting } from '../helpers/hosting.ts';
import { assertError } from '../helpers/server-actions.ts';
import { type Json, activeServer } from '../helpers/servers.ts';
import { BIG_POOL, activeVm, setPool } from '../helpers/vdc.ts';

let t: TestApp;
let url: string;
let a: Customer;
let b: Customer;
let sa: Json;
let sb: Json;
let gone: Json;
let nodeOfA: number;

before(async () => {
  t = await startApp({ worker: 'embedded' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  a = await createCustomer(t, { deposit: '200.00' });
  b = await createCustomer(t, { deposit: '50.00' });
  [sa, sb, gone] = await Promise.all([
    activeServer(t, a, { name: 'a-server-with-a-rather-long-name-indeed' }), activeServer(t, b), activeServer(t, b),
  ]);
  const del = await call(t.app, 'DELETE', `/v2/servers/${gone.id}`, { key: b.key });
  assert.equal(del.statusCode, 200, del.body);
  const row = await t.database.db.selectFrom('servers').select('node_id').where('id', '=', sa.id).executeTakeFirstOrThrow();
  nodeOfA = row.node_id!;
});

const ids = (res: { body: string }) => (json(res as never).data as { id: string }[]).map((r) => r.id);

test('GET /admin/v1/servers: every account, filters, deleted ones only when asked, paged', async () => {
  const all = await adminCall(t, 'GET', '/admin/v1/servers');
  assert.equal(all.statusCode, 200, all.body);
  assert.ok([sa.id, sb.id].every((id) => ids(all).includes(id)) && !ids(all).includes(gone.id), all.body);
  const first = (json(all).data as Json[]).find((r) => r.id === sa.id);
  assert.equal(first.account_id, a.accountId);
  assert.equal(first.status, 'active');
  assert.equal(first.node_id, nodeOfA);
  assert.equal(typeof first.node_name, 'string');
  assert.match(first.ipv4, /^\d+\.\d+\.\d+\.\d+$/);
  assert.deepEqual(ids(await adminCall(t, 'GET', `/admin/v1/servers?account_id=${a.accountId}`)), [sa.id]);
  const onNode = ids(await adminCall(t, 'GET', `/admin/v1/servers?node_id=${nodeOfA}`));
  assert.ok(onNode.includes(sa.id));
  assert.deepEqual(ids(await adminCall(t, 'GET', `/admin/v1/servers?status=deleted&account_id=${b.accountId}`)), [gone.id]);
  const paged = json(await adminCall(t, 'GET', '/admin/v1/servers?per_page=1&page=2'));
  assert.equal(paged.data.length, 1);
  assert.equal(paged.meta.pagination.total, 2);
  assert.deepEqual(json(await adminCall(t, 'GET', '/admin/v1/servers?account_id=acc_nobody')).data, []);
});

test('bad filters are 422; the lists need the admin token', async () => {
  assertError(await adminCall(t, 'GET', '/admin/v1/servers?status=running'), 422, 'VALIDATION_FAILED', 'status');
  assertError(await adminCall(t, 'GET', '/admin/v1/servers?node_id=abc'), 422, 'VALIDATION_FAILED', 'node_id');
  assertError(await adminCall(t, 'GET', '/admin/v1/vdc-vms?status=suspended'), 422, 'VALIDATION_FAILED', 'status');
  for (const path of ['/admin/v1/servers', '/admin/v1/vdc-vms', `/admin/v1/accounts/${a.accountId}/services`]) {
    assertError(await call(t.app, 'GET', path), 401, 'AUTH_REQUIRED');
    assertError(await call(t.app, 'GET', path, { key: a.key }), 401, 'AUTH_INVALID');
  }
});

test('an account\'s services of every kind; an unknown account is 404', async () => {
  await setPool(t, a.accountId, BIG_POOL);
  const [vm, domain, hosting] = await Promise.all([activeVm(t, a), activeDomain(t, a), activeHosting(t, a)]);
  const res = await adminCall(t, 'GET', `/admin/v1/accounts/${a.accountId}/services`);
  assert.equal(res.statusCode, 200, res.body);
  const byType = Object.fromEntries((json(res).data as Json[]).map((s) => [s.type, s.id]));
  assert.deepEqual(byType, { server: sa.id, vdc_vm: vm.id, domain: domain.id, web_hosting: hosting.id });
  assert.equal(json(res).meta.pagination.total, 4);
  const past = json(await adminCall(t, 'GET', `/admin/v1/accounts/${a.accountId}/services?page=3&per_page=2`));
  assert.deepEqual([past.data.length, past.meta.pagination.total], [0, 4]);
  const pastServers = json(await adminCall(t, 'GET', '/admin/v1/servers?page=9'));
  assert.deepEqual([pastServers.data.length, pastServers.meta.pagination.total], [0, 2]);
  assertError(await adminCall(t, 'GET', '/admin/v1/accounts/acc_nobody/services'), 404, 'RESOURCE_NOT_FOUND');
  const vms = await adminCall(t, 'GET', `/admin/v1/vdc-vms?account_id=${a.accountId}`);
  assert.deepEqual(ids(vms), [vm.id]);
  const vmNode = (json(vms).data as Json[])[0].node_id as number;
  assert.ok(ids(await adminCall(t, 'GET', `/admin/v1/vdc-vms?node_id=${vmNode}`)).includes(vm.id));

  const got = await adminCli(t, url, ['accounts', 'get', a.accountId]);
  assert.equal(got.code, 0, got.stderr);
  assert.match(got.stdout, /services \(4\):\nTYPE\s+ID\s+NAME\s+STATUS\s+CREATED/);
  for (const id of [sa.id, vm.id, domain.id, hosting.id]) assert.ok(got.stdout.includes(id), got.stdout);
  const node = await adminCli(t, url, ['nodes', 'get', String(vmNode)]);
  assert.equal(node.code, 0, node.stderr);
  assert.match(node.stdout, /VDC VMs \(\d+\):\nID\s+ACCOUNT/);
  assert.ok(node.stdout.includes(vm.id), node.stdout);
});

test('CLI: servers list with filters in 120 columns; nodes get lists the node\'s servers', async () => {
  const list = await adminCli(t, url, ['servers', 'list']);
  assert.equal(list.code, 0, list.stderr);
  assert.match(list.stdout, /^ID\s+ACCOUNT\s+NAME\s+STATUS\s+POWER\s+NODE\s+IPV4\n/);
  for (const line of list.stdout.split('\n')) assert.ok(line.length <= 120, `${line.length}: ${line}`);
  assert.ok(list.stdout.includes('a-server-with-a-r…'), list.stdout);
  assert.match(list.stdout, /page 1 of 1 \(2 servers\)/);
  const mine = await adminCli(t, url, ['servers', 'list', '--account', b.accountId, '--status', 'deleted']);
  assert.equal(mine.code, 0, mine.stderr);
  assert.ok(mine.stdout.includes(gone.id) && !mine.stdout.includes(sb.id), mine.stdout);
  const json1 = await adminCli(t, url, ['servers', 'list', '--node', String(nodeOfA), '--json']);
  assert.ok((JSON.parse(json1.stdout).data as Json[]).some((r) => r.id === sa.id));
  const bad = await adminCli(t, url, ['servers', 'list', '--status', 'running', '--node', 'x']);
  assert.notEqual(bad.code, 0);
  assert.match(bad.stderr, /--node must be a whole number[\s\S]*--status must be one of/);
  const node = await adminCli(t, url, ['nodes', 'get', String(nodeOfA)]);
  assert.equal(node.code, 0, node.stderr);
  assert.match(node.stdout, /servers \(\d+\):\nID\s+ACCOUNT/);
  assert.ok(node.stdout.includes(sa.id), node.stdout);
  const nodeJson = await adminCli(t, url, ['nodes', 'get', String(nodeOfA), '--json']);
  assert.equal(JSON.parse(nodeJson.stdout).data.id, nodeOfA);
  const help = await adminCli(t, url, ['servers', 'list', '--help']);
  assert.match(help.stdout, /^Usage: hostcloud admin servers list \[--account ACCOUNT_ID\]/);
});
