// DNS through @hostcloud/sdk (dns.zones, dns.records) and `hc dns zone|record …` against the app
// on a real port: the binary piped (JSON on stdout, nothing on stderr, exit codes), the rest
// in-process (tables, filters, usage errors refused before anything is sent).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { Hostcloud, HostcloudError } from '@hostcloud/sdk';
import { createCustomer, startApp } from '../helpers/app.ts';
import { configHome, hc, spawnHc } from '../helpers/hc.ts';

const t = await startApp({ worker: 'embedded' });
await t.app.listen({ port: 0, host: '127.0.0.1' });
const url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
const customer = await createCustomer(t);
const env = { HC_URL: url, HC_TOKEN: customer.key };
const fresh = () => `dns-${randomBytes(4).toString('hex')}.example.com`;

test('SDK: dns.zones create/get/list/delete and dns.records create/list/update/delete; errors as HostcloudError', async () => {
  const sdk = new Hostcloud({ baseUrl: url, token: customer.key });
  const name = fresh();
  const zone = await sdk.dns.zones.create({ name });
  assert.equal(zone.name, name);
  assert.deepEqual(zone.nameservers, ['ns1.hostcloud.test', 'ns2.hostcloud.test']);
  assert.equal((await sdk.dns.zones.get(zone.id)).id, zone.id);
  const zones = [];
  for await (const z of sdk.dns.zones.list()) zones.push(z.id);
  assert.ok(zones.includes(zone.id));

  const www = await sdk.dns.records.create(zone.id, { name: 'www', type: 'A', content: '192.0.2.10', ttl: 300 });
  assert.equal(www.fqdn, `www.${name}`);
  const mx = await sdk.dns.records.create(zone.id, { name: '@', type: 'MX', content: `mail.${name}`, priority: 10 });
  const all = [];
  for await (const r of sdk.dns.records.list(zone.id)) all.push(r);
  assert.deepEqual(all.map((r) => r.type), ['SOA', 'NS', 'NS', 'A', 'MX']);
  const onlyMx = await sdk.dns.records.list(zone.id, { type: 'MX' }).firstPage();
  assert.deepEqual(onlyMx.items.map((r) => r.id), [mx.id]);
  const changed = await sdk.dns.records.update(zone.id, www.id, { content: '192.0.2.11' });
  assert.equal(changed.content, '192.0.2.11');
  assert.equal(changed.ttl, 300);
  assert.equal((await sdk.dns.records.delete(zone.id, www.id)).id, www.id);

  const bad = await sdk.dns.records.create(zone.id, { name: 'x', type: 'A', content: 'not-an-address' }).catch((e: unknown) => e);
  assert.ok(bad instanceof HostcloudError);
  assert.equal(bad.status, 422);
  assert.deepEqual(bad.fieldErrors.map((f) => f.field), ['content']);
  const missing = await sdk.dns.zones.get('dnz_0000000000000000').catch((e: unknown) => e);
  assert.ok(missing instanceof HostcloudError && missing.status === 404);

  assert.equal((await sdk.dns.zones.delete(zone.id)).id, zone.id);
});

test('hc dns, the binary piped: zone create, record add and list print JSON and nothing else; an API error exits 1', async () => {
  const e = { ...env, XDG_CONFIG_HOME: await configHome() };
  const name = fresh();
  const made = await spawnHc(['dns', 'zone', 'create', name], e);
  assert.equal(made.code, 0, made.stderr);
  assert.equal(made.stderr, '');
  const zone = JSON.parse(made.stdout);
  assert.equal(zone.name, name);
  const added = await spawnHc(['dns', 'record', 'add', zone.id, '--name', 'www', '--type', 'A', '--content', '192.0.2.10', '--ttl', '300'], e);
  assert.equal(added.code, 0, added.stderr);
  assert.equal(added.stderr, '');
  assert.equal(JSON.parse(added.stdout).fqdn, `www.${name}`);
  const [listed, refused] = await Promise.all([
    spawnHc(['dns', 'record', 'list', zone.id, '--type', 'A'], e),
    spawnHc(['dns', 'record', 'add', zone.id, '--name', '@', '--type', 'CNAME', '--content', 'elsewhere.example.net'], e),
  ]);
  assert.equal(listed.code, 0, listed.stderr);
  assert.deepEqual(JSON.parse(listed.stdout).map((r: { content: string }) => r.content), ['192.0.2.10']);
  assert.equal(refused.code, 1);
  assert.equal(refused.stdout, '');
  assert.match(refused.stderr, /^error: VALIDATION_FAILED: /);
  assert.match(refused.stderr, /\n {2}name: /);
});

