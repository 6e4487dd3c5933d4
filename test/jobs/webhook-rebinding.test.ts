// SSRF at delivery: the address is judged again when the worker connects, whatever was true when
// the endpoint was registered. Here the worker does not allow private targets (WEBHOOK_ALLOW_PRIVATE
// unset) and its resolver says the endpoint's name now points to 127.0.0.1 — DNS rebinding. The
// endpoints are registered through an API that allows anything (as if the name had resolved to a
// public address then); the receiver on 127.0.0.1 must never hear from the worker.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Customer, type TestApp, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { type Receiver, startReceiver } from '../helpers/webhook-receiver.ts';
import { until } from '../helpers/worker-process.ts';
import { startWorker, type Worker } from '../../src/jobs/worker.ts';
import { renderV2Event } from '../../src/http/v2/events/presenters.ts';
import { computeFor, hostingFor } from '../../src/runtime.ts';
import type { LookupFunction } from '../../src/providers/webhooks/http.ts';

let t: TestApp;
let worker: Worker;
let r: Receiver;
let c: Customer;
const resolved: string[] = [];

/** Every name resolves to the loopback address now. */
const rebinding: LookupFunction = (hostname, options, callback) => {
  resolved.push(hostname);
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};

before(async () => {
  t = await startApp({ webhookAllowHttp: true, webhookAllowPrivate: true });
  const config = { ...t.config, webhookAllowPrivate: false, webhookRetryScheduleS: [0.2] };
  worker = await startWorker({ db: t.database.db, compute: computeFor(config, t.database.db), hosting: hostingFor(config, t.database.db), config, logger: t.telemetry.logger, webhookLookup: rebinding, renderEvent: renderV2Event });
  r = await startReceiver();
  c = await createCustomer(t);
});
after(() => worker.stop());

async function delivered(url: string) {
  const w = json(await call(t.app, 'POST', '/v2/webhooks', { key: c.key, body: { url } })).data;
  const d = json(await call(t.app, 'POST', `/v2/webhooks/${w.id}/ping`, { key: c.key })).data;
  return until('the delivery to fail for good', 15_000, async () => {
    const log = json(await call(t.app, 'GET', `/v2/webhooks/${w.id}/deliveries`, { key: c.key })).data;
    return log.find((x: { id: number; status: string }) => x.id === d.id && x.status === 'failed');
  });
}

test('a name that resolves to 127.0.0.1 at delivery is refused: nothing reaches it, the attempts fail saying why', async () => {
  const port = new URL(r.url).port;
  const d = await delivered(`http://rebind.example:${port}/hook`);
  assert.equal(d.attempt, 2);
  assert.equal(d.response_status, null);
  assert.equal(d.error, 'refused: rebind.example resolves to 127.0.0.1, a loopback address');
  assert.ok(resolved.includes('rebind.example'), 'the worker resolved the name itself');
  assert.equal(r.received.length, 0);
});

test('an IP literal that is not public is refused before connecting', async () => {
  const d = await delivered(`${r.url}/hook`);
  assert.equal(d.error, 'refused: 127.0.0.1 is a loopback address');
  assert.equal(r.received.length, 0);
});
