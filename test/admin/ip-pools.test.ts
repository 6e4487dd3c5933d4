// Address pools addressed by themselves: GET /admin/v1/ip-pools (every location, or ?location_id=)
// and POST /admin/v1/ip-pools {location_id, cidr, gateway} (version from the cidr), with size,
// assigned and free; GET /admin/v1/ip-pools/{id}/addresses (and `hostcloud admin ip-pools
// addresses`): which server or VDC VM holds each address, and which rest after a release, until when.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { adminCli } from '../helpers/admin-cli.ts';
import { setIpCooldown } from '../../src/db/queries/ip-pools.ts';
import { type TestApp, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { serverBody } from '../helpers/servers.ts';
import { BIG_POOL, setPool, vmBody } from '../helpers/vdc.ts';

let t: TestApp;
let url: string;
before(async () => {
  t = await startApp({ worker: 'embedded' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
});

const cli = (args: string[]) => adminCli(t, url, args);

test('POST /ip-pools with location_id; GET /ip-pools lists every location\'s, or one\'s', async () => {
  const res = await adminCall(t, 'POST', '/admin/v1/ip-pools', { location_id: 2, cidr: '198.51.100.0/28', gateway: '198.51.100.1' });
  assert.equal(res.statusCode, 201, res.body);
  const pool = json(res).data;
  assert.equal(pool.version, 4);
  assert.equal(pool.size, '13');
  assert.equal(pool.assigned, 0);
  assert.equal(pool.free, '13');
  const v6 = await adminCall(t, 'POST', '/admin/v1/ip-pools', { location_id: 2, cidr: '2001:db8:77::/64', gateway: '2001:db8:77::1' });
  assert.equal(json(v6).data.version, 6);
  const all = json(await adminCall(t, 'GET', '/admin/v1/ip-pools?per_page=100')).data as { id: number; location_id: number }[];
  assert.ok(all.some((p) => p.id === pool.id));
  assert.ok(new Set(all.map((p) => p.location_id)).size > 1, 'the seeded locations\' pools are listed too');
  const two = json(await adminCall(t, 'GET', '/admin/v1/ip-pools?location_id=2&per_page=100')).data as { location_id: number }[];
  assert.ok(two.length >= 2 && two.every((p) => p.location_id === 2));
});

test('bad input: unknown location 404, malformed cidr 422 naming it, unknown field 422', async () => {
  const none = await adminCall(t, 'POST', '/admin/v1/ip-pools', { location_id: 9999, cidr: '198.51.101.0/28', gateway: '198.51.101.1' });
  assert.equal(none.statusCode, 404, none.body);
  const bad = await adminCall(t, 'POST', '/admin/v1/ip-pools', { location_id: 2, cidr: 'not-a-net', gateway: '198.51.101.1' });
  assert.equal(bad.statusCode, 422, bad.body);
  assert.equal(json(bad).error.errors[0].field, 'cidr');
  const extra = await adminCall(t, 'POST', '/admin/v1/ip-pools', { location_id: 2, cidr: '198.51.101.0/28', gateway: '198.51.101.1', colour: 'red' });
  assert.equal(extra.statusCode, 422, extra.body);
  assert.equal((await adminCall(t, 'GET', '/admin/v1/ip-pools?location_id=9999')).statusCode, 404);
});

test('GET /ip-pools/{id}/addresses: held by a server or a VDC VM, cooling until the rest ends, then free; ?state filters; paged', async () => {
  await setIpCooldown(t.database.db, 3600);
  const loc = json(await adminCall(t, 'POST', '/admin/v1/locations', { name: 'Addresses', code: 'addr-1', country: 'DE', provider: 'primary' })).data.id as number;
  const v4 = await adminCall(t, 'POST', '/admin/v1/ip-pools', { location_id: loc, cidr: '198.51.105.0/29', gateway: '198.51.105.1' });
  assert.equal(v4.statusCode, 201, v4.body);
  const pool = json(v4).data.id as number;
  assert.equal((await adminCall(t, 'POST', '/admin/v1/ip-pools', { location_id: loc, cidr: '2001:db8:105::/64', gateway: '2001:db8:105::1' })).statusCode, 201);
  const node = await adminCall(t, 'POST', '/admin/v1/nodes', { location_id: loc, name: 'addr-n1', cpu_vendor: 'intel', cpu_cores: 64, ram_mb: 262_144, storage_gb: 10_000 });
  assert.equal(node.statusCode, 201, node.body);
  const addresses = (query = '') => adminCall(t, 'GET', `/admin/v1/ip-pools/${pool}/addresses${query}`);
  assert.deepEqual(json(await addresses()).data, [], 'a new pool has handed out nothing');

  const c = await createCustomer(t, { deposit: '100.00' });
  await setPool(t, c.accountId, BIG_POOL);
  const made = async (path: string, body: unknown) => {
    const res = await call(t.app, 'POST', path, { key: c.key, body });
    assert.equal(res.statusCode, 201, res.body);
    const data = json(res).data;
    assert.equal((await waitForOperation(t, c.key, data.operation.id)).status, 'completed');
    return data as { id: string; name: string };
  };
  const server = await made('/v2/servers', serverBody({ location_id: loc }));
  const vm = await made('/v2/vdc/vms', vmBody({ location_id: loc }));
  const gone = await made('/v2/servers', serverBody({ location_id: loc }));
  const del = await call(t.app, 'DELETE', `/v2/servers/${gone.id}`, { key: c.key });
  assert.ok(del.statusCode < 300, del.body);
  const deadline = Date.now() + 30_000;
  while ((await t.database.db.selectFrom('ip_addresses').select('vm_id').where('address', '=', '198.51.105.4').executeTakeFirst())?.vm_id !== null) {
    assert.ok(Date.now() < deadline, 'the deleted server\'s address was not released');
    await new Promise((r) => setTimeout(r, 50));
  }

  const res = await addresses();
  assert.equal(res.statusCode, 200, res.body);
  const body = json(res);
  assert.deepEqual(body.meta.pagination, { page: 1, per_page: 25, total: 3, total_pages: 1 });
  const [a, b, cooling] = body.data;
  assert.deepEqual(Object.keys(a).sort(), ['address', 'allocated_at', 'machine_id', 'released_at', 'resource', 'state', 'until']);
  assert.equal(a.address, '198.51.105.2');
  assert.equal(a.state, 'allocated');
  assert.deepEqual(a.resource, { type: 'server', id: server.id });
  assert.match(a.machine_id, /^vm-[0-9a-f]{16}$/);
  assert.match(a.allocated_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  assert.equal(a.until, null);
  assert.equal(b.address, '198.51.105.3');
  assert.deepEqual(b.resource, { type: 'vdc_vm', id: vm.id });
  assert.equal(cooling.address, '198.51.105.4');
  assert.equal(cooling.state, 'cooling');
  assert.equal(cooling.resource, null);
  assert.equal(cooling.machine_id, null);
  assert.equal(cooling.allocated_at, null);
  assert.equal(Date.parse(cooling.until) - Date.parse(cooling.released_at), 3_600_000);
  // The pool list agrees: two assigned.
  const listed = (json(await adminCall(t, 'GET', `/admin/v1/ip-pools?location_id=${loc}`)).data as { id: number; assigned: number }[]).find((p) => p.id === pool)!;
  assert.equal(listed.assigned, 2);

  const held = json(await addresses('?state=allocated&per_page=1&page=2'));
  assert.deepEqual(held.data.map((x: { address: string }) => x.address), ['198.51.105.3']);
  assert.equal(held.meta.pagination.total, 2);
  assert.deepEqual(json(await addresses('?state=cooling')).data.map((x: { address: string }) => x.address), ['198.51.105.4']);

  // Rested (as if an hour went by): free, to be handed out again before fresh addresses.
  await t.database.db.updateTable('ip_addresses').set({ released_at: new Date(Date.now() - 3_601_000) }).where('address', '=', '198.51.105.4').execute();
  const rested = json(await addresses('?state=free')).data;
  assert.equal(rested.length, 1);
  assert.equal(rested[0].state, 'free');
  assert.equal(rested[0].until, null);
  assert.equal(json(await addresses('?state=cooling')).data.length, 0);

  // The CLI: a table naming who holds each address, and the API's answer with --json.
  const table = await cli(['ip-pools', 'addresses', String(pool)]);
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /^ADDRESS\s+STATE\s+HELD BY\s+MACHINE_ID\s+ALLOCATED_AT\s+RELEASED_AT\s+UNTIL/);
  assert.match(table.stdout, new RegExp(`198\\.51\\.105\\.2\\s+allocated\\s+${server.id}`));
  assert.match(table.stdout, new RegExp(`198\\.51\\.105\\.3\\s+allocated\\s+${vm.id}`));
  assert.match(table.stdout, /198\.51\.105\.4\s+free\s+-/);
  assert.match(table.stdout, /page 1 of 1 \(3 addresses\)/);
  const onlyHeld = await cli(['ip-pools', 'addresses', String(pool), '--state', 'allocated', '--json']);
  assert.equal(onlyHeld.code, 0, onlyHeld.stderr);
  assert.equal(JSON.parse(onlyHeld.stdout).data.length, 2);
  const none = await cli(['ip-pools', 'addresses', '9999']);
  assert.notEqual(none.code, 0);
  assert.match(none.stderr, /404 RESOURCE_NOT_FOUND/);
  const usage = await cli(['ip-pools', 'addresses']);
  assert.notEqual(usage.code, 0);
  assert.match(usage.stderr, /POOL_ID is missing/);
});

test('GET /ip-pools/{id}/addresses: an unknown pool is 404 in the admin envelope; a bad id, state or parameter 422; no token 401', async () => {
  const none = await adminCall(t, 'GET', '/admin/v1/ip-pools/9999/addresses');
  assert.equal(none.statusCode, 404, none.body);
  const err = json(none).error;
  assert.equal(err.code, 'RESOURCE_NOT_FOUND');
  assert.match(err.message, /IP pool not found/);
  assert.deepEqual(err.errors, []);
  assert.match(err.request_id, /^req_/);
  assert.equal(err.request_id, none.headers['x-request-id']);
  for (const bad of ['/admin/v1/ip-pools/x/addresses', '/admin/v1/ip-pools/1/addresses?state=leased', '/admin/v1/ip-pools/1/addresses?colour=red', '/admin/v1/ip-pools/1/addresses?per_page=0']) {
    const res = await adminCall(t, 'GET', bad);
    assert.equal(res.statusCode, 422, `${bad}: ${res.body}`);
    assert.equal(json(res).error.code, 'VALIDATION_FAILED');
  }
  const anonymous = await t.app.inject({ method: 'GET', url: '/admin/v1/ip-pools/1/addresses', remoteAddress: '127.0.0.1' });
  assert.equal(anonymous.statusCode, 401, anonymous.body);
});
