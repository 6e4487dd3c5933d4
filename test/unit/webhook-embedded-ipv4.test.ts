// IPv6 addresses that carry an IPv4 address (IPv4-compatible ::/96, IPv4-mapped ::ffff:0:0/96,
// IPv4-translated ::ffff:0:0:0/96, 6to4 2002::/16, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, Teredo
// 2001::/32): none whose IPv4 is not public is a webhook's target — not when the URL is set, not
// when the worker resolves a name, not when it would connect to a literal.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { forbiddenAddress } from '../../src/core/webhooks/addresses.ts';
import { checkWebhookUrl } from '../../src/core/webhooks/url.ts';
import { type LookupFunction, createHttpTransport } from '../../src/providers/webhooks/http.ts';

/** Each carries 127.0.0.1, 10.0.0.1 or 169.254.169.254 (the metadata service). */
const EMBEDDING_NOT_PUBLIC = [
  '::7f00:1', '::127.0.0.1', '::a00:1', '::a9fe:a9fe', '::169.254.169.254', // IPv4-compatible (::/96)
  '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:a9fe:a9fe', // IPv4-mapped
  '::ffff:0:7f00:1', '::ffff:0:a00:1', // IPv4-translated (SIIT)
  '2002:7f00:1::1', '2002:a00:1::', '2002:a9fe:a9fe:1::1', // 6to4
  '64:ff9b::7f00:1', '64:ff9b::10.0.0.1', '64:ff9b::a9fe:a9fe', // NAT64 well-known prefix
  '64:ff9b:1::7f00:1', '64:ff9b:1:7f00:1::', // NAT64 local-use prefix
  '2001:0:4136:e378:8000:63bf:80ff:fffe', '2001:0:7f00:1::1', '2001::f5ff:fffe', // Teredo: client 127.0.0.1, server 127.0.0.1, client 10.0.0.1
];

test('every IPv6 spelling of a non-public IPv4 address is refused, naming why', () => {
  for (const a of EMBEDDING_NOT_PUBLIC) assert.ok(forbiddenAddress(a), a);
  assert.match(forbiddenAddress('::7f00:1')!, /127\.0\.0\.1/);
  assert.match(forbiddenAddress('2002:a9fe:a9fe::1')!, /169\.254\.169\.254/);
  // Public IPv6 and a public IPv4 written as IPv4-mapped stay allowed.
  for (const a of ['2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:93.184.216.34', '93.184.216.34']) assert.equal(forbiddenAddress(a), null, a);
});

test('when the URL is set: a literal, or a name resolving to one, is 422 naming url', async () => {
  for (const a of EMBEDDING_NOT_PUBLIC) {
    const literal = checkWebhookUrl(`https://[${a}]/hook`, { allowHttp: false, allowPrivate: false, lookup: async () => ['93.184.216.34'] });
    await assert.rejects(literal, (e: { errors?: { field: string }[] }) => e.errors?.[0]?.field === 'url', a);
    const named = checkWebhookUrl('https://hooks.example.net/hook', { allowHttp: false, allowPrivate: false, lookup: async () => ['93.184.216.34', a] });
    await assert.rejects(named, (e: { errors?: { field: string; message: string }[] }) => e.errors?.[0]?.field === 'url' && e.errors[0].message.includes('resolves to'), a);
  }
});

test('at connection: the worker refuses a name resolving to one, and a literal, before any connection', async () => {
  let answer = '';
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [{ address: answer, family: 6 }]);
    else callback(null, answer, 6);
  };
  const transport = createHttpTransport({ allowHttp: true, allowPrivate: false, forbiddenAddress, connectTimeoutMs: 2000, timeoutMs: 3000, maxSocketsPerOrigin: 2, lookup });
  try {
    for (const a of EMBEDDING_NOT_PUBLIC) {
      answer = a;
      await assert.rejects(transport.post({ url: 'http://hooks.example.net:9/hook', headers: {}, body: '{}' }), (e: Error) => /^refused: hooks\.example\.net resolves to/.test(e.message), a);
      await assert.rejects(transport.post({ url: `http://[${a}]:9/hook`, headers: {}, body: '{}' }), (e: Error) => /^refused: \[/.test(e.message), a);
    }
  } finally {
    transport.close();
  }
});
