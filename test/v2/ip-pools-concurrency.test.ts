// Addresses are the core's: a create takes its machine's addresses in its own write, so a location
// whose pool is short answers 422 CAPACITY_UNAVAILABLE before any charge — never a charge, a failed
// provisioning and a refund. 20 creates at once against room for 5: exactly 5 servers, 15 × 422
// with nothing charged, and no address handed out twice. Released addresses rest IP_COOLDOWN_S.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { assertLedgerExact, balanceCents } from '../helpers/server-extras.ts';
import { serverBody } from '../helpers/servers.ts';
import { setIpCooldown } from '../../src/db/queries/machine-reservation.ts';

let t: TestApp;

/** A location with a /29 (5 leasable IPv4 addresses beside the gateway), a /64 and one big node. */
async function smallLocation(code: string, octet: number): Promise<number> {
  const loc = await adminCall(t, 'POST', '/admin/v1/locations', { name: `Small ${code}`, code, country: 'DE', provider: 'primary' });
  assert.equal(loc.statusCode, 201, loc.body);
  const id = json(loc).data.id as number;
  for (const pool of [{ version: 4, cidr: `198.51.${octet}.0/29`, gateway: `198.51.${octet}.1` }, { version: 6, cidr: `2001:db8:${octet}::/64`, gateway: `2001:db8:${octet}::1` }]) {
    const p = await adminCall(t, 'POST', `/admin/v1/locations/${id}/ip-pools`, pool);
    assert.equal(p.statusCode, 201, p.body);
  }
  const node = await adminCall(t, 'POST', '/admin/v1/nodes', { location_id: id, name: `${code}-n1`, cpu_vendor: 'intel', cpu_cores: 512, ram_mb: 1_048_576, storage_gb: 100_000 });
  assert.equal(node.statusCode, 201, node.body);
  return id;
}

before(async () => {
  t = await startApp({ worker: 'embedded' });
});

test('20 parallel creates against room for 5 addresses: 5 servers, 15 × 422 uncharged, no address twice', async () => {
  const loc = await smallLocation('ipam-a', 101);
  const customers: Customer[] = [];
  for (let i = 0; i < 4; i++) customers.push(await createCustomer(t, { deposit: '100.00' }));
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) =>
    call(t.app, 'POST', '/v2/servers', { key: customers[i % 4]!.key, body: serverBody({ location_id: loc }) })));
  const created = answers.filter((a) => a.statusCode === 201);
  const refused = answers.filter((a) => a.statusCode === 422);
  assert.equal(created.length, 5, answers.map((a) => `${a.statusCode} ${a.body.slice(0, 120)}`).join('\n'));
  assert.equal(refused.length, 15);
  for (const r of refused) assert.equal(json(r).error.code, 'CAPACITY_UNAVAILABLE');
  // Every create that got its 201 completes: its addresses were taken with it.
  const addresses: string[] = [];
  for (const a of created) {
    const data = json(a).data;
    const key = customers[answers.indexOf(a) % 4]!.key;
    const op = await waitForOperation(t, key, data.operation.id, 60_000);
    assert.equal(op.status, 'completed', op.detail);
    const server = json(await call(t.app, 'GET', `/v2/servers/${data.id}`, { key })).data;
    addresses.push(server.network.ipv4.address);
  }
  assert.equal(new Set(addresses).size, 5, addresses.join(', '));
  for (const a of addresses) assert.match(a, /^198\.51\.101\.[2-6]$/);
  // Nothing charged for the refusals: each balance is 100.00 less its own servers' first cycles.
  const price = 500;
  for (const [i, c] of customers.entries()) {
    const mine = created.filter((a) => answers.indexOf(a) % 4 === i).length;
    assert.equal(await balanceCents(t, c), 10_000 - mine * price);
    await assertLedgerExact(t, c);
  }
  // A clone needs addresses too: the full pool refuses it before its charge.
  const first = created[0]!;
  const owner = customers[answers.indexOf(first) % 4]!;
  const before = await balanceCents(t, owner);
  const clone = await call(t.app, 'POST', `/v2/servers/${json(first).data.id}/actions/clone`, { key: owner.key });
  assert.equal(clone.statusCode, 422, clone.body);
  assert.equal(json(clone).error.code, 'CAPACITY_UNAVAILABLE');
  assert.equal(await balanceCents(t, owner), before);
});

test('a released address rests IP_COOLDOWN_S before it is handed out again', async () => {
  const loc = await smallLocation('ipam-b', 102);
  // As a process started with IP_COOLDOWN_S=3600 (the default) records it.
  await setIpCooldown(t.database.db, 3600);
  const c = await createCustomer(t, { deposit: '100.00' });
  const made: { id: string; ip: string }[] = [];
  for (let i = 0; i < 5; i++) {
    const res = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: loc }) });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal((await waitForOperation(t, c.key, json(res).data.operation.id)).status, 'completed');
    const s = json(await call(t.app, 'GET', `/v2/servers/${json(res).data.id}`, { key: c.key })).data;
    made.push({ id: s.id, ip: s.network.ipv4.address });
  }
  const del = await call(t.app, 'DELETE', `/v2/servers/${made[0]!.id}`, { key: c.key });
  assert.ok(del.statusCode < 300, del.body);
  await until(async () => (await t.database.db.selectFrom('sim_ip_leases').select('vm_id').where('address', '=', made[0]!.ip).executeTakeFirst())?.vm_id === null);
  // Released, but resting: the pool has nothing to give.
  const refused = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: loc }) });
  assert.equal(refused.statusCode, 422, refused.body);
  assert.equal(json(refused).error.code, 'CAPACITY_UNAVAILABLE');
  // Rested long enough (as if an hour went by): handed out again.
  await t.database.db.updateTable('sim_ip_leases').set({ released_at: new Date(Date.now() - 3_601_000) }).where('address', '=', made[0]!.ip).execute();
  const again = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: loc }) });
  assert.equal(again.statusCode, 201, again.body);
  assert.equal((await waitForOperation(t, c.key, json(again).data.operation.id)).status, 'completed');
  const s = json(await call(t.app, 'GET', `/v2/servers/${json(again).data.id}`, { key: c.key })).data;
  assert.equal(s.network.ipv4.address, made[0]!.ip);
});

async function until(probe: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}
