// verifyWebhook as a receiver uses it, on deliveries signed the way the Standard Webhooks
// specification says (signed here with node:crypto, independently of the SDK's WebCrypto code).
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { verifyWebhook, WebhookVerificationError } from '@hostcloud/sdk';

const keyBytes = randomBytes(24);
const secret = `whsec_${keyBytes.toString('base64')}`;
const event = { id: 'evt_1', type: 'server.created', created_at: '2026-11-27T10:00:00Z', resource: { type: 'server', id: 'srv_1' }, data: { id: 'srv_1' } };
const body = JSON.stringify(event);

function sign(key: Buffer, id: string, ts: number, payload: string) {
  return `v1,${createHmac('sha256', key).update(`${id}.${ts}.${payload}`).digest('base64')}`;
}

function headers(ts = Math.floor(Date.now() / 1000), signature = sign(keyBytes, 'evt_1', ts, body)) {
  return { 'webhook-id': 'evt_1', 'webhook-timestamp': String(ts), 'webhook-signature': signature };
}

test('a delivery signed with the secret verifies and yields its event (string, bytes, Headers, Node headers)', async () => {
  assert.deepEqual(await verifyWebhook(secret, headers(), body), event);
  assert.deepEqual(await verifyWebhook(secret, new Headers(headers()), new TextEncoder().encode(body)), event);
  const h = headers();
  assert.deepEqual(await verifyWebhook(secret, { 'Webhook-Id': h['webhook-id'], 'Webhook-Timestamp': h['webhook-timestamp'], 'Webhook-Signature': [h['webhook-signature']] }, body), event);
});

test('after a secret rotation both signatures are sent: either secret verifies', async () => {
  const oldKey = randomBytes(24);
  const ts = Math.floor(Date.now() / 1000);
  const both = `${sign(oldKey, 'evt_1', ts, body)} ${sign(keyBytes, 'evt_1', ts, body)}`;
  assert.deepEqual(await verifyWebhook(secret, headers(ts, both), body), event);
  assert.deepEqual(await verifyWebhook(`whsec_${oldKey.toString('base64')}`, headers(ts, both), body), event);
});

test('a wrong secret, a changed body, an old timestamp or a missing header is refused', async () => {
  const refused = (p: Promise<unknown>, why: RegExp) => assert.rejects(p, (e: unknown) => e instanceof WebhookVerificationError && why.test(e.message));
  await refused(verifyWebhook(`whsec_${randomBytes(24).toString('base64')}`, headers(), body), /no webhook-signature matches/);
  await refused(verifyWebhook(secret, headers(), body.replace('srv_1', 'srv_2')), /no webhook-signature matches/);
  const old = Math.floor(Date.now() / 1000) - 600;
  await refused(verifyWebhook(secret, headers(old), body), /too far from now/);
  // Within a wider tolerance the same delivery passes.
  assert.deepEqual(await verifyWebhook(secret, headers(old), body, { toleranceS: 900 }), event);
  const { 'webhook-signature': _s, ...unsigned } = headers();
  await refused(verifyWebhook(secret, unsigned, body), /missing/);
  await refused(verifyWebhook(secret, headers(undefined, 'v2,abc'), body), /no webhook-signature matches/);
  await refused(verifyWebhook('whsec_', headers(), body), /not whsec_ followed by base64/);
});
