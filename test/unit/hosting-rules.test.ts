// Web hosting's pure rules: control-panel usernames derived from the domain, the simulated panel's
// disk growth, cycle prices and cycle ends.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { domainToASCII } from 'node:url';
import { addCycle, addYear, cyclePriceCents } from '../../src/core/hosting/rules.ts';
import { diskUsedMb } from '../../src/providers/hosting/simulated/disk.ts';
import { USERNAME_MAX, USERNAME_PATTERN, deriveUsername, usernameBase, usernameCandidate } from '../../src/providers/hosting/username.ts';

const none = () => false;

test('usernames come from the domain without its TLD: letters and digits, starting with a letter', () => {
  assert.equal(deriveUsername('example.com', none), 'example');
  assert.equal(deriveUsername('shop.example.com', none), 'shopexample');
  assert.equal(deriveUsername('my-site.co.uk', none), 'mysiteco');
  assert.equal(deriveUsername('EXAMPLE.COM.', none), 'example', 'case and a trailing dot do not matter');
  assert.equal(deriveUsername('123abc.net', none), 'abc', 'leading digits are dropped');
  assert.equal(deriveUsername('1-2-3.org', none), 'site', 'nothing left → site');
  assert.equal(deriveUsername('a1.io', none), 'a1');
});

test('IDNs: the punycode form without its xn-- prefix', () => {
  assert.equal(deriveUsername(domainToASCII('bücher.de'), none), 'bcherkva');
  assert.equal(deriveUsername(domainToASCII('例え.jp'), none), 'r8jz45g');
  assert.equal(deriveUsername(domainToASCII('mañana.example.com'), none), 'maanaptaexample');
});

test('at most 16 characters; every answer matches the panel pattern', () => {
  assert.equal(deriveUsername('averyveryverylongdomainname.com', none), 'averyveryverylon');
  for (const d of ['x.com', 'averyveryverylongdomainname.com', '9lives.com', 'a-b-c-d-e-f-g-h-i-j-k-l.net', domainToASCII('例え.jp')]) {
    const u = deriveUsername(d, none);
    assert.ok(u.length <= USERNAME_MAX, u);
    assert.match(u, USERNAME_PATTERN);
  }
});

test('a taken name gets a digit suffix, cut so the whole stays within 16', () => {
  const taken = new Set(['example', 'example1', 'example2']);
  assert.equal(deriveUsername('example.com', (u) => taken.has(u)), 'example3');
  const long = 'averyveryverylongdomainname.com';
  const base = usernameBase(long);
  assert.equal(base.length, 16);
  assert.equal(usernameCandidate(base, 1), 'averyveryverylo1');
  assert.equal(usernameCandidate(base, 10), 'averyveryveryl10');
  const all = new Set(Array.from({ length: 10 }, (_, n) => usernameCandidate(base, n)));
  assert.equal(deriveUsername(long, (u) => all.has(u)), 'averyveryveryl10');
  assert.equal(deriveUsername(long, (u) => all.has(u)).length, 16);
});

test('system names are never handed out', () => {
  assert.equal(deriveUsername('root.com', none), 'root1');
  assert.equal(deriveUsername('admin.net', none), 'admin1');
  assert.equal(deriveUsername('test.org', none), 'test1');
  assert.equal(deriveUsername('cpanel.io', none), 'cpanel1');
});

test('simulated disk usage: a few MB when new, growing with age, levelling off within the quota, fixed per account', () => {
  const created = new Date('2026-01-01T00:00:00Z');
  const account = { id: 'pa-0123456789abcdef', quota_mb: 10_240, created_at: created };
  const at = (days: number) => diskUsedMb(account, new Date(created.getTime() + days * 86_400_000));
  assert.ok(at(0) >= 2 && at(0) <= 10, `fresh: ${at(0)}`);
  let last = at(0);
  for (const days of [1, 7, 30, 90, 365, 3650]) {
    assert.ok(at(days) >= last, `grows: day ${days} ${at(days)} < ${last}`);
    last = at(days);
  }
  assert.ok(at(30) > at(0), 'a month makes a difference');
  assert.ok(at(3650) <= account.quota_mb * 0.61, `levels off at ≤ 60 % of the quota: ${at(3650)}`);
  assert.equal(at(30), at(30), 'the same answer every time');
  assert.equal(diskUsedMb(account, new Date(created.getTime() - 1000)), at(0), 'a clock before creation counts as new');
  assert.ok(diskUsedMb({ ...account, quota_mb: 5 }, new Date('2030-01-01T00:00:00Z')) <= 5, 'never above the quota');
});

test('cycles: monthly and yearly prices from the package, ends one month or one year on', () => {
  const pkg = { monthly_price_cents: 399, yearly_price_cents: 3990 };
  assert.equal(cyclePriceCents(pkg, 'monthly'), 399);
  assert.equal(cyclePriceCents(pkg, 'yearly'), 3990);
  assert.equal(addCycle(new Date('2026-01-31T10:00:00Z'), 'monthly').toISOString(), '2026-02-28T10:00:00.000Z');
  assert.equal(addCycle(new Date('2026-03-15T10:00:00Z'), 'yearly').toISOString(), '2027-03-15T10:00:00.000Z');
  assert.equal(addYear(new Date('2028-02-29T00:00:00Z')).toISOString(), '2029-02-28T00:00:00.000Z');
});
