// /v2/dns: zones and records on the simulated DNS driver (served by nothing; the worker's pusher
// still runs, so serials and synced_at behave as with PowerDNS — test/dns/powerdns.test.ts). The
// success shapes, every validation rule (422 naming the field), the managed SOA/NS (409), names
// held by another account (409), the quota, another account's ids (404), the sandbox, events, and
// a registered domain's zone.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { type Customer, type TestApp, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { activeDomain } from '../helpers/domains.ts';
import type { Json } from '../helpers/servers.ts';
import { createRecord, deleteRecord, updateRecord } from '../../src/core/dns/records.ts';
import type { DB } from '../../src/db/schema.ts';

let t: TestApp;
let c: Customer;
let other: Customer;

before(async () => {
  t = await startApp({ worker: 'embedded' });
  [c, other] = await Promise.all([createCustomer(t, { deposit: '100.00' }), createCustomer(t)]);
});

const fresh = (prefix = 'zone') => `${prefix}-${randomBytes(4).toString('hex')}.example.com`;

async function zone(name = fresh(), key = c.key): Promise<Json> {
  const res = await call(t.app, 'POST', '/v2/dns/zones', { key, body: { name } });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data;
}

const addRecord = (z: Json, body: Record<string, unknown>, key = c.key) => call(t.app, 'POST', `/v2/dns/zones/${z.id}/records`, { key, body });

async function record(z: Json, body: Record<string, unknown>): Promise<Json> {
  const res = await addRecord(z, body);
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data;
}

function assertInvalid(res: { statusCode: number; body: string }, field: string, code = 'VALIDATION_FAILED') {
  assert.equal(res.statusCode, 422, res.body);
  const err = json(res as never).error;
  assert.equal(err.code, code, res.body);
  if (code === 'VALIDATION_FAILED') assert.deepEqual(err.errors.map((e: { field: string }) => e.field), [field], res.body);
}

function assertConflict(res: { statusCode: number; body: string }) {
  assert.equal(res.statusCode, 409, res.body);
  assert.equal(json(res as never).error.code, 'STATE_CONFLICT');
}

