// A rolling deploy's misconfigured worker against real LXD: a worker started with
// COMPUTE_DRIVER=simulated is handed the create of a server placed on an LXD node. It must not
// "create" it on the simulated platform (a charged, active server with no instance): it gives the
// job back, again and again, without spending a retry; once an LXD worker runs, the create is
// done on LXD, once. The guard without LXD: test/jobs/wrong-platform.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import { JOB_SCHEMA } from '../../src/db/names.ts';
import type { LxdInstance } from '../../src/providers/compute/lxd/api-types.ts';
import { isNotFound } from '../../src/providers/compute/lxd/client.ts';
import { startWorker } from '../../src/jobs/worker.ts';
import { renderV2Event } from '../../src/http/v2/events/presenters.ts';
import { computeFor, hostingFor, registrarFor } from '../../src/runtime.ts';
import { call, createCustomer, json, waitForOperation } from '../helpers/app.ts';
import { lxd, lxdClient, lxdSkip } from '../helpers/lxd.ts';
import { startLxdApp } from '../helpers/lxd-app.ts';
import { createServer } from '../helpers/servers.ts';

describe('a simulated worker and a server on an LXD node', { skip: lxdSkip, timeout: 300_000 }, () => {
  test('the create waits, uncharged twice and unmade, until an LXD worker does it on LXD once', async () => {
    // The API on LXD with no worker of its own, and beside it an app whose embedded worker runs the simulated driver.
    const env = await startLxdApp({ config: { worker: 'off', jobRetryLimit: 1 } });
    const { t } = env;
    const db = t.database.db;
    await t.sibling({ computeDriver: 'simulated', worker: 'embedded' });
    const c = await createCustomer(t, { deposit: '50.00' });
    const node = (await db.selectFrom('nodes').select('name').where('id', '=', env.nodes.first).executeTakeFirstOrThrow()).name;

    const created = await createServer(t, c, { location_id: env.locationId });
    const opId = created.operation.id as string;
    const refusals = () => t.logs.filter((l) => l.includes(`"operation_id":"${opId}"`) && l.includes('COMPUTE_DRIVER=simulated and cannot act on it'));
    // Three refusals: with one retry per job, a refusal that spent it would have failed (and refunded) the create by the second.
    for (const deadline = Date.now() + 60_000; refusals().length < 3;) {
      assert.ok(Date.now() < deadline, 'the simulated worker refuses the create');
      await new Promise((r) => setTimeout(r, 50));
    }
    const line = JSON.parse(refusals()[0]!) as Record<string, unknown>;
    assert.equal(line.level, 50);
    assert.equal(line.node, node);
    assert.equal(line.compute_driver, 'simulated');

    const op = json(await call(t.app, 'GET', `/v2/operations/${opId}`, { key: c.key })).data;
    assert.equal(op.status, 'queued', op.detail);
    const server = await db.selectFrom('servers').select(['status', 'provider_ref']).where('id', '=', created.id).executeTakeFirstOrThrow();
    assert.deepEqual(server, { status: 'pending', provider_ref: null });
    const machines = () => db.selectFrom('sim_vms').select(['id', 'power']).where('request_token', '=', opId).execute();
    const reserved = await machines();
    assert.equal(reserved.length, 1, 'the create\'s reserved record only');
    assert.equal(reserved[0]!.power, 'provisioning', 'never "booted" by the simulated platform');
    const job = await sql<{ retry_count: number }>`SELECT retry_count FROM ${sql.table(`${JOB_SCHEMA}.job`)}
      WHERE name = 'operations' AND data->>'operation_id' = ${opId}`.execute(db);
    assert.deepEqual(job.rows, [{ retry_count: 0 }], 'one job, no retry spent');
    const withdrawals = async () => Number((await db.selectFrom('transactions').select((eb) => eb.fn.countAll<string>().as('n'))
      .where('account_id', '=', c.accountId).where('type', '=', 'withdraw').executeTakeFirstOrThrow()).n);
    assert.equal(await withdrawals(), 1);
    const first = lxdClient(lxd!.first);
    try {
      await assert.rejects(first.get<LxdInstance>(`/1.0/instances/${reserved[0]!.id}`), isNotFound, 'no instance yet');

      // The deploy reaches a correctly configured worker; the simulated one still runs beside it.
      const worker = await startWorker({
        db, compute: computeFor(t.config, db, t.telemetry), hosting: hostingFor(t.config, db, t.telemetry), registrar: registrarFor(t.config, db, t.telemetry),
        config: t.config, logger: t.telemetry.logger, renderEvent: renderV2Event,
      });
      try {
        const done = await waitForOperation(t, c.key, opId, 120_000);
        assert.equal(done.status, 'completed', done.detail);
      } finally {
        await worker.stop();
      }
      const after = await db.selectFrom('servers').select(['status', 'provider_ref']).where('id', '=', created.id).executeTakeFirstOrThrow();
      assert.deepEqual(after, { status: 'active', provider_ref: reserved[0]!.id });
      const inst = await first.get<LxdInstance>(`/1.0/instances/${reserved[0]!.id}`);
      assert.equal(inst.status, 'Running');
      assert.equal(inst.config['user.hostcloud.token'], opId);
      assert.deepEqual((await machines()).map((m) => m.power), ['running']);
      assert.equal((await db.selectFrom('operations').select('attempts').where('id', '=', opId).executeTakeFirstOrThrow()).attempts, 1, 'done in one attempt');
      assert.equal(await withdrawals(), 1, 'charged once');
      const names = await first.get<string[]>('/1.0/instances');
      assert.equal(names.length, 1, `one instance in the project: ${names.join(', ')}`);
    } finally {
      first.close();
    }
  });
});
