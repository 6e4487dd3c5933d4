// The worker's maintenance job: queued once an hour (whatever the number of workers), it removes
// idempotency records past their 24 h.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import PgBoss from 'pg-boss';
import { JOB_SCHEMA } from '../../src/db/names.ts';
import { MAINTENANCE_QUEUE, executorOf } from '../../src/jobs/queue.ts';
import { call, createCustomer, startApp } from '../helpers/app.ts';
import { serverBody } from '../helpers/servers.ts';

test('the maintenance job is planned once per hour and deletes expired idempotency records, keeping live ones', async () => {
  const t = await startApp({ worker: 'embedded' });
  const c = await createCustomer(t, { deposit: '20.00' });
  const [old, fresh] = [randomUUID(), randomUUID()];
  for (const key of [old, fresh]) {
    const res = await call(t.app, 'POST', '/v2/servers', { key: c.key, body: serverBody(), headers: { 'idempotency-key': key } });
    assert.equal(res.statusCode, 201);
  }
  await t.database.db.updateTable('idempotency_keys').set({ expires_at: new Date(Date.now() - 1000) }).where('key', '=', old).execute();

  // A second worker plans the same hour's job: still one (a throttled send is unique per hour).
  await t.sibling();
  const planned = await t.database.db.selectFrom(`${JOB_SCHEMA}.job` as never).select(['singleton_key', 'singleton_on'] as never)
    .where('name' as never, '=', MAINTENANCE_QUEUE as never).execute() as { singleton_key: string; singleton_on: Date }[];
  assert.equal(planned.length, 1, 'one maintenance job per hour');
  assert.equal(planned[0]!.singleton_key, 'idempotency-cleanup');

  // Run it now rather than at the next hour.
  const boss = new PgBoss({ db: executorOf(t.database.db), schema: JOB_SCHEMA, supervise: false, schedule: false, migrate: false });
  await boss.send(MAINTENANCE_QUEUE, {});
  const deadline = Date.now() + 20_000;
  for (;;) {
    const left = await t.database.db.selectFrom('idempotency_keys').select('key').where('account_id', '=', c.accountId).execute();
    if (!left.some((r) => r.key === old)) {
      assert.deepEqual(left.map((r) => r.key), [fresh]);
      break;
    }
    assert.ok(Date.now() < deadline, 'the maintenance job ran');
    await new Promise((r) => setTimeout(r, 100));
  }
});
