// @hostcloud/sdk against the real app on a real port for what the server added after the SDK:
// operations.wait on GET /v2/operations/{id}?wait=N (one held request, answered when the
// operation ends), events read back, and webhooks made, listed, pinged and deleted through the
// SDK, with a real delivery from the worker to a receiver on 127.0.0.1 checked by verifyWebhook.
// The app allows http and private webhook URLs (WEBHOOK_ALLOW_HTTP / WEBHOOK_ALLOW_PRIVATE), as
// for development, so the receiver can be local.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { Hostcloud, HostcloudError, verifyWebhook } from '@hostcloud/sdk';
import { createCustomer, startApp } from '../helpers/app.ts';
import { CLOUD_S, FRA, PASSWORD, UBUNTU } from '../helpers/servers.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';
import { until } from '../helpers/worker-process.ts';

// A slower simulated platform: a create (four steps) runs about 2 s, long enough that a wait starts
// before it ends even on a loaded CI machine (with 150 ms steps a create once finished first).
const t = await startApp({ worker: 'embedded', simDelayMs: 500, webhookAllowHttp: true, webhookAllowPrivate: true, webhookRetryScheduleS: [0.2, 0.2] });
await t.app.listen({ port: 0, host: '127.0.0.1' });
const baseUrl = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;

interface Sent { path: string; startedAt: number; endedAt?: number }

function recordingFetch(sent: Sent[]): typeof fetch {
  return async (input, init) => {
    const req = new Request(input, init);
    const u = new URL(req.url);
    const entry: Sent = { path: u.pathname + u.search, startedAt: Date.now() };
    sent.push(entry);
    const res = await fetch(req);
    entry.endedAt = Date.now();
    return res;
  };
}

const serverBody = () => ({ name: `sdk-${randomBytes(4).toString('hex')}.example.com`, location_id: FRA, plan_id: CLOUD_S, os_version_id: UBUNTU, password: PASSWORD });

test('operations.wait is one long-poll request, held until the operation completes and answered at once then', async () => {
  const c = await createCustomer(t, { deposit: '50.00' });
  const sent: Sent[] = [];
  const hc = new Hostcloud({ baseUrl, token: c.key, fetch: recordingFetch(sent) });
  const created = await hc.servers.create(serverBody());
  sent.length = 0;
  const progress: string[] = [];
  const op = await hc.operations.wait(created.operation.id, { timeoutMs: 30_000, longPollS: 20, onProgress: (o) => progress.push(o.status) });
  const resolvedAt = Date.now();
  assert.equal(op.status, 'completed');
  assert.deepEqual(sent.map((s) => s.path), [`/v2/operations/${created.operation.id}?wait=20`]);
  assert.deepEqual(progress, [], 'no intermediate answers: the server held the request');
  const completedAt = Date.parse(op.updated_at);
  // Held: the operation completed after the request went out (the create takes several 150 ms steps) …
  assert.ok(completedAt > sent[0]!.startedAt, `completed ${completedAt - sent[0]!.startedAt} ms after the request started`);
  // … and answered soon after it did, not at the end of the 20 s.
  assert.ok(resolvedAt - completedAt < 2_000, `answered ${resolvedAt - completedAt} ms after completion`);
  assert.equal((await hc.servers.get(created.id)).status, 'active');

  // An operation already finished answers at once, still in one request.
  sent.length = 0;
  assert.equal((await hc.operations.wait(created.operation.id, { longPollS: 20 })).status, 'completed');
  assert.equal(sent.length, 1);
  assert.ok(sent[0]!.endedAt! - sent[0]!.startedAt < 2_000);
});

test('events: the create and its operation are listed (filters are the server\'s), read by id, another account\'s is 404', async () => {
  const c = await createCustomer(t, { deposit: '50.00' });
  const hc = new Hostcloud({ baseUrl, token: c.key });
  const created = await hc.servers.create(serverBody());
  await hc.operations.wait(created.operation.id, { timeoutMs: 30_000 });
  const about = await hc.events.list({ resource_id: created.id }).toArray();
  assert.deepEqual(about.map((e) => e.type), ['server.created']);
  const ev = about[0]!;
  assert.deepEqual(ev.resource, { type: 'server', id: created.id });
  assert.equal((ev.data as { id: string }).id, created.id);
  assert.deepEqual(await hc.events.get(ev.id), ev);
  const completed = await hc.events.list({ type: 'operation.completed' }).toArray();
  assert.ok(completed.some((e) => e.resource.id === created.operation.id));
  assert.ok(completed.every((e) => e.type === 'operation.completed'));

  const other = new Hostcloud({ baseUrl, token: (await createCustomer(t)).key });
  await assert.rejects(other.events.get(ev.id), (e: unknown) => e instanceof HostcloudError && e.status === 404 && e.code === 'RESOURCE_NOT_FOUND');
  assert.deepEqual(await other.events.list().toArray(), []);
  // A type the server does not know is its 422 naming the parameter.
  await assert.rejects(hc.events.list({ type: 'server.exploded' as 'server.created' }).toArray(),
    (e: unknown) => e instanceof HostcloudError && e.status === 422 && e.fieldErrors.some((f) => f.field === 'type'));
});

