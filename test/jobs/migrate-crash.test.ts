// A worker SIGKILLed mid-migration: its lease lapses, another worker runs the operation again, and
// since every platform call carries the operation's token the machine is moved once and exists
// once, on the target node.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { call, createCustomer, json, startApp } from '../helpers/app.ts';
import { serverBody } from '../helpers/servers.ts';
import { killWorkers, startWorker, until } from '../helpers/worker-process.ts';

after(killWorkers);

test('SIGKILL a worker mid-migration: another finishes it, the machine is moved once and exists once', { timeout: 360_000 }, async () => {
  const t = await startApp({ jobTimeoutS: 900 });
  const db = t.database.db;
  const c = await createCustomer(t, { deposit: '10.00' });
  const created = json(await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody({ name: 'move.example.com' }) })).data;
  const opRow = (id: string) => db.selectFrom('operations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const finished = async (id: string) => { const op = await opRow(id); return op.status === 'completed' || op.status === 'failed' ? op : undefined; };

  const provisioner = startWorker(t.databaseUrl, 0);
  assert.equal((await until('provisioning', 120_000, () => finished(created.operation.id))).status, 'completed');
  provisioner.child.kill('SIGKILL');
  await new Promise((r) => provisioner.child.once('exit', r));

  const before = await db.selectFrom('servers').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
  const res = await call(t.app, 'POST', `/v2/servers/${created.id}/actions/migrate`, { key: c.key, body: { mode: 'live' } });
  assert.equal(res.statusCode, 202, res.body);
  const operation = json(res).data.operation;

  // A slow worker: each platform step takes 3 s; killed once the move is under way.
  const first = startWorker(t.databaseUrl, 3000);
  await until('the first worker to start moving', 120_000, async () => {
    const op = await opRow(operation.id);
    return op.status === 'running' && op.progress_pct > 20 ? op : undefined;
  });
  first.child.kill('SIGKILL');
  await new Promise((r) => first.child.once('exit', r));
  const killedAt = Date.now();
  assert.equal((await opRow(operation.id)).status, 'running', 'the killed worker left it unfinished');
  assert.equal((await db.selectFrom('servers').select('power_state').where('id', '=', created.id).executeTakeFirstOrThrow()).power_state, 'migrating');

  const second = startWorker(t.databaseUrl, 0);
  const done = await until('another worker to finish it', 120_000, () => finished(operation.id))
    .catch((e) => { throw new Error(`${e.message}\n--- second worker ---\n${second.output()}`); });
  const recoverySeconds = (Date.now() - killedAt) / 1000;
  assert.equal(done.status, 'completed', done.detail);
  assert.ok(done.attempts >= 2, `attempts ${done.attempts}`);

  const after = await db.selectFrom('servers').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
  const target = await db.selectFrom('nodes').selectAll().where('id', '=', after.node_id!).executeTakeFirstOrThrow();
  assert.notEqual(after.node_id, before.node_id);
  assert.equal(after.migration_node_id, null);
  assert.equal(after.power_state, 'running');
  const machines = await db.selectFrom('sim_vms').selectAll().where('hostname', '=', 'move.example.com').execute();
  assert.equal(machines.length, 1, 'the machine exists once');
  assert.equal(machines[0]!.node, target.name);
  const moves = await db.selectFrom('sim_requests').select('token').where('token', '=', `migrate:${operation.id}`).execute();
  assert.equal(moves.length, 1, 'moved once');
  // Both nodes' counters agree with what is placed on them.
  for (const id of [before.node_id!, after.node_id!]) {
    const node = await db.selectFrom('nodes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const placed = await db.selectFrom('servers').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('ram_mb'), eb.val(0)).as('ram'))
      .where('node_id', '=', id).where('deleted_at', 'is', null).where('status', '<>', 'cancelled').executeTakeFirstOrThrow();
    assert.equal(node.used_ram_mb, Number(placed.ram));
  }
  process.stdout.write(`# migration crash recovery: operation ${operation.id} finished ${recoverySeconds.toFixed(1)} s after SIGKILL, attempts ${done.attempts}\n`);
});
