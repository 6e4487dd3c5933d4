// At least once across a dead worker: a `hostcloud worker` SIGKILLed while its delivery is in
// flight (the receiver holds the request) leaves the delivery claimed under a lease; once that
// lapses, a new worker sends it again — with the same webhook-id, so the receiver can dedupe.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { once } from 'node:events';
import { call, createCustomer, json, startApp } from '../helpers/app.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';
import { killWorkers, startWorker, until } from '../helpers/worker-process.ts';

after(killWorkers);

const ENV = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_S: '3', WEBHOOK_RETRY_SCHEDULE_S: '0.2' };

test('SIGKILL mid-delivery: delivered after the restart, same webhook-id, attempt 2', { timeout: 90_000 }, async () => {
  const t = await startApp({ webhookAllowHttp: true, webhookAllowPrivate: true });
  const r = await startReceiver();
  r.answer = (n) => (n === 0 ? 'hang' : 200);
  const c = await createCustomer(t);
  const w = json(await call(t.app, 'POST', '/v2/webhooks', { key: c.key, body: { url: `${r.url}/hook` } })).data;
  r.secrets.push(w.secret);

  const first = startWorker(t.databaseUrl, 0, ENV);
  const d = json(await call(t.app, 'POST', `/v2/webhooks/${w.id}/ping`, { key: c.key })).data;
  await r.until(1);
  first.child.kill('SIGKILL');
  await once(first.child, 'exit');
  const claimed = await t.database.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', d.id).executeTakeFirstOrThrow();
  assert.equal(claimed.status, 'pending');
  assert.equal(claimed.attempt, 1);

  const killedAt = Date.now();
  startWorker(t.databaseUrl, 0, ENV);
  const got = await r.until(2);
  assert.equal(got[1]!.id, got[0]!.id, 'the same webhook-id');
  assert.equal(got[1]!.id, d.event_id);
  assert.deepEqual(got[1]!.verifiedWith, [w.secret]);
  const done = await until('the delivery to be recorded', 15_000, async () => {
    const row = await t.database.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', d.id).executeTakeFirstOrThrow();
    return row.status === 'succeeded' ? row : undefined;
  });
  assert.equal(done.attempt, 2);
  process.stdout.write(`# redelivered ${got[1]!.at - killedAt} ms after the SIGKILL (lease: twice WEBHOOK_TIMEOUT_S = 6 s from the claim)\n`);
});