test('webhooks: create, list, ping, a real delivery verified by verifyWebhook, deliveries, rotate, delete', async () => {
  const r = await startReceiver();
  const c = await createCustomer(t, { deposit: '50.00' });
  const hc = new Hostcloud({ baseUrl, token: c.key });
  const w = await hc.webhooks.create({ url: `${r.url}/hook`, events: ['server.*'], description: 'sdk test' });
  assert.match(w.id, /^whk_/);
  assert.match(w.secret, /^whsec_/);
  assert.deepEqual([w.url, w.events, w.description, w.enabled, w.disabled_reason], [`${r.url}/hook`, ['server.*'], 'sdk test', true, null]);
  const listed = await hc.webhooks.list().toArray();
  assert.deepEqual(listed.map((x) => x.id), [w.id]);
  assert.ok(!('secret' in listed[0]!), 'the secret is shown only at create');

  // A ping: the answer is its pending delivery; the receiver gets the signed event.
  const delivery = await hc.webhooks.ping(w.id);
  assert.equal(delivery.event_type, 'webhook.ping');
  assert.equal(delivery.status, 'pending');
  const [got] = await r.until(1);
  const headers = { 'webhook-id': got!.id, 'webhook-timestamp': got!.timestamp, 'webhook-signature': got!.signature };
  const event = await verifyWebhook(w.secret, headers, got!.body);
  assert.equal(event.id, delivery.event_id);
  assert.equal(event.type, 'webhook.ping');
  assert.deepEqual(event.resource, { type: 'webhook', id: w.id });
  assert.deepEqual(event, await hc.events.get(event.id));
  // Not with another secret, nor with the body changed.
  await assert.rejects(verifyWebhook(`whsec_${randomBytes(24).toString('base64')}`, headers, got!.body), { name: 'WebhookVerificationError' });
  await assert.rejects(verifyWebhook(w.secret, headers, got!.body.replace('webhook.ping', 'server.created')), { name: 'WebhookVerificationError' });

  // What it subscribed to arrives too: a server's creation, verified the same way.
  const created = await hc.servers.create(serverBody());
  const [, serverDelivery] = await r.until(2);
  const serverEvent = await verifyWebhook(w.secret, { 'webhook-id': serverDelivery!.id, 'webhook-timestamp': serverDelivery!.timestamp, 'webhook-signature': serverDelivery!.signature }, serverDelivery!.body);
  assert.equal(serverEvent.type, 'server.created');
  assert.deepEqual(serverEvent.resource, { type: 'server', id: created.id });

  const log = await until('both deliveries to succeed', 10_000, async () => {
    const l = await hc.webhooks.deliveries(w.id, { status: 'succeeded' }).toArray();
    return l.length === 2 ? l : undefined;
  });
  assert.deepEqual(log.map((d) => d.event_type).sort(), ['server.created', 'webhook.ping']);
  assert.deepEqual(await hc.webhooks.deliveries(w.id, { status: 'pending' }).toArray(), []);

  // Rotation: a new secret; the old one still signs for a while.
  const rotated = await hc.webhooks.rotateSecret(w.id);
  assert.notEqual(rotated.secret, w.secret);
  assert.ok(Date.parse(rotated.previous_secret_expires_at) > Date.now());
  await hc.webhooks.ping(w.id);
  const [, , third] = await r.until(3);
  for (const secret of [rotated.secret, w.secret]) {
    assert.equal((await verifyWebhook(secret, { 'webhook-id': third!.id, 'webhook-timestamp': third!.timestamp, 'webhook-signature': third!.signature }, third!.body)).type, 'webhook.ping');
  }

  const updated = await hc.webhooks.update(w.id, { enabled: false, description: null });
  assert.deepEqual([updated.enabled, updated.description], [false, null]);
  await assert.rejects(hc.webhooks.ping(w.id), (e: unknown) => e instanceof HostcloudError && e.status === 409 && e.code === 'STATE_CONFLICT');

  // Another account sees none of it.
  const other = new Hostcloud({ baseUrl, token: (await createCustomer(t)).key });
  await assert.rejects(other.webhooks.get(w.id), (e: unknown) => e instanceof HostcloudError && e.status === 404);
  await assert.rejects(other.webhooks.delete(w.id), (e: unknown) => e instanceof HostcloudError && e.status === 404);

  const deleted = await hc.webhooks.delete(w.id);
  assert.equal(deleted.id, w.id);
  assert.deepEqual(await hc.webhooks.list().toArray(), []);
  await assert.rejects(hc.webhooks.get(w.id), (e: unknown) => e instanceof HostcloudError && e.status === 404 && e.code === 'RESOURCE_NOT_FOUND');
});

test('webhooks: a bad URL is the server\'s 422 naming url', async () => {
  const hc = new Hostcloud({ baseUrl, token: (await createCustomer(t)).key });
  await assert.rejects(hc.webhooks.create({ url: 'not a url' }), (e: unknown) => e instanceof HostcloudError && e.status === 422 && e.fieldErrors.some((f) => f.field === 'url'));
});
