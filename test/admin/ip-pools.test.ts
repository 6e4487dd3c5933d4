// Address pools addressed by themselves: GET /admin/v1/ip-pools (every location, or ?location_id=)
// and POST /admin/v1/ip-pools {location_id, cidr, gateway} (version from the cidr), with size,
// assigned and free.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type TestApp, adminCall, json, startApp } from '../helpers/app.ts';

let t: TestApp;
before(async () => {
  t = await startApp();
});

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
