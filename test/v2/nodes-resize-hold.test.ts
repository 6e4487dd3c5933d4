// A server resize holds its growth on its node from the moment it is accepted (migration 0015), so
// a create accepted while it runs cannot take that room and leave the node over its total once the
// resize completes; a failed resize gives the growth back, a completed shrink gives room back.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import type { Kysely } from 'kysely';
import * as m0015 from '../../src/db/migrations/0015_server_node_holds.ts';
import * as m0017 from '../../src/db/migrations/0017_node_holds_when_changed.ts';
import { type Customer, type TestApp, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { addNode, newLocation, nodeRow } from '../helpers/nodes.ts';
import { action, assertError, assertLedger, balanceCents, clearFault, serverRow, setFault } from '../helpers/server-actions.ts';
import { activeServer, serverBody } from '../helpers/servers.ts';

let t: TestApp;
let c: Customer;

before(async () => {
  // One retry only, so that a persistent platform fault fails the resize within seconds.
  t = await startApp({ worker: 'embedded', jobRetryLimit: 1 });
  c = await createCustomer(t, { deposit: '300.00' });
});

/** A node with room for one Cloud S server (1 vCPU, 1 GB, 25 GB) and exactly 1 GB of RAM more. */
async function nodeForOneGrowth(code: string, octet: number) {
  const loc = await newLocation(t, code, octet);
  const node = await addNode(t, { location_id: loc, name: `${code}-kvm1`, cpu_vendor: 'intel', cpu_cores: 4, ram_mb: 2048, storage_gb: 200 });
  const server = await activeServer(t, c, { location_id: loc });
  return { loc, node, server };
}

const usage = async (id: number) => {
  const n = await nodeRow(t, id);
  assert.ok(n.used_cpu <= n.cpu_cores && n.used_ram_mb <= n.ram_mb && n.used_storage_gb <= n.storage_gb, `${n.name} over its total: ${JSON.stringify(n)}`);
  return [n.used_cpu, n.used_ram_mb, n.used_storage_gb];
};

const create = (loc: number) => call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ location_id: loc }) });

test('a resize accepted holds its growth: a create racing it is 422 CAPACITY_UNAVAILABLE, the node never over its total', async () => {
  const { loc, node, server } = await nodeForOneGrowth('hold1', 70);
  assert.deepEqual(await usage(node.id), [1, 1024, 25]);
  const resize = await action(t, c.key, server.id, 'resize', { ram_gb: 2 });
  assert.equal(resize.statusCode, 202, resize.body);
  // Held at once, in the acceptance's transaction, whether or not the platform has finished.
  assert.deepEqual(await usage(node.id), [1, 2048, 25]);
  const before = await balanceCents(t, c.accountId);
  const racing = await Promise.all([create(loc), create(loc)]);
  for (const r of racing) assertError(r, 422, 'CAPACITY_UNAVAILABLE');
  assert.equal(await balanceCents(t, c.accountId), before, 'nothing charged for the refused creates');
  assert.equal((await waitForOperation(t, c.key, json(resize).data.operation.id)).status, 'completed');
  // Completed: the new size is counted and the hold released, in one statement; nothing moved.
  const row = await serverRow(t, server.id);
  assert.deepEqual([row.ram_mb, row.resize_hold_cpu, row.resize_hold_ram_mb, row.resize_hold_storage_gb], [2048, 0, 0, 0]);
  assert.deepEqual(await usage(node.id), [1, 2048, 25]);
  assertError(await create(loc), 422, 'CAPACITY_UNAVAILABLE');
  // A shrink gives the room back once it has completed.
  const shrink = await action(t, c.key, server.id, 'resize', { ram_gb: 1 });
  assert.equal(shrink.statusCode, 202, shrink.body);
  assert.equal((await waitForOperation(t, c.key, json(shrink).data.operation.id)).status, 'completed');
  assert.deepEqual(await usage(node.id), [1, 1024, 25]);
  assert.equal((await create(loc)).statusCode, 201);
  assert.deepEqual(await usage(node.id), [2, 2048, 50]);
  await assertLedger(t, c.accountId);
});

