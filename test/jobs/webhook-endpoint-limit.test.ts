// WEBHOOK_ENDPOINT_CONCURRENCY holds across worker processes: two `hostcloud worker` processes
// (each allowed WEBHOOK_CONCURRENCY 2) and a slow receiver (500 ms an answer) behind two endpoints.
// The first endpoint's backlog is queued first, so both processes would take their own two of it if
// each counted only its own; neither endpoint ever has more than 2 requests open, while more than 2
// are open at once in all (so both processes were sending).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { type Customer, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.ts';
import { killWorkers, startWorker, until } from '../helpers/worker-process.ts';
import type { Json } from '../helpers/servers.ts';

after(killWorkers);

const ENV = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_CONCURRENCY: '2', WEBHOOK_ENDPOINT_CONCURRENCY: '2' };
const EACH = 8;

async function endpoint(t: Awaited<ReturnType<typeof startApp>>, c: Customer, r: Receiver, path: string): Promise<Json> {
  const res = await call(t.app, 'POST', '/v2/webhooks', { key: c.key, body: { url: `${r.url}${path}` } });
  assert.equal(res.statusCode, 201, res.body);
  r.secrets.push(json(res).data.secret);
  return json(res).data;
}

test('two worker processes and a slow receiver: at most WEBHOOK_ENDPOINT_CONCURRENCY (2) in flight at each endpoint, both processes sending', { timeout: 120_000 }, async () => {
  const t = await startApp({ webhookAllowHttp: true, webhookAllowPrivate: true });
  const r = await startReceiver();
  r.answer = () => ({ status: 200, afterMs: 500 });
  const c = await createCustomer(t);
  const x = await endpoint(t, c, r, '/x');
  const y = await endpoint(t, c, r, '/y');
  const workers = [startWorker(t.databaseUrl, 0, ENV), startWorker(t.databaseUrl, 0, ENV)];
  await until('both workers\' webhook senders to start', 60_000, async () => (workers.every((w) => w.output().includes('webhook sender started')) ? true : undefined));

  for (const w of [x, y]) {
    for (let i = 0; i < EACH; i++) assert.equal((await call(t.app, 'POST', `/v2/webhooks/${w.id}/ping`, { key: c.key })).statusCode, 202);
  }
  const got = await r.until(2 * EACH);
  assert.equal(new Set(got.map((g) => g.id)).size, 2 * EACH, 'each event once');
  assert.ok(got.every((g) => g.verifiedWith.length === 1), 'every delivery verified by standardwebhooks');
  assert.equal(r.mostOpenByPath.get('/x'), 2, 'the first endpoint: never more than its 2, though two processes had room');
  assert.equal(r.mostOpenByPath.get('/y'), 2);
  assert.ok(r.mostOpen > 2, `more than one process's WEBHOOK_CONCURRENCY open at once (${r.mostOpen}): both sent`);

  // Every attempt is recorded with its lease given back.
  const rows = await until('every delivery to be recorded', 15_000, async () => {
    const list = await t.database.db.selectFrom('webhook_deliveries').select(['status', 'attempt', 'leased_until']).where('webhook_id', 'in', [x.id, y.id]).execute();
    return list.every((d) => d.status === 'succeeded') ? list : undefined;
  });
  assert.equal(rows.length, 2 * EACH);
  assert.ok(rows.every((d) => d.attempt === 1 && d.leased_until === null));
});
