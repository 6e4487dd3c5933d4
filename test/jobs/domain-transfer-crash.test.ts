// A worker killed with SIGKILL while a transfer waits for the losing registrar loses nothing: its
// lease on the operation lapses, another worker runs it again, and because the operation id is the
// registrar's request token the registry holds one transfer, completed once.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { call, createCustomer, json, startApp } from '../helpers/app.ts';
import { balanceOf, freshName, seedElsewhere } from '../helpers/domains.ts';
import { killWorkers, startWorker, until } from '../helpers/worker-process.ts';

after(killWorkers);

test('SIGKILL a worker while a transfer waits for approval: another worker completes it; the registry holds one transfer', { timeout: 120_000 }, async () => {
  const t = await startApp({ jobTimeoutS: 900 });
  const c = await createCustomer(t, { deposit: '50.00' });
  const name = freshName('org');
  await seedElsewhere(t, name, 'Crash-Code-1', { expires_at: '2030-01-01T00:00:00Z' });
  const res = await call(t.app, 'POST', '/v2/domains/transfer', { key: c.key, body: { domain: name, auth_code: 'Crash-Code-1' } });
  assert.equal(res.statusCode, 201, res.body);
  const { id, operation } = json(res).data;
  const db = t.database.db;
  const opRow = () => db.selectFrom('operations').selectAll().where('id', '=', operation.id).executeTakeFirstOrThrow();
  const transfers = () => db.selectFrom('sim_registry_transfers').selectAll().where('name', '=', name).execute();

  // A slow first worker: each registrar call takes 1.5 s, and the losing registrar approves 3 steps after the request.
  const first = startWorker(t.databaseUrl, 1500);
  await until('the first worker to request the transfer', 45_000, async () => ((await transfers()).length === 1 ? true : undefined));
  first.child.kill('SIGKILL');
  await new Promise((r) => first.child.once('exit', r));
  const killedAt = Date.now();
  assert.equal((await opRow()).status, 'running', 'the killed worker left it unfinished');
  assert.equal((await transfers())[0]!.state, 'pending', 'killed while waiting for the approval');

  const second = startWorker(t.databaseUrl, 0);
  const done = await until('another worker to finish it', 60_000, async () => {
    const op = await opRow();
    return op.status === 'completed' || op.status === 'failed' ? op : undefined;
  }).catch((e) => { throw new Error(`${e.message}\n--- second worker ---\n${second.output()}`); });
  const recoverySeconds = (Date.now() - killedAt) / 1000;
  assert.equal(done.status, 'completed', done.detail);
  assert.ok(done.attempts >= 2, `attempts ${done.attempts}`);

  const held = await transfers();
  assert.equal(held.length, 1, 'the same request token: one transfer at the registry');
  assert.equal(held[0]!.token, operation.id);
  assert.equal(held[0]!.state, 'completed');
  const registry = await db.selectFrom('sim_registry_domains').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
  assert.equal(registry.sponsor, 'us');
  assert.equal(registry.expires_at.toISOString(), '2031-01-01T00:00:00.000Z', 'one year added, once');
  const domain = json(await call(t.app, 'GET', `/v2/domains/${id}`, { key: c.key })).data;
  assert.equal(domain.status, 'active');
  assert.equal(domain.expires_at, '2031-01-01T00:00:00Z');
  assert.equal(await balanceOf(t, c), '39.01', 'charged once: 50.00 − 10.99');
  process.stdout.write(`# transfer crash recovery: operation ${operation.id} finished ${recoverySeconds.toFixed(1)} s after SIGKILL, attempts ${done.attempts}, 1 registry transfer\n`);
});
