// DNS against a real PowerDNS Authoritative (test/helpers/powerdns.ts starts one for this file on
// 127.0.0.1): what the API writes is answered by `dig` within seconds — records added, changed and
// deleted, a registered domain's SOA and NS, a server address's PTR set, cleared and gone with the
// server — and nothing is lost while PowerDNS is down or after it lost its data (resync).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { adminCli } from '../helpers/admin-cli.ts';
import { type Customer, type TestApp, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { activeDomain } from '../helpers/domains.ts';
import { type PowerDns, powerDnsSkip, startPowerDns } from '../helpers/powerdns.ts';
import { type Json, activeServer } from '../helpers/servers.ts';

let pdns: PowerDns;
let t: TestApp;
let c: Customer;

describe('DNS on PowerDNS', { skip: powerDnsSkip, timeout: 180_000 }, () => {
  before(async () => {
    pdns = await startPowerDns();
    t = await startApp({ worker: 'embedded', dnsDriver: 'powerdns', powerdnsApiUrl: pdns.apiUrl, powerdnsApiKey: pdns.apiKey });
    c = await createCustomer(t, { deposit: '200.00' });
  });
  after(async () => {
    await t?.stopWorkers();
    await pdns?.close();
  });

  const fresh = () => `dig-${randomBytes(4).toString('hex')}.example.com`;

  async function zone(name = fresh()): Promise<Json> {
    const res = await call(t.app, 'POST', '/v2/dns/zones', { key: c.key, body: { name } });
    assert.equal(res.statusCode, 201, res.body);
    return json(res).data;
  }

  async function add(z: Json, body: Record<string, unknown>): Promise<Json> {
    const res = await call(t.app, 'POST', `/v2/dns/zones/${z.id}/records`, { key: c.key, body });
    assert.equal(res.statusCode, 201, res.body);
    return json(res).data;
  }

  const getZone = async (z: Json) => json(await call(t.app, 'GET', `/v2/dns/zones/${z.id}`, { key: c.key })).data;
  const has = (want: string) => (answer: string[]) => answer.includes(want);
  const none = (answer: string[]) => answer.length === 0;

  test('a zone and its records are answered within 5 s of each write: added, changed, deleted; every type', async () => {
    const z = await zone();
    const soa = await pdns.waitFor(z.name, 'SOA', (a) => a.length === 1);
    assert.equal(soa[0], `ns1.hostcloud.test. hostmaster.hostcloud.test. ${z.serial} 10800 3600 604800 3600`);
    assert.deepEqual((await pdns.dig(z.name, 'NS')).sort(), ['ns1.hostcloud.test.', 'ns2.hostcloud.test.']);

    const www = await add(z, { name: 'www', type: 'A', content: '192.0.2.10', ttl: 60 });
    await pdns.waitFor(`www.${z.name}`, 'A', has('192.0.2.10'));
    await add(z, { name: 'www', type: 'A', content: '192.0.2.11', ttl: 60 });
    await pdns.waitFor(`www.${z.name}`, 'A', (a) => a.sort().join() === '192.0.2.10,192.0.2.11');
    await add(z, { name: 'v6', type: 'AAAA', content: '2001:db8::10' });
    await add(z, { name: 'alias', type: 'CNAME', content: 'www.example.net' });
    await add(z, { name: '@', type: 'MX', content: 'mail.example.com', priority: 10 });
    const long = `v=spf1 ${'include:_spf.example.com '.repeat(12)}-all`;
    await add(z, { name: '@', type: 'TXT', content: long });
    await add(z, { name: '_sip._tcp', type: 'SRV', content: '5 5060 sip.example.com', priority: 20 });
    await add(z, { name: '@', type: 'CAA', content: '0 issue "letsencrypt.org"' });
    await add(z, { name: 'sub', type: 'NS', content: 'ns.elsewhere.net' });
    await pdns.waitFor(`v6.${z.name}`, 'AAAA', has('2001:db8::10'));
    await pdns.waitFor(`alias.${z.name}`, 'CNAME', has('www.example.net.'));
    await pdns.waitFor(z.name, 'MX', has('10 mail.example.com.'));
    const txt = await pdns.waitFor(z.name, 'TXT', (a) => a.length === 1);
    assert.equal(txt[0]!.replace(/" "/g, '').replace(/^"|"$/g, ''), long, 'a TXT over 255 bytes is served as several strings');
    await pdns.waitFor(`_sip._tcp.${z.name}`, 'SRV', has('20 5 5060 sip.example.com.'));
    await pdns.waitFor(z.name, 'CAA', has('0 issue "letsencrypt.org"'));

    const changed = await call(t.app, 'PATCH', `/v2/dns/zones/${z.id}/records/${www.id}`, { key: c.key, body: { content: '192.0.2.20' } });
    assert.equal(changed.statusCode, 200, changed.body);
    await pdns.waitFor(`www.${z.name}`, 'A', (a) => a.sort().join() === '192.0.2.11,192.0.2.20');
    const deleted = await call(t.app, 'DELETE', `/v2/dns/zones/${z.id}/records/${www.id}`, { key: c.key });
    assert.equal(deleted.statusCode, 200, deleted.body);
    await pdns.waitFor(`www.${z.name}`, 'A', (a) => a.join() === '192.0.2.11');

    const serial = (await getZone(z)).serial;
    await pdns.waitFor(z.name, 'SOA', (a) => a[0]?.split(' ')[2] === String(serial));
    const synced = await getZone(z);
    assert.ok(synced.synced_at, 'synced_at is set once PowerDNS has every change');

    assert.equal((await call(t.app, 'DELETE', `/v2/dns/zones/${z.id}`, { key: c.key })).statusCode, 200);
    await pdns.waitFor(z.name, 'SOA', none);
  });

  test('a registered domain\'s zone answers its SOA and NS', async () => {
    const d = await activeDomain(t, c);
    await pdns.waitFor(d.domain, 'SOA', (a) => a.length === 1 && a[0]!.startsWith('ns1.hostcloud.test. hostmaster.hostcloud.test. '));
    assert.deepEqual((await pdns.dig(d.domain, 'NS')).sort(), ['ns1.hostcloud.test.', 'ns2.hostcloud.test.']);
  });

  test('reverse DNS: set on a server address → PTR answered; cleared → gone; set again and the server deleted → gone', async () => {
    const s = await activeServer(t, c);
    const v4 = s.network.ipv4.address as string;
    const v6 = s.network.ipv6.address as string;
    const ptr4 = `${v4.split('.').reverse().join('.')}.in-addr.arpa`;
    const rdns = (address: string, name: string | null) => call(t.app, 'PUT', `/v2/servers/${s.id}/ips/${encodeURIComponent(address)}/rdns`, { key: c.key, body: { rdns: name } });
    assert.equal((await rdns(v4, 'mail.example.com')).statusCode, 200);
    await pdns.waitFor(ptr4, 'PTR', has('mail.example.com.'));
    // The same PTR through dig's own reverse lookup, and the IPv6 one.
    assert.equal((await rdns(v6, 'mail6.example.com')).statusCode, 200);
    await pdns.waitFor(v6, 'PTR', () => true).catch(() => []);
    const { stdout } = await import('node:child_process').then((cp) => new Promise<{ stdout: string }>((resolve, reject) => {
      cp.execFile('dig', ['@127.0.0.1', '-p', String(pdns.dnsPort), '+short', '-x', v6], (e, out) => (e ? reject(e) : resolve({ stdout: out })));
    }));
    assert.equal(stdout.trim(), 'mail6.example.com.');
    assert.equal((await rdns(v4, null)).statusCode, 200);
    await pdns.waitFor(ptr4, 'PTR', none);
    assert.equal((await rdns(v4, 'again.example.com')).statusCode, 200);
    await pdns.waitFor(ptr4, 'PTR', has('again.example.com.'));
    const del = await call(t.app, 'DELETE', `/v2/servers/${s.id}`, { key: c.key });
    assert.equal(del.statusCode, 200, del.body);
    const op = json(del).data.operation;
    if (op) assert.equal((await waitForOperation(t, c.key, op.id)).status, 'completed');
    await pdns.waitFor(ptr4, 'PTR', none, 15_000);
    const left = await sql<{ n: number }>`SELECT count(*)::int AS n FROM dns_records WHERE address IN (${v4}::inet, ${v6}::inet)`.execute(t.database.db);
    assert.equal(left.rows[0]!.n, 0);
  });

  test('50 record writes at once to one zone: every one answered, the serial one higher for each', async () => {
    const z = await zone();
    await pdns.waitFor(z.name, 'SOA', (a) => a.length === 1);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => call(t.app, 'POST', `/v2/dns/zones/${z.id}/records`, {
      key: c.key, body: { name: `h${i}`, type: 'A', content: `192.0.2.${i + 1}` },
    })));
    assert.deepEqual(answers.map((a) => a.statusCode), Array(50).fill(201));
    const serial = z.serial + 50;
    await pdns.waitFor(z.name, 'SOA', (a) => a[0]?.split(' ')[2] === String(serial), 10_000);
    for (let i = 0; i < 50; i++) assert.deepEqual(await pdns.dig(`h${i}.${z.name}`, 'A'), [`192.0.2.${i + 1}`]);
    assert.equal((await getZone(z)).serial, serial);
  });

  test('PowerDNS stopped: writes still 201 and synced_at null; restarted: answered within 30 s, nothing lost', async () => {
    const z = await zone();
    await pdns.waitFor(z.name, 'SOA', (a) => a.length === 1);
    await pdns.stop();
    try {
      const written = [];
      for (let i = 0; i < 5; i++) written.push(await add(z, { name: `down${i}`, type: 'A', content: `198.51.100.${i + 1}` }));
      const other = await zone();
      assert.equal((await getZone(z)).synced_at, null);
      assert.equal(other.synced_at, null);
      // The pusher has tried and failed meanwhile (the outbox rows wait with a backoff).
      const deadline = Date.now() + 10_000;
      for (;;) {
        const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM dns_outbox WHERE zone_name = ${z.name} AND attempts > 0`.execute(t.database.db);
        if (r.rows[0]!.n > 0) break;
        assert.ok(Date.now() < deadline, 'the pusher tried while PowerDNS was down');
        await new Promise((r2) => setTimeout(r2, 100));
      }
      assert.equal((await getZone(z)).synced_at, null);
      await pdns.start();
      for (let i = 0; i < 5; i++) await pdns.waitFor(`down${i}.${z.name}`, 'A', has(`198.51.100.${i + 1}`), 30_000);
      await pdns.waitFor(other.name, 'SOA', (a) => a.length === 1, 30_000);
      const deadline2 = Date.now() + 10_000;
      while ((await getZone(z)).synced_at === null) {
        assert.ok(Date.now() < deadline2, 'synced_at set after the restart');
        await new Promise((r2) => setTimeout(r2, 100));
      }
    } finally {
      await pdns.start().catch(() => {});
    }
  });

  test('hostcloud admin dns resync after PowerDNS lost its data restores every zone', async () => {
    const a = await zone();
    const b = await zone();
    await add(a, { name: 'kept', type: 'A', content: '203.0.113.5' });
    await add(b, { name: '@', type: 'TXT', content: 'still here' });
    await pdns.waitFor(`kept.${a.name}`, 'A', has('203.0.113.5'));
    await pdns.waitFor(b.name, 'TXT', has('"still here"'));
    await pdns.wipe();
    await pdns.waitFor(`kept.${a.name}`, 'A', none);
    const server = await t.app.listen({ port: 0, host: '127.0.0.1' });
    void server;
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const one = await adminCli(t, url, ['dns', 'resync', '--zone', a.name]);
    assert.equal(one.code, 0, one.stderr);
    assert.match(one.stdout, /Queued 1 zone/);
    await pdns.waitFor(`kept.${a.name}`, 'A', has('203.0.113.5'));
    const all = await adminCli(t, url, ['dns', 'resync']);
    assert.equal(all.code, 0, all.stderr);
    await pdns.waitFor(b.name, 'TXT', has('"still here"'));
    // The demo pools' reverse zones came back too.
    const reverse = await sql<{ name: string }>`SELECT name FROM dns_zones WHERE kind = 'reverse' ORDER BY name LIMIT 1`.execute(t.database.db);
    await pdns.waitFor(reverse.rows[0]!.name, 'SOA', (x) => x.length === 1);
    const missing = await adminCli(t, url, ['dns', 'resync', '--zone', 'nowhere.example.org']);
    assert.notEqual(missing.code, 0);
  });
});
