import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ipAllowed, ipVersion, normaliseEntry } from '../../src/core/api-keys/ip-allowlist.ts';

test('entries are normalised to CIDR', () => {
  assert.equal(normaliseEntry('127.0.0.1'), '127.0.0.1/32');
  assert.equal(normaliseEntry(' 10.1.2.3/8 '), '10.0.0.0/8');
  assert.equal(normaliseEntry('0.0.0.0/0'), '0.0.0.0/0');
  assert.equal(normaliseEntry('2001:db8::1'), '2001:db8::1/128');
  assert.equal(normaliseEntry('2001:DB8:0:0::/32'), '2001:db8::/32');
  assert.equal(normaliseEntry('::ffff:192.0.2.1'), '192.0.2.1/32', 'IPv4-mapped becomes IPv4');
  assert.equal(normaliseEntry('::ffff:192.0.2.0/120'), '192.0.2.0/24');
});

test('malformed entries are refused', () => {
  for (const bad of ['', 'abc', '999.1.1.1', '1.2.3.4/33', '1.2.3', '127.1', '0x7f.0.0.1', '2001:db8::/129', '1.2.3.4/-1', '1.2.3.4/', '::ffff:1.2.3.4/10']) {
    assert.equal(normaliseEntry(bad), null, bad);
  }
});

test('matching: IPv4, IPv6, mapped addresses, no cross-family match', () => {
  const list = ['203.0.113.0/24', '2001:db8::/32', '198.51.100.7/32'];
  assert.equal(ipAllowed('203.0.113.255', list), true);
  assert.equal(ipAllowed('203.0.114.0', list), false);
  assert.equal(ipAllowed('::ffff:203.0.113.5', list), true);
  assert.equal(ipAllowed('2001:db8:abcd::1', list), true);
  assert.equal(ipAllowed('2001:db9::1', list), false);
  assert.equal(ipAllowed('198.51.100.7', list), true);
  assert.equal(ipAllowed('198.51.100.8', list), false);
  assert.equal(ipAllowed('not-an-ip', list), false);
  assert.equal(ipAllowed('::1', ['127.0.0.1/32']), false, 'IPv6 loopback is not IPv4 loopback');
  assert.equal(ipAllowed('1.2.3.4', ['garbage']), false);
  assert.equal(ipVersion('2001:db8::/32'), 6);
  assert.equal(ipVersion('10.0.0.0/8'), 4);
});
