// KNOWN DEFECT (todo): a transfer in waits for the losing registrar inside one worker job, so one
// pending longer than JOB_TIMEOUT_S × (JOB_RETRY_LIMIT + 1) fails and is refunded, though the
// registry still holds it pending (and may approve it later, when nothing listens). Real registries
// take up to five days. The fix: the runner gives its job back while the transfer is pending (as a
// job is given back for a worker that cannot serve its node, operation-give-back.ts), to be fetched
// again after the next check's wait, instead of holding a worker slot. This test is that fix's
// acceptance: it fails today (the operation fails ~8 s in), so it runs only with EPP_KNOWN_DEFECTS=1.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { freshName } from '../helpers/domains.ts';
import { startRegistryFixture } from '../helpers/epp.ts';
import { until } from '../helpers/worker-process.ts';

const fx = await startRegistryFixture();
after(() => fx.close());

test('a transfer pending longer than JOB_TIMEOUT_S completes when the losing registrar approves', {
  timeout: 120_000,
  skip: process.env.EPP_KNOWN_DEFECTS ? false : 'known defect: the transfer runner holds its job while pending, so it fails after JOB_TIMEOUT_S × (JOB_RETRY_LIMIT + 1) (EPP_KNOWN_DEFECTS=1 runs it)',
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
  // Pending well past two job timeouts (the first run and its one retry): today the operation fails meanwhile.
  const since = Date.now();
  await until('the job timeouts to pass', 40_000, async () => {
    const op = await t.database.db.selectFrom('operations').select('status').where('id', '=', operation.id).executeTakeFirstOrThrow();
    return op.status === 'failed' || Date.now() - since > 20_000 ? true : undefined;
  });
  fx.registry.approveTransfer(name);
  const op = await waitForOperation(t, c.key, operation.id, 60_000);
  assert.equal(op.status, 'completed', op.detail);
});
