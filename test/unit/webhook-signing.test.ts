// Signatures as Standard Webhooks specifies them: what the sender signs verifies with the
// `standardwebhooks` package (written by others), with both secrets during a rotation; the raw HMAC
// snippet the reference gives customers verifies the same and refuses a tampered body; the
// addresses a webhook may not point to; the retry schedule.
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { forbiddenAddress } from '../../src/core/webhooks/addresses.ts';
import { DEFAULT_RETRY_SCHEDULE_S, retryDelayS } from '../../src/core/webhooks/schedule.ts';
import { newSecret, sign, signatureHeader } from '../../src/core/webhooks/signing.ts';
import { introduction } from '../../src/http/docs/introduction.ts';

const body = JSON.stringify({ id: 'evt_2Nf8sKq4Lm7Xp1Zr', type: 'server.created', data: { name: 'ünïcode ✓' } });
const now = () => Math.floor(Date.now() / 1000);

test('a signature verifies with standardwebhooks; a changed body, id or timestamp does not', () => {
  const secret = newSecret();
  const ts = now();
  const headers = { 'webhook-id': 'evt_2Nf8sKq4Lm7Xp1Zr', 'webhook-timestamp': String(ts), 'webhook-signature': signatureHeader([secret], 'evt_2Nf8sKq4Lm7Xp1Zr', ts, body) };
  assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
  assert.throws(() => new Webhook(secret).verify(`${body} `, headers));
  assert.throws(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'evt_other' }));
  assert.throws(() => new Webhook(newSecret()).verify(body, headers));
  // Its own reference value, as the specification computes it.
  assert.equal(sign('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'),
    'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
});

test('during a rotation both secrets sign, space-separated, and each alone verifies', () => {
  const [a, b] = [newSecret(), newSecret()];
  const ts = now();
  const header = signatureHeader([b, a], 'evt_x', ts, body);
  assert.equal(header.split(' ').length, 2);
  for (const s of [a, b]) new Webhook(s).verify(body, { 'webhook-id': 'evt_x', 'webhook-timestamp': String(ts), 'webhook-signature': header });
});

test('the reference\'s by-hand verification works as printed', () => {
  const text = introduction('http://api.test');
  const code = /\*\*Verifying by hand\*\*[\s\S]*?```js\n([\s\S]*?)```/.exec(text)![1]!.replace(/^import .*$/m, '');
  const verified = new Function('createHmac', 'timingSafeEqual', `${code}; return verified;`)(createHmac, timingSafeEqual) as
    (secret: string, headers: Record<string, string>, raw: string) => boolean;
  const secret = newSecret();
  const ts = now();
  const headers = { 'webhook-id': 'evt_x', 'webhook-timestamp': String(ts), 'webhook-signature': signatureHeader([newSecret(), secret], 'evt_x', ts, body) };
  assert.equal(verified(secret, headers, body), true);
  assert.equal(verified(secret, headers, body.replace('created', 'deleted')), false);
  assert.equal(verified(newSecret(), headers, body), false);
  assert.equal(verified(secret, { ...headers, 'webhook-timestamp': String(ts - 3600) }, body), false, 'too old');
});

test('addresses a webhook may not point to, and the public ones it may', () => {
  for (const a of ['127.0.0.1', '::1', '10.1.2.3', '172.31.0.1', '192.168.0.1', '169.254.169.254', 'fe80::1', '100.64.1.1', '224.0.0.5', 'ff02::1',
    'fc00::1', '0.0.0.0', '::', '255.255.255.255', '::ffff:10.0.0.1', '64:ff9b::7f00:1', '2002:7f00:1::1', '198.18.0.1']) {
    assert.ok(forbiddenAddress(a), a);
  }
  for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:93.184.216.34']) assert.equal(forbiddenAddress(a), null, a);
});

test('the retry schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h, then none (ten attempts, about 75 hours)', () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => retryDelayS(n)), [5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400, null]);
  assert.equal(Math.floor(DEFAULT_RETRY_SCHEDULE_S.reduce((a, b) => a + b, 0) / 3600), 75);
});
