// A transfer in that the losing registrar leaves pending for longer than a job may run (here a
// 3 s JOB_TIMEOUT_S, one retry: registries take up to five days) neither fails nor is refunded: the
// runner gives its job back between checks (OperationWaiting) and completes once it is approved.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { sql } from 'kysely';
import { call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { freshName } from '../helpers/domains.ts';
import { startRegistryFixture } from '../helpers/epp.ts';
import { until } from '../helpers/worker-process.ts';

const fx = await startRegistryFixture();
after(() => fx.close());

test('a transfer pending longer than JOB_TIMEOUT_S completes when the losing registrar approves', {
  timeout: 120_000,
}, async () => {
  const t = await startApp({
    worker: 'embedded', registrarDriver: 'epp', eppHost: '127.0.0.1', eppPort: fx.registry.port, eppClientId: 'hostcloud', eppPassword: 'test-password',
    eppClientCert: fx.files.cert, eppClientKey: fx.files.key, eppCa: fx.files.ca, eppSessions: 1, eppPollS: 1, jobRetryLimit: 1, jobTimeoutS: 3,
  });
  const c = await createCustomer(t, { deposit: '100.00' });
  const name = freshName('com', 'epp-long');
  fx.registry.state.seedDomain(name, 'otherreg', { authInfo: 'Long-Wait#1' });
  const res = await call(t.app, 'POST', '/v2/domains/transfer', { key: c.key, body: { domain: name, auth_code: 'Long-Wait#1' } });
  assert.equal(res.statusCode, 201, res.body);
  const { operation } = json(res).data;
  await until('the transfer to be requested', 10_000, async () => (fx.registry.state.transfers.get(name)?.status === 'pending' ? true : undefined));
  // Pending well past two job timeouts (the first run and its one retry), which once failed the operation.
  const since = Date.now();
  await until('the job timeouts to pass', 40_000, async () => {
    const op = await t.database.db.selectFrom('operations').select('status').where('id', '=', operation.id).executeTakeFirstOrThrow();
    return op.status === 'failed' || Date.now() - since > 20_000 ? true : undefined;
  });
  // Still running, its job given back between checks: no retry spent, no second job, nothing refunded.
  const waiting = await t.database.db.selectFrom('operations').select(['status', 'attempts', 'lease_until']).where('id', '=', operation.id).executeTakeFirstOrThrow();
  assert.equal(waiting.status, 'running');
  assert.ok(waiting.attempts <= 1, `attempts ${waiting.attempts}`);
  const jobs = await sql<{ retry_count: number }>`SELECT retry_count FROM pgboss.job WHERE data->>'operation_id' = ${operation.id}`.execute(t.database.db);
  assert.deepEqual(jobs.rows.map((j) => j.retry_count), [0]);
  const refunds = await t.database.db.selectFrom('transactions').select('id').where('account_id', '=', c.accountId).where('type', '=', 'refund').execute();
  assert.equal(refunds.length, 0);
  fx.registry.approveTransfer(name);
  const op = await waitForOperation(t, c.key, operation.id, 60_000);
  assert.equal(op.status, 'completed', op.detail);
  const domain = await t.database.db.selectFrom('domains').select('status').where('name', '=', name).executeTakeFirstOrThrow();
  assert.equal(domain.status, 'active');
});