async function waitSynced(id: string): Promise<Json> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const z = json(await call(t.app, 'GET', `/v2/dns/zones/${id}`, { key: c.key })).data;
    if (z.synced_at !== null) return z;
    assert.ok(Date.now() < deadline, 'the zone was not synced within 10 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('zones', () => {
  test('201: the zone with its nameservers, serial and managed SOA/NS; Location; synced by the worker; listed; dns_zone.created', async () => {
    const name = fresh();
    const res = await call(t.app, 'POST', '/v2/dns/zones', { key: c.key, body: { name: ` ${name.toUpperCase()}. ` } });
    assert.equal(res.statusCode, 201, res.body);
    const z = json(res).data;
    assert.match(z.id, /^dnz_[0-9A-Za-z]{16}$/);
    assert.equal(z.name, name);
    assert.deepEqual(z.nameservers, ['ns1.hostcloud.test', 'ns2.hostcloud.test']);
    assert.match(String(z.serial), /^20\d{6}00$/);
    assert.equal(z.synced_at, null);
    assert.equal(z.records_count, 3);
    assert.equal(res.headers.location, `http://api.test/v2/dns/zones/${z.id}`);
    const synced = await waitSynced(z.id);
    assert.equal(synced.serial, z.serial);
    const records = json(await call(t.app, 'GET', `/v2/dns/zones/${z.id}/records`, { key: c.key })).data;
    assert.deepEqual(records.map((r: Json) => [r.type, r.name, r.managed]), [['SOA', '@', true], ['NS', '@', true], ['NS', '@', true]]);
    assert.equal(records[0].content, `ns1.hostcloud.test. hostmaster.hostcloud.test. ${z.serial} 10800 3600 604800 3600`);
    assert.equal(records[0].fqdn, name);
    const list = json(await call(t.app, 'GET', '/v2/dns/zones', { key: c.key, query: { per_page: '100' } })).data;
    assert.ok(list.some((x: Json) => x.id === z.id));
    const events = json(await call(t.app, 'GET', '/v2/events', { key: c.key, query: { type: 'dns_zone.created', resource_id: z.id } })).data;
    assert.equal(events.length, 1);
    assert.equal(events[0].data.name, name);
    assert.equal(events[0].data.records_count, 3);
  });

  test('an IDN is stored as punycode', async () => {
    const z = await zone(`bücher-${randomBytes(3).toString('hex')}.de`);
    assert.match(z.name, /^xn--bcher-.*\.de$/);
  });

  test('422 naming name: a public suffix, a reverse zone, not a domain name', async () => {
    for (const name of ['com', 'co.uk', 'github.io'.replace('github.', ''), '2.0.192.in-addr.arpa', 'no spaces.com', '-bad.com', '192.0.2.1']) {
      assertInvalid(await call(t.app, 'POST', '/v2/dns/zones', { key: c.key, body: { name } }), 'name');
    }
  });

  test('409: the same name again, in this account or another', async () => {
    const z = await zone();
    assertConflict(await call(t.app, 'POST', '/v2/dns/zones', { key: c.key, body: { name: z.name } }));
    assertConflict(await call(t.app, 'POST', '/v2/dns/zones', { key: other.key, body: { name: z.name } }));
  });

  test('another account\'s zone is 404 everywhere', async () => {
    const z = await zone();
    const r = await record(z, { name: 'www', type: 'A', content: '192.0.2.1' });
    for (const [method, url, body] of [
      ['GET', `/v2/dns/zones/${z.id}`], ['DELETE', `/v2/dns/zones/${z.id}`], ['GET', `/v2/dns/zones/${z.id}/records`],
      ['POST', `/v2/dns/zones/${z.id}/records`, { name: 'x', type: 'A', content: '192.0.2.2' }],
      ['PATCH', `/v2/dns/zones/${z.id}/records/${r.id}`, { ttl: 300 }], ['DELETE', `/v2/dns/zones/${z.id}/records/${r.id}`],
    ] as const) {
      const res = await call(t.app, method, url, { key: other.key, ...(body ? { body } : {}) });
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
    }
  });

  test('delete: the zone and its records go; dns_zone.deleted; the name is free again', async () => {
    const z = await zone();
    await record(z, { name: 'www', type: 'A', content: '192.0.2.1' });
    const res = await call(t.app, 'DELETE', `/v2/dns/zones/${z.id}`, { key: c.key });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(json(res).data.records_count, 4);
    assert.equal((await call(t.app, 'GET', `/v2/dns/zones/${z.id}`, { key: c.key })).statusCode, 404);
    const left = await sql<{ n: number }>`SELECT count(*)::int AS n FROM dns_records WHERE zone_id = ${z.id}`.execute(t.database.db);
    assert.equal(left.rows[0]!.n, 0);
    const events = json(await call(t.app, 'GET', '/v2/events', { key: c.key, query: { type: 'dns_zone.deleted', resource_id: z.id } })).data;
    assert.equal(events.length, 1);
    await zone(z.name, other.key);
  });

  test('a test key validates and changes nothing', async () => {
    const test = await createCustomer(t, { isTest: true });
    const name = fresh();
    const res = await call(t.app, 'POST', '/v2/dns/zones', { key: test.key, body: { name } });
    assert.equal(res.statusCode, 201, res.body);
    assertInvalid(await call(t.app, 'POST', '/v2/dns/zones', { key: test.key, body: { name: 'com' } }), 'name');
    const held = await sql<{ n: number }>`SELECT count(*)::int AS n FROM dns_zones WHERE name = ${name}`.execute(t.database.db);
    assert.equal(held.rows[0]!.n, 0);
    const queued = await sql<{ n: number }>`SELECT count(*)::int AS n FROM dns_outbox WHERE zone_name = ${name}`.execute(t.database.db);
    assert.equal(queued.rows[0]!.n, 0);
  });

  test('a registered domain gets its zone, with the domain on DNS_NAMESERVERS', async () => {
    const d = await activeDomain(t, c);
    assert.deepEqual(d.nameservers, ['ns1.hostcloud.test', 'ns2.hostcloud.test']);
    const list = json(await call(t.app, 'GET', '/v2/dns/zones', { key: c.key, query: { per_page: '100' } })).data;
    const z = list.find((x: Json) => x.name === d.domain);
    assert.ok(z, 'the domain has a zone');
    assert.equal(z.records_count, 3);
  });
});

