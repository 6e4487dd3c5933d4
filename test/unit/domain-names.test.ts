// Domain names as docs/behaviour.md's Domains section says: node:url's domainToASCII for IDNs, LDH
// labels of 1–63 characters, at most 253 in all, and a TLD from the price list.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type DomainName, parseDomainName, parseHostName, tldCandidates } from '../../src/core/domains/names.ts';

const TLDS = new Set(['.com', '.net', '.de', '.jp', '.uk', '.co.uk', '.io']);

function ok(input: string, opts: { allowSubdomains?: boolean; tlds?: Set<string> | null } = {}): DomainName {
  const r = parseDomainName(input, { tlds: opts.tlds === undefined ? TLDS : opts.tlds, allowSubdomains: opts.allowSubdomains });
  assert.ok(r.ok, `${JSON.stringify(input)}: ${r.ok ? '' : r.problem}`);
  return r.value;
}

function refused(input: string, problem: RegExp, opts: { allowSubdomains?: boolean; tlds?: Set<string> | null } = {}) {
  const r = parseDomainName(input, { tlds: opts.tlds === undefined ? TLDS : opts.tlds, allowSubdomains: opts.allowSubdomains });
  assert.equal(r.ok, false, `${JSON.stringify(input)} should be refused`);
  if (!r.ok) assert.match(r.problem, problem, JSON.stringify(input));
}

test('real IDNs become punycode, and read back as Unicode', () => {
  assert.deepEqual(ok('bücher.de'), { name: 'xn--bcher-kva.de', unicode: 'bücher.de', labels: ['xn--bcher-kva', 'de'], tld: '.de', sld: 'xn--bcher-kva' });
  const jp = ok('例え.jp');
  assert.equal(jp.name, 'xn--r8jz45g.jp');
  assert.equal(jp.unicode, '例え.jp');
  assert.equal(jp.tld, '.jp');
  // Already punycode (any case) is the same name.
  assert.equal(ok('XN--BCHER-KVA.DE').name, 'xn--bcher-kva.de');
  assert.equal(ok('faß.de').name, 'xn--fa-hia.de', 'IDNA 2008: ß is kept, not mapped to ss');
  assert.equal(ok('Bücher.DE').name, 'xn--bcher-kva.de');
});

test('mixed case, full-width letters and a trailing dot normalise to one spelling', () => {
  assert.equal(ok('ExAmple.COM').name, 'example.com');
  assert.equal(ok('example.com.').name, 'example.com');
  assert.equal(ok('  example.com ').name, 'example.com');
  assert.equal(ok('ｅｘａｍｐｌｅ.com').name, 'example.com');
  assert.equal(ok('example。com').name, 'example.com', 'the ideographic full stop is a dot');
  assert.equal(ok('a-b-c.com').name, 'a-b-c.com');
  assert.equal(ok('123.com').name, '123.com', 'digits are fine left of the TLD');
});

test('labels: 63 characters at most, none empty, no hyphen at either end', () => {
  assert.equal(ok(`${'a'.repeat(63)}.com`).name.length, 67);
  refused(`${'a'.repeat(64)}.com`, /longer than 63/);
  refused('example..com', /empty label/);
  refused('.example.com', /empty label/);
  refused('example.com..', /empty label/);
  refused('-example.com', /hyphen/);
  refused('example-.com', /hyphen/);
  refused('ab--cd.com', /3rd and 4th/);
  refused('xn--zz.com', /not a valid domain name|invalid IDN/);
  refused('ex_ample.com', /letters, digits/);
});

test('the whole name: at most 253 characters once converted', () => {
  const label = 'a'.repeat(63);
  const name = `${label}.${label}.${label}.${'b'.repeat(57)}.com`; // 4×63+… = 253
  assert.equal(name.length, 253);
  assert.equal(ok(name, { allowSubdomains: true }).name, name);
  refused(`${label}.${label}.${label}.${'b'.repeat(58)}.com`, /longer than 253/, { allowSubdomains: true });
});

test('numeric and unsupported TLDs, and a TLD alone, are refused', () => {
  refused('example.123', /numeric TLD/);
  refused('1.2.3.4', /numeric TLD/, { tlds: null });
  refused('example.xyz', /\.xyz is not a TLD offered here/);
  refused('com', /name and a TLD/);
  refused('co.uk', /is a TLD itself/);
});

test('the longest TLD on the list wins; subdomains only when asked for', () => {
  const co = ok('example.co.uk');
  assert.equal(co.tld, '.co.uk');
  assert.equal(co.sld, 'example');
  assert.equal(ok('example.uk').tld, '.uk');
  refused('www.example.com', /directly under its TLD, such as example\.com/);
  const sub = ok('www.example.com', { allowSubdomains: true });
  assert.equal(sub.sld, 'www.example');
  assert.equal(sub.tld, '.com');
  // Without a list any TLD that is well-formed goes (e.g. hosting a name registered elsewhere).
  assert.equal(ok('example.fr', { tlds: null }).tld, '.fr');
  assert.deepEqual(tldCandidates(['a', 'co', 'uk']), ['.co.uk', '.uk']);
});

test('characters a URL parser would cut, decode or drop are refused, not altered', () => {
  for (const bad of ['exa mple.com', 'a/b.com', 'a%41.com', 'a@b.com', 'a:b.com', 'a\u0000b.com', 'ex\u00ADample.com', '☃.com', 'a?b.com', 'a#b.com', '']) {
    const r = parseHostName(bad);
    assert.equal(r.ok, false, JSON.stringify(bad));
  }
});

test('host names (nameservers): any depth, same rules, no TLD list', () => {
  const ns = parseHostName('NS1.Example.NET.');
  assert.ok(ns.ok);
  assert.equal(ns.value.name, 'ns1.example.net');
  assert.deepEqual(ns.value.labels, ['ns1', 'example', 'net']);
  assert.equal(parseHostName('localhost').ok, false);
  assert.equal(parseHostName('ns1.example.123').ok, false);
});

test('every spelling of an IP address is refused, before and after conversion (hex, octal, partial, one number, full-width)', () => {
  // node:url reads each of these as 127.0.0.1 (or another IPv4 address).
  const forms = ['0x7f000001', '0X7F000001', '0x7f.1', '127.1', '127.0.1', '0177.0.0.1', '0177.1', '2130706433', '127.0.0.01',
    '1.2.3.0x4', '１２７.０.０.１', '１２７', '0ｘ7f000001', '0x7f。1', '127.0.0.1.', 'a.0x7f', 'example.0x', 'www.example.08'];
  for (const input of forms) {
    for (const r of [parseHostName(input), parseDomainName(input, { tlds: null, allowSubdomains: true })]) {
      assert.equal(r.ok, false, `${JSON.stringify(input)} should be refused, got ${r.ok ? r.value.name : ''}`);
      if (!r.ok) assert.match(r.problem, /numeric TLD|is the IP address/, JSON.stringify(input));
      if (!r.ok) assert.match(r.problem, /an IP address, in any spelling, is not a domain name/, JSON.stringify(input));
    }
  }
  // Numbers and hex-looking labels left of a real TLD are names, not addresses.
  assert.equal(ok('0x7f000001.com').name, '0x7f000001.com');
  assert.equal(ok('127.com').name, '127.com');
  assert.equal(ok('0x7f.example.com', { allowSubdomains: true }).name, '0x7f.example.com');
  const hex = parseHostName('ns1.0xabc.net');
  assert.ok(hex.ok && hex.value.name === 'ns1.0xabc.net');
});