test('hc dns in-process: zone list/get/delete and record update/delete, tables and JSON; usage errors exit 2 before anything is sent', async () => {
  const name = fresh();
  const zone = JSON.parse((await hc(['dns', 'zone', 'create', name, '-o', 'json'], { env })).stdout);
  const table = await hc(['dns', 'zone', 'list', '-o', 'table'], { env });
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /^ID +NAME +RECORDS +SERIAL +SYNCED\n/);
  assert.ok(table.stdout.split('\n').some((l) => l.startsWith(zone.id) && l.includes(name)), table.stdout);
  const got = await hc(['dns', 'zone', 'get', zone.id, '-o', 'yaml'], { env });
  assert.match(got.stdout, new RegExp(`name: ${name.replace(/\./g, '\\.')}`));

  const rec = JSON.parse((await hc(['dns', 'record', 'add', zone.id, '--name', '_sip._tcp', '--type', 'SRV', '--content', `5 5060 sip.${name}`, '--priority', '10', '-o', 'json'], { env })).stdout);
  assert.equal(rec.priority, 10);
  const records = await hc(['dns', 'record', 'list', zone.id, '--no-header', '-o', 'table'], { env });
  assert.deepEqual(records.stdout.trim().split('\n').map((l) => l.split(/ +/)[2]), ['SOA', 'NS', 'NS', 'SRV']);
  const updated = await hc(['dns', 'record', 'update', zone.id, rec.id, '--priority', '20', '--ttl', '600', '-o', 'json'], { env });
  assert.equal(updated.code, 0, updated.stderr);
  assert.deepEqual([JSON.parse(updated.stdout).priority, JSON.parse(updated.stdout).ttl], [20, 600]);
  const removed = await hc(['dns', 'record', 'delete', zone.id, rec.id, '-o', 'json'], { env });
  assert.equal(JSON.parse(removed.stdout).id, rec.id);
  assert.equal((await hc(['dns', 'record', 'delete', zone.id, rec.id], { env })).code, 1);

  // Refused before anything is sent (nothing listens at this URL).
  const nowhere = { HC_URL: 'http://127.0.0.1:9', HC_TOKEN: customer.key };
  for (const args of [
    ['dns', 'record', 'update', zone.id, rec.id],
    ['dns', 'record', 'add', zone.id, '--name', 'www', '--type', 'PTR', '--content', 'x'],
    ['dns', 'record', 'add', zone.id, '--name', 'www', '--content', '192.0.2.1'],
    ['dns', 'record', 'add', zone.id, '--name', '@', '--type', 'MX', '--content', 'mail', '--priority', '70000'],
  ]) {
    const r = await hc(args, { env: nowhere });
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.doesNotMatch(r.stderr, /cannot reach/, args.join(' '));
  }
  const refused = await hc(['dns', 'zone', 'delete', zone.id], { env });
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /Delete zone .* and every record in it\? .*Not confirmed: add --yes \(nothing was done\)/);
  const gone = await hc(['dns', 'zone', 'delete', zone.id, '--yes', '-o', 'json'], { env });
  assert.equal(JSON.parse(gone.stdout).name, name);
  assert.equal((await hc(['dns', 'zone', 'get', zone.id], { env })).code, 1);
});