test('a resize and a create in parallel for the last room: exactly one is accepted', async () => {
  const { loc, node, server } = await nodeForOneGrowth('hold2', 71);
  const [resize, created] = await Promise.all([action(t, c.key, server.id, 'resize', { ram_gb: 2 }), create(loc)]);
  // Either may win the node's row lock; the loser must be refused. An accepted resize is 202, an
  // accepted create 201.
  const resizeWon = resize.statusCode === 202;
  assert.deepEqual([resize.statusCode, created.statusCode], resizeWon ? [202, 422] : [422, 201], `${resize.body} ${created.body}`);
  assertError(resizeWon ? created : resize, 422, 'CAPACITY_UNAVAILABLE');
  assert.deepEqual(await usage(node.id), [resizeWon ? 1 : 2, 2048, resizeWon ? 25 : 50]);
  const op = json(resizeWon ? resize : created).data.operation.id;
  assert.equal((await waitForOperation(t, c.key, op)).status, 'completed');
  assert.deepEqual((await usage(node.id))[1], 2048);
});

test('a failed resize (platform fault) gives the growth back: node usage returns to before, the room is free again', async () => {
  const { loc, node, server } = await nodeForOneGrowth('hold3', 72);
  const beforeUsage = await usage(node.id);
  const beforeBalance = await balanceCents(t, c.accountId);
  await setFault(t, { mode: 'upstream_error', calls: ['resize'] });
  try {
    const resize = await action(t, c.key, server.id, 'resize', { ram_gb: 2 });
    assert.equal(resize.statusCode, 202, resize.body);
    // The resize cannot complete (the platform keeps failing), yet its growth is held meanwhile.
    assert.deepEqual(await usage(node.id), [1, 2048, 25]);
    assertError(await create(loc), 422, 'CAPACITY_UNAVAILABLE');
    const op = await waitForOperation(t, c.key, json(resize).data.operation.id);
    assert.equal(op.status, 'failed');
  } finally {
    await clearFault(t);
  }
  assert.deepEqual(await usage(node.id), beforeUsage);
  const row = await serverRow(t, server.id);
  assert.deepEqual([row.ram_mb, row.resize_hold_cpu, row.resize_hold_ram_mb, row.resize_hold_storage_gb], [1024, 0, 0, 0]);
  assert.equal(await balanceCents(t, c.accountId), beforeBalance, 'the resize charge was refunded');
  const again = await create(loc);
  assert.equal(again.statusCode, 201, again.body);
  assert.deepEqual(await usage(node.id), [2, 2048, 50]);
  await assertLedger(t, c.accountId);
});

test('existing servers keep their usage across 0015 (down and up again on a populated database) and resize as before', async () => {
  const { node, server } = await nodeForOneGrowth('hold4', 73);
  const all = () => t.database.db.selectFrom('nodes').select(['id', 'used_cpu', 'used_ram_mb', 'used_storage_gb']).orderBy('id').execute();
  const before = await all();
  // Down in reverse order: 0017's trigger reads the hold columns that 0015's down drops.
  await m0017.down(t.database.db as unknown as Kysely<unknown>);
  await m0015.down(t.database.db as unknown as Kysely<unknown>);
  assert.deepEqual(await all(), before, 'usage unchanged without the hold columns');
  await m0015.up(t.database.db as unknown as Kysely<unknown>);
  await m0017.up(t.database.db as unknown as Kysely<unknown>);
  assert.deepEqual(await all(), before, 'the columns start at 0: usage unchanged');
  const resize = await action(t, c.key, server.id, 'resize', { ram_gb: 2 });
  assert.equal(resize.statusCode, 202, resize.body);
  assert.deepEqual(await usage(node.id), [1, 2048, 25]);
  assert.equal((await waitForOperation(t, c.key, json(resize).data.operation.id)).status, 'completed');
  assert.deepEqual(await usage(node.id), [1, 2048, 25]);
});

test('an update that changes nothing a server holds leaves its node row alone (0017); one that does still moves it', async () => {
  const { node, server } = await nodeForOneGrowth('hold5', 74);
  const stamp = async () => (await t.database.db.selectFrom('nodes').select(['updated_at', 'used_ram_mb']).where('id', '=', node.id).executeTakeFirstOrThrow());
  const before = await stamp();
  // Holding either way (active → suspended → active), same node and size: the node row is not written.
  for (const status of ['suspended', 'active'] as const) {
    await t.database.db.updateTable('servers').set({ status }).where('id', '=', server.id).execute();
    assert.deepEqual(await stamp(), before, `status ${status}: node untouched`);
  }
  // Stops holding: the node's usage falls.
  await t.database.db.updateTable('servers').set({ status: 'cancelled' }).where('id', '=', server.id).execute();
  const after = await stamp();
  assert.equal(after.used_ram_mb, before.used_ram_mb - 1024);
  assert.notDeepEqual(after.updated_at, before.updated_at);
  assert.deepEqual(await usage(node.id), [0, 0, 0]);
});