describe('records', () => {
  let z: Json;
  before(async () => {
    z = await zone();
  });

  test('201: every type, its content normalised; fqdn; Location; the serial rises', async () => {
    const before = json(await call(t.app, 'GET', `/v2/dns/zones/${z.id}`, { key: c.key })).data.serial;
    const cases: [Record<string, unknown>, Partial<Json>][] = [
      [{ name: 'www', type: 'A', content: '192.0.2.10', ttl: 300 }, { fqdn: `www.${z.name}`, content: '192.0.2.10', ttl: 300, priority: null }],
      [{ name: `v6.${z.name}.`, type: 'AAAA', content: '2001:DB8:0:0::10' }, { name: 'v6', content: '2001:db8::10', ttl: 3600 }],
      [{ name: 'alias', type: 'CNAME', content: 'Target.Example.net.' }, { content: 'target.example.net' }],
      [{ name: '@', type: 'MX', content: 'mail.example.com', priority: 10 }, { fqdn: z.name, priority: 10 }],
      [{ name: '_dmarc', type: 'TXT', content: 'v=DMARC1; p=none; "quoted"' }, { content: 'v=DMARC1; p=none; "quoted"' }],
      [{ name: 'sub', type: 'NS', content: 'ns.elsewhere.net' }, { content: 'ns.elsewhere.net' }],
      [{ name: '_sip._tcp', type: 'SRV', content: '5  5060 sip.example.com.', priority: 20 }, { content: '5 5060 sip.example.com', priority: 20 }],
      [{ name: '@', type: 'CAA', content: '0 ISSUE "letsencrypt.org"' }, { content: '0 issue "letsencrypt.org"' }],
      [{ name: '*.dev', type: 'A', content: '192.0.2.11' }, { name: '*.dev' }],
    ];
    for (const [body, expected] of cases) {
      const res = await addRecord(z, body);
      assert.equal(res.statusCode, 201, res.body);
      const r = json(res).data;
      assert.match(r.id, /^dnr_[0-9A-Za-z]{16}$/);
      assert.equal(r.type, body.type);
      assert.equal(r.managed, false);
      for (const [k, v] of Object.entries(expected)) assert.deepEqual(r[k], v, `${String(body.type)} ${k}`);
      assert.equal(res.headers.location, `http://api.test/v2/dns/zones/${z.id}/records/${r.id}`);
    }
    const after = json(await call(t.app, 'GET', `/v2/dns/zones/${z.id}`, { key: c.key })).data;
    assert.equal(after.serial, before + cases.length);
    assert.equal(after.records_count, 3 + cases.length);
    const mx = json(await call(t.app, 'GET', `/v2/dns/zones/${z.id}/records`, { key: c.key, query: { type: 'MX' } })).data;
    assert.equal(mx.length, 1);
    const www = json(await call(t.app, 'GET', `/v2/dns/zones/${z.id}/records`, { key: c.key, query: { name: `www.${z.name}` } })).data;
    assert.deepEqual(www.map((r: Json) => r.type), ['A']);
  });

  test('422 naming the field: content that does not fit the type', async () => {
    const bad: [string, string, number?][] = [
      ['A', '2001:db8::1'], ['A', '300.1.1.1'], ['A', 'example.com'], ['AAAA', '192.0.2.1'], ['AAAA', 'nope'],
      ['CNAME', 'not a host'], ['NS', '192.0.2.1'], ['MX', 'mail..example.com', 10], ['SRV', '5 sip.example.com', 10],
      ['SRV', '5 70000 sip.example.com', 10], ['CAA', 'issue letsencrypt.org'], ['CAA', '256 issue "x"'], ['TXT', 'line\nbreak'],
    ];
    for (const [type, content, priority] of bad) {
      assertInvalid(await addRecord(z, { name: 'bad', type, content, ...(priority === undefined ? {} : { priority }) }), 'content');
    }
  });

  test('422: MX/SRV without priority, a priority elsewhere, ttl out of range, a name outside the zone, a bad label, an unknown type', async () => {
    assertInvalid(await addRecord(z, { name: 'm', type: 'MX', content: 'mail.example.com' }), 'priority');
    assertInvalid(await addRecord(z, { name: '_s._tcp', type: 'SRV', content: '1 80 web.example.com' }), 'priority');
    assertInvalid(await addRecord(z, { name: 'a', type: 'A', content: '192.0.2.1', priority: 5 }), 'priority');
    assertInvalid(await addRecord(z, { name: 'a', type: 'A', content: '192.0.2.1', ttl: 59 }), 'ttl');
    assertInvalid(await addRecord(z, { name: 'a', type: 'A', content: '192.0.2.1', ttl: 86_401 }), 'ttl');
    assertInvalid(await addRecord(z, { name: 'www.other-zone.com.', type: 'A', content: '192.0.2.1' }), 'name');
    assertInvalid(await addRecord(z, { name: 'bad label!', type: 'A', content: '192.0.2.1' }), 'name');
    assertInvalid(await addRecord(z, { name: 'a', type: 'SOA', content: 'x' }), 'type');
    assertInvalid(await addRecord(z, { name: 'a', type: 'PTR', content: 'x.example.com' }), 'type');
  });

  test('CNAME: not at the apex, not beside other records, and nothing beside it', async () => {
    assertInvalid(await addRecord(z, { name: '@', type: 'CNAME', content: 'elsewhere.example.net' }), 'name');
    await record(z, { name: 'both', type: 'A', content: '192.0.2.1' });
    assertInvalid(await addRecord(z, { name: 'both', type: 'CNAME', content: 'elsewhere.example.net' }), 'name');
    await record(z, { name: 'only', type: 'CNAME', content: 'elsewhere.example.net' });
    assertInvalid(await addRecord(z, { name: 'only', type: 'TXT', content: 'hello' }), 'name');
    assertInvalid(await addRecord(z, { name: 'only', type: 'CNAME', content: 'another.example.net' }), 'name');
  });

  test('the managed SOA and NS: 409 to change or delete, an NS at the apex 409; the same record twice 409', async () => {
    const records = json(await call(t.app, 'GET', `/v2/dns/zones/${z.id}/records`, { key: c.key })).data;
    for (const managed of records.filter((r: Json) => r.managed)) {
      assertConflict(await call(t.app, 'PATCH', `/v2/dns/zones/${z.id}/records/${managed.id}`, { key: c.key, body: { ttl: 300 } }));
      assertConflict(await call(t.app, 'DELETE', `/v2/dns/zones/${z.id}/records/${managed.id}`, { key: c.key }));
    }
    assertConflict(await addRecord(z, { name: '@', type: 'NS', content: 'ns.elsewhere.net' }));
    await record(z, { name: 'twice', type: 'A', content: '192.0.2.7' });
    assertConflict(await addRecord(z, { name: 'twice', type: 'A', content: '192.0.2.7' }));
  });

  test('update and delete: what is given changes, checked as at creation; 404 for a record of another zone', async () => {
    const r = await record(z, { name: 'move', type: 'A', content: '192.0.2.1' });
    const res = await call(t.app, 'PATCH', `/v2/dns/zones/${z.id}/records/${r.id}`, { key: c.key, body: { content: '192.0.2.2', ttl: 120 } });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual([json(res).data.content, json(res).data.ttl, json(res).data.name], ['192.0.2.2', 120, 'move']);
    assertInvalid(await call(t.app, 'PATCH', `/v2/dns/zones/${z.id}/records/${r.id}`, { key: c.key, body: { content: 'nope' } }), 'content');
    const renamed = json(await call(t.app, 'PATCH', `/v2/dns/zones/${z.id}/records/${r.id}`, { key: c.key, body: { name: 'moved' } })).data;
    assert.equal(renamed.fqdn, `moved.${z.name}`);
    const z2 = await zone();
    assert.equal((await call(t.app, 'PATCH', `/v2/dns/zones/${z2.id}/records/${r.id}`, { key: c.key, body: { ttl: 300 } })).statusCode, 404);
    const del = await call(t.app, 'DELETE', `/v2/dns/zones/${z.id}/records/${r.id}`, { key: c.key });
    assert.equal(del.statusCode, 200, del.body);
    assert.equal((await call(t.app, 'DELETE', `/v2/dns/zones/${z.id}/records/${r.id}`, { key: c.key })).statusCode, 404);
  });

  test('500 records a zone at most: 422 QUOTA_EXCEEDED', async () => {
    const q = await zone();
    await sql`INSERT INTO dns_records (id, zone_id, name, type, content, ttl)
      SELECT 'dnr_' || lpad(i::text, 16, '0'), ${q.id}, 'h' || i, 'A', '192.0.2.1', 3600 FROM generate_series(1, 499) i`.execute(t.database.db);
    await record(q, { name: 'last', type: 'A', content: '192.0.2.1' });
    assertInvalid(await addRecord(q, { name: 'one-more', type: 'A', content: '192.0.2.1' }), 'name', 'QUOTA_EXCEEDED');
  });

  test('50 writes at once to one zone: every one lands, each with its own serial', async () => {
    const q = await zone();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => addRecord(q, { name: `p${i}`, type: 'A', content: `192.0.2.${i + 1}` })));
    assert.deepEqual(answers.map((a) => a.statusCode), Array(50).fill(201));
    const after = json(await call(t.app, 'GET', `/v2/dns/zones/${q.id}`, { key: c.key })).data;
    assert.equal(after.serial, q.serial + 50);
    assert.equal(after.records_count, 53);
  });

  // Eight clients at once, each sending its next write as soon as the last is answered: more
  // than the pool holds would measure the machine's load (503 once a connection is not free
  // within DATABASE_CONNECT_TIMEOUT_MS), not the writes; how long the zone's lock is held is the
  // next test's, and npm run bench measures 100 writes/s.
  test('200 writes to one zone by 8 clients at once (adds, changes, deletes, one name raced): every one answered, the rules hold, the serial rises once for each', async () => {
    const q = await zone();
    const seed = await Promise.all(Array.from({ length: 40 }, (_, i) => record(q, { name: `s${i}`, type: 'TXT', content: `seed ${i}` })));
    const before = json(await call(t.app, 'GET', `/v2/dns/zones/${q.id}`, { key: c.key })).data;
    const writes = [
      ...Array.from({ length: 100 }, (_, i) => () => addRecord(q, { name: `w${i}`, type: 'A', content: `198.51.100.${i + 1}` })),
      ...seed.slice(0, 20).map((r, i) => () => call(t.app, 'PATCH', `/v2/dns/zones/${q.id}/records/${r.id}`, { key: c.key, body: { content: `changed ${i}`, ttl: 300 } })),
      ...seed.slice(20).map((r) => () => call(t.app, 'DELETE', `/v2/dns/zones/${q.id}/records/${r.id}`, { key: c.key })),
      // One name raced by CNAMEs and addresses: whichever lands first, the other kind is refused.
      ...Array.from({ length: 40 }, (_, i) => () => addRecord(q, i % 2 ? { name: 'race', type: 'CNAME', content: `t${i}.example.net` } : { name: 'race', type: 'A', content: `203.0.113.${i + 1}` })),
    ];
    // Interleaved, so the race runs beside the rest.
    const order = writes.map((_, i) => i).sort((a, b) => (a % 7) - (b % 7) || a - b);
    const codes: number[] = Array(writes.length).fill(0);
    let next = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < order.length) {
        const i = order[next++]!;
        codes[i] = (await writes[i]!()).statusCode;
      }
    }));
    assert.deepEqual(codes.slice(0, 140), [...Array(100).fill(201), ...Array(40).fill(200)]);
    assert.ok(codes.slice(140).every((code) => code === 201 || code === 422), JSON.stringify(codes.slice(140)));
    const race = json(await call(t.app, 'GET', `/v2/dns/zones/${q.id}/records?name=race&per_page=100`, { key: c.key })).data;
    const types = new Set(race.map((r: Json) => r.type));
    assert.ok(types.size === 1 && (types.has('A') ? race.length === 20 : race.length === 1), JSON.stringify(race.map((r: Json) => r.type)));
    const landed = codes.filter((code) => code < 300).length;
    const after = json(await call(t.app, 'GET', `/v2/dns/zones/${q.id}`, { key: c.key })).data;
    assert.equal(after.serial, before.serial + landed);
    assert.equal(after.records_count, before.records_count + 100 - 20 + race.length);
  });

  test('writes at once in the core: each gets its own serial, one after another', async () => {
    const q = await zone();
    const s = { db: t.database.db, accountId: c.accountId, now: new Date() };
    const seed = await createRecord(s, q.id, { name: 'seed', type: 'TXT', content: 'seed' });
    const done = await Promise.all([
      ...Array.from({ length: 16 }, (_, i) => createRecord(s, q.id, { name: `c${i}`, type: 'AAAA', content: `2001:db8::${i + 1}` })),
      updateRecord(s, q.id, seed.record.id, { content: 'changed' }),
    ]);
    const removed = await deleteRecord(s, q.id, seed.record.id);
    const serials = [...done, removed].map((d) => d.zone.serial).sort((a, b) => a - b);
    assert.deepEqual(serials, Array.from({ length: 18 }, (_, i) => seed.zone.serial + 1 + i));
  });

  test('a write locks the zone\'s row in one statement that commits on its own: no transaction held open across round trips (adding: the quota counted after)', async () => {
    const q = await zone();
    const statements: string[] = [];
    const logged = new Kysely<DB>({ dialect: new PostgresDialect({ pool: t.database.pool }), log: (e) => { statements.push(e.query.sql); } });
    const s = { db: logged, accountId: c.accountId, now: new Date() };
    const verbs = () => statements.map((q) => (/pg_advisory_unlock/.test(q) ? 'unlock' : /pg_advisory_lock/.test(q) ? 'lock' : q.trim().split(/\s+/)[0]!.toLowerCase()));
    const afterLock = () => verbs().slice(statements.findIndex((q) => /UPDATE dns_zones/.test(q)));
    const added = await createRecord(s, q.id, { name: 'www', type: 'A', content: '192.0.2.7' });
    assert.ok(!verbs().some((v) => v === 'begin' || v === 'commit'), verbs().join(' '));
    assert.deepEqual(afterLock(), ['with', 'select', 'unlock'], statements.join('\n---\n'));
    assert.match(statements.find((q) => /UPDATE dns_zones/.test(q))!, /INSERT INTO dns_records[\s\S]*INSERT INTO dns_outbox/);
    for (const write of [() => updateRecord(s, q.id, added.record.id, { ttl: 300 }), () => deleteRecord(s, q.id, added.record.id)]) {
      statements.length = 0;
      await write();
      assert.deepEqual(afterLock(), ['with', 'unlock'], statements.join('\n---\n'));
    }
    // The name locks are released: another connection takes them at once.
    await t.database.db.connection().execute(async (conn) => {
      const free = await sql<{ ok: boolean }>`SELECT pg_try_advisory_lock(hashtext('hostcloud.dns.name'), hashtext(${`${q.id} www`})) AS ok`.execute(conn);
      assert.equal(free.rows[0]!.ok, true);
      await sql`SELECT pg_advisory_unlock_all()`.execute(conn);
    });
  });

});
