// The work the worker does, as logs and metrics: one line per operation outcome (completed, retried,
// failed with its reason, compensated with the refund), one per billing action, and the counters
// of operations, retries, compensations, billing and provider calls move with them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCustomer, startApp, waitForOperation } from '../helpers/app.ts';
import { setFault } from '../helpers/server-extras.ts';
import { createServer } from '../helpers/servers.ts';
import { eventually, logLines, metric } from './helpers.ts';

const t = await startApp({ worker: 'embedded', jobRetryLimit: 2 });
const c = await createCustomer(t, { deposit: '100.00' });

test('a completed create: billing charge line, operation completed line, and their counters', async () => {
  const [ops0, charges0, cents0, creates0, dur0] = await Promise.all([
    metric(t, 'hostcloud_operations_total', { type: 'server.create', outcome: 'completed' }),
    metric(t, 'hostcloud_billing_transactions_total', { type: 'withdraw' }),
    metric(t, 'hostcloud_billing_amount_cents_total', { type: 'withdraw' }),
    metric(t, 'hostcloud_provider_calls_total', { provider: 'compute', method: 'create' }),
    metric(t, 'hostcloud_operation_duration_seconds', { type: 'server.create', outcome: 'completed' }),
  ]);
  const server = await createServer(t, c);
  const op = await waitForOperation(t, c.key, server.operation.id);
  assert.equal(op.status, 'completed');
  await eventually(() => logLines(t, 'operation completed').some((l) => l.operation_id === server.operation.id), 'the completed line');

  const charge = logLines(t, 'billing charge').find((l) => l.resource === `server/${server.id}`);
  assert.ok(charge, 'a billing charge line names the server');
  assert.equal(charge.account_id, c.accountId);
  assert.equal(charge.amount, '5.00');
  assert.equal(charge.currency, 'USD');
  assert.equal(charge.transaction_type, 'withdraw');
  assert.equal(charge.balance_after, '95.00');
  assert.equal(typeof charge.transaction_id, 'number');

  const done = logLines(t, 'operation completed').find((l) => l.operation_id === server.operation.id)!;
  assert.equal(done.operation_type, 'server.create');
  assert.equal(done.account_id, c.accountId);
  assert.equal(done.resource, `server/${server.id}`);
  assert.equal(done.attempts, 1);
  assert.ok(done.duration_s >= 0);
  assert.equal(done.level, 30);

  assert.equal(await metric(t, 'hostcloud_operations_total', { type: 'server.create', outcome: 'completed' }), ops0 + 1);
  assert.equal(await metric(t, 'hostcloud_operation_duration_seconds', { type: 'server.create', outcome: 'completed' }), dur0 + 1);
  assert.equal(await metric(t, 'hostcloud_billing_transactions_total', { type: 'withdraw' }), charges0 + 1);
  assert.equal(await metric(t, 'hostcloud_billing_amount_cents_total', { type: 'withdraw' }), cents0 + 500);
  assert.ok(await metric(t, 'hostcloud_provider_calls_total', { provider: 'compute', method: 'create' }) >= creates0 + 1);
  // The deposit that funded the account was reported too.
  assert.ok(logLines(t, 'billing deposit').some((l) => l.account_id === c.accountId && l.amount === '100.00' && l.resource === null));
});

test('a retried attempt: one line and the retry counter; a provider failure counted by code', async () => {
  const retries0 = await metric(t, 'hostcloud_operation_retries_total', { type: 'server.create' });
  const fails0 = await metric(t, 'hostcloud_provider_failures_total', { provider: 'compute', method: 'create', code: 'UPSTREAM_ERROR' });
  await setFault(t, { mode: 'upstream_error', calls: ['create'], remaining: 1 });
  const server = await createServer(t, c);
  const op = await waitForOperation(t, c.key, server.operation.id, 60_000);
  assert.equal(op.status, 'completed', op.detail);
  const retried = logLines(t, 'operation attempt failed; retrying').filter((l) => l.operation_id === server.operation.id);
  assert.equal(retried.length, 1, 'one line per retried attempt');
  assert.equal(retried[0]!.attempt, 1);
  assert.equal(retried[0]!.operation_type, 'server.create');
  assert.equal(retried[0]!.error, 'Simulated upstream error (create)');
  assert.equal(retried[0]!.level, 40);
  assert.equal(await metric(t, 'hostcloud_operation_retries_total', { type: 'server.create' }), retries0 + 1);
  assert.equal(await metric(t, 'hostcloud_provider_failures_total', { provider: 'compute', method: 'create', code: 'UPSTREAM_ERROR' }), fails0 + 1);
  await eventually(() => logLines(t, 'operation completed').some((l) => l.operation_id === server.operation.id && l.attempts === 2), 'completed on attempt 2');
});

test('a failed create: failed line with its reason, compensated line with the refund, refund billing line', async () => {
  const failed0 = await metric(t, 'hostcloud_operations_total', { type: 'server.create', outcome: 'failed' });
  const comp0 = await metric(t, 'hostcloud_operation_compensations_total', { type: 'server.create' });
  const refunds0 = await metric(t, 'hostcloud_billing_transactions_total', { type: 'refund' });
  await setFault(t, { mode: 'capacity_unavailable', calls: ['create'], remaining: 1 });
  const server = await createServer(t, c);
  const op = await waitForOperation(t, c.key, server.operation.id);
  assert.equal(op.status, 'failed');
  await eventually(() => logLines(t, 'operation compensated').some((l) => l.operation_id === server.operation.id), 'the compensated line');

  const failed = logLines(t, 'operation failed').filter((l) => l.operation_id === server.operation.id);
  assert.equal(failed.length, 1);
  assert.equal(failed[0]!.reason, op.detail);
  assert.match(failed[0]!.reason, /^No capacity/);
  assert.equal(failed[0]!.level, 40);
  const comp = logLines(t, 'operation compensated').filter((l) => l.operation_id === server.operation.id);
  assert.equal(comp.length, 1);
  assert.equal(comp[0]!.refund, '5.00');
  assert.equal(comp[0]!.account_id, c.accountId);
  const refund = logLines(t, 'billing refund').filter((l) => l.resource === `server/${server.id}`);
  assert.equal(refund.length, 1);
  assert.equal(refund[0]!.amount, '5.00');
  assert.equal(await metric(t, 'hostcloud_operations_total', { type: 'server.create', outcome: 'failed' }), failed0 + 1);
  assert.equal(await metric(t, 'hostcloud_operation_compensations_total', { type: 'server.create' }), comp0 + 1);
  assert.equal(await metric(t, 'hostcloud_billing_transactions_total', { type: 'refund' }), refunds0 + 1);
});

test('a sandbox create is neither logged as a charge nor counted (it is rolled back)', async () => {
  const sandbox = await createCustomer(t, { deposit: '20.00', isTest: true });
  const charges0 = await metric(t, 'hostcloud_billing_transactions_total', { type: 'withdraw' });
  const server = await createServer(t, sandbox);
  assert.equal(logLines(t, 'billing charge').some((l) => l.resource === `server/${server.id}`), false);
  assert.equal(await metric(t, 'hostcloud_billing_transactions_total', { type: 'withdraw' }), charges0);
});
