// Deleting empty nodes and locations (route and CLI): refused with 409 while anything refers to
// them, deleted servers included until they are purged.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { adminCli } from '../helpers/admin-cli.ts';
import { addNode, newLocation } from '../helpers/nodes.ts';
import { assertError } from '../helpers/server-actions.ts';
import { activeServer } from '../helpers/servers.ts';

let t: TestApp;
let c: Customer;
let url: string;

before(async () => {
  t = await startApp({ worker: 'embedded' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  c = await createCustomer(t, { deposit: '50.00' });
});

const SIZE = { cpu_vendor: 'intel', cpu_cores: 8, ram_mb: 16384, storage_gb: 500 };

test('an empty node and an empty location are deleted; their ids are then 404', async () => {
  const created = await adminCall(t, 'POST', '/admin/v1/locations', { name: 'Empty', code: 'empty-1', country: 'DE', provider: 'primary' });
  assert.equal(created.statusCode, 201, created.body);
  const loc = json(created).data.id as number;
  const node = await addNode(t, { location_id: loc, name: 'empty-kvm1', ...SIZE });
  const inUse = await adminCall(t, 'DELETE', `/admin/v1/locations/${loc}`);
  assertError(inUse, 409, 'STATE_CONFLICT');
  assert.match(json(inUse).error.message, /hypervisor nodes/);
  const gone = await adminCall(t, 'DELETE', `/admin/v1/nodes/${node.id}`);
  assert.equal(gone.statusCode, 200, gone.body);
  assert.deepEqual([json(gone).data.id, json(gone).data.name, json(gone).data.servers], [node.id, 'empty-kvm1', 0]);
  assertError(await adminCall(t, 'GET', `/admin/v1/nodes/${node.id}`), 404, 'RESOURCE_NOT_FOUND');
  assertError(await adminCall(t, 'DELETE', `/admin/v1/nodes/${node.id}`), 404, 'RESOURCE_NOT_FOUND');
  const locGone = await adminCall(t, 'DELETE', `/admin/v1/locations/${loc}`);
  assert.equal(locGone.statusCode, 200, locGone.body);
  assert.equal(json(locGone).data.code, 'empty-1');
  assertError(await adminCall(t, 'GET', `/admin/v1/locations/${loc}`), 404, 'RESOURCE_NOT_FOUND');
  assertError(await adminCall(t, 'DELETE', `/admin/v1/locations/${loc}`), 404, 'RESOURCE_NOT_FOUND');
});

test('a location with IP pools, and a node holding a server (even a deleted one), are 409', async () => {
  const loc = await newLocation(t, 'busy-1', 77);
  assertError(await adminCall(t, 'DELETE', `/admin/v1/locations/${loc}`), 409, 'STATE_CONFLICT');
  const node = await addNode(t, { location_id: loc, name: 'busy-kvm1', ...SIZE });
  const server = await activeServer(t, c, { location_id: loc });
  const busy = await adminCall(t, 'DELETE', `/admin/v1/nodes/${node.id}`);
  assertError(busy, 409, 'STATE_CONFLICT');
  assert.match(json(busy).error.message, /Node busy-kvm1 is still used by servers/);
  const del = await call(t.app, 'DELETE', `/v2/servers/${server.id}`, { key: c.key });
  assert.equal(del.statusCode, 200, del.body);
  assert.equal(json(del).data.status, 'deleted');
  assertError(await adminCall(t, 'DELETE', `/admin/v1/nodes/${node.id}`), 409, 'STATE_CONFLICT');
  assertError(await adminCall(t, 'DELETE', `/admin/v1/locations/${loc}`), 409, 'STATE_CONFLICT');
  assert.equal(json(await adminCall(t, 'GET', `/admin/v1/nodes/${node.id}`)).data.name, 'busy-kvm1');
});

test('bad ids are 422, and both routes need the admin token', async () => {
  assertError(await adminCall(t, 'DELETE', '/admin/v1/nodes/abc'), 422, 'VALIDATION_FAILED', 'id');
  assertError(await adminCall(t, 'DELETE', '/admin/v1/locations/0'), 422, 'VALIDATION_FAILED', 'id');
  for (const path of ['/admin/v1/nodes/1', '/admin/v1/locations/1']) {
    assertError(await call(t.app, 'DELETE', path), 401, 'AUTH_REQUIRED');
    assertError(await call(t.app, 'DELETE', path, { key: c.key }), 401, 'AUTH_INVALID');
  }
});

test('CLI: nodes delete and locations delete', async () => {
  const created = await adminCall(t, 'POST', '/admin/v1/locations', { name: 'Cli', code: 'cli-del', country: 'DE', provider: 'primary' });
  const loc = json(created).data.id as number;
  const node = await addNode(t, { location_id: loc, name: 'cli-kvm1', ...SIZE });
  const busy = await adminCli(t, url, ['locations', 'delete', String(loc)]);
  assert.notEqual(busy.code, 0);
  assert.match(busy.stderr, /409 STATE_CONFLICT[\s\S]*hypervisor nodes/);
  const nodeGone = await adminCli(t, url, ['nodes', 'delete', String(node.id)]);
  assert.equal(nodeGone.code, 0, nodeGone.stderr);
  assert.match(nodeGone.stdout, new RegExp(`node ${node.id}: deleted\\n[\\s\\S]*cli-kvm1`));
  const locGone = await adminCli(t, url, ['locations', 'delete', String(loc), '--json']);
  assert.equal(locGone.code, 0, locGone.stderr);
  assert.equal(JSON.parse(locGone.stdout).data.code, 'cli-del');
  const missing = await adminCli(t, url, ['nodes', 'delete']);
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /NODE_ID/);
  const help = await adminCli(t, url, ['locations', 'delete', '--help']);
  assert.match(help.stdout, /^Usage: hostcloud admin locations delete LOCATION_ID/);
});
