// Every 201 names what it made in `Location` (v2, admin; v1 answers no 201): the resource's URL
// under PUBLIC_URL, which a GET reads where the resource has one, a replay repeats, and the OpenAPI
// document declares. Every other 201 of the suite is held to it too (test/helpers/app.ts reports a
// 201 without Location as an undeclared answer).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { freshName } from '../helpers/domains.ts';
import { serverBody } from '../helpers/servers.ts';
import { openSshKey } from '../helpers/ssh-keys.ts';

let t: TestApp;
let c: Customer;

before(async () => {
  t = await startApp();
  c = await createCustomer(t, { deposit: '200.00' });
});

/** The Location of a 201, as a path of this app (PUBLIC_URL is http://api.test in tests). */
function locationOf(res: LightMyRequestResponse): string {
  assert.equal(res.statusCode, 201, res.body);
  const location = String(res.headers.location ?? '');
  assert.ok(location.startsWith('http://api.test/'), `Location: ${location}`);
  return location.slice('http://api.test'.length);
}

test('v2: a created resource is read back at its Location; a replay names the same one', async () => {
  const idem = { 'idempotency-key': randomUUID() };
  const body = serverBody();
  const server = await call(t.app, 'POST', '/v2/servers', { key: c.key, body, headers: idem });
  const at = locationOf(server);
  assert.equal(at, `/v2/servers/${json(server).data.id}`);
  const read = await call(t.app, 'GET', at, { key: c.key });
  assert.equal(read.statusCode, 200, read.body);
  assert.equal(json(read).data.id, json(server).data.id);
  const replay = await call(t.app, 'POST', '/v2/servers', { key: c.key, body, headers: idem });
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.equal(locationOf(replay), at);

  const domain = await call(t.app, 'POST', '/v2/domains', { key: c.key, body: { domain: freshName(), years: 1 } });
  const domainAt = locationOf(domain);
  assert.equal(json(await call(t.app, 'GET', domainAt, { key: c.key })).data.id, json(domain).data.id);

  const ticket = await call(t.app, 'POST', '/v2/tickets', { key: c.key, body: { subject: 'Hello', message: 'Where is my server? It has not booted since this morning.' } });
  const ticketAt = locationOf(ticket);
  assert.equal(ticketAt, `/v2/tickets/${json(ticket).data.id}`);
  assert.equal((await call(t.app, 'GET', ticketAt, { key: c.key })).statusCode, 200);
  // A reply has no URL of its own: the thread that shows it.
  assert.equal(locationOf(await call(t.app, 'POST', `${ticketAt}/replies`, { key: c.key, body: { message: 'Any news on this? It still does not boot.' } })), ticketAt);

  const key = await call(t.app, 'POST', '/v2/ssh-keys', { key: c.key, body: { name: 'laptop', public_key: openSshKey('ed25519') } });
  const keyAt = locationOf(key);
  assert.equal(keyAt, `/v2/ssh-keys/${json(key).data.id}`);
  assert.equal((await call(t.app, 'DELETE', keyAt, { key: c.key })).statusCode, 200, 'where it is deleted');
});

test('admin: accounts, deposits, keys and catalog rows name their URL', async () => {
  const account = await adminCall(t, 'POST', '/admin/v1/accounts', { email: `loc-${randomUUID()}@example.com`, name: 'Location Ltd' });
  const accountAt = locationOf(account);
  assert.equal(accountAt, `/admin/v1/accounts/${json(account).data.id}`);
  assert.equal(json(await adminCall(t, 'GET', accountAt)).data.id, json(account).data.id);
  // A ledger row has no URL of its own: the account's transactions, where it is the newest.
  const deposit = await adminCall(t, 'POST', `${accountAt}/deposits`, { amount: '10.00' });
  const ledger = json(await adminCall(t, 'GET', locationOf(deposit))).data;
  assert.equal(ledger[0].id, json(deposit).data.id);
  const apiKey = await adminCall(t, 'POST', `${accountAt}/api-keys`, { name: 'k', ip_allowlist: ['127.0.0.1'] });
  assert.equal(locationOf(apiKey), `/admin/v1/api-keys/${json(apiKey).data.id}`);
  const plan = await adminCall(t, 'POST', '/admin/v1/plans', { name: 'Loc Plan', cpu_cores: 1, ram_mb: 1024, storage_gb: 10, bandwidth_gb: 100, price: '3.00' });
  assert.equal(json(await adminCall(t, 'GET', locationOf(plan))).data.id, json(plan).data.id);
  const tld = await adminCall(t, 'POST', '/admin/v1/tld-prices', { tld: '.loc', register: '1.00', renewal: '1.00', transfer: '1.00' });
  assert.equal(json(await adminCall(t, 'GET', locationOf(tld))).data.tld, '.loc');
});

test('the document declares Location on every 201 of v2', async () => {
  const doc = json(await call(t.app, 'GET', '/v2/openapi.json'));
  let created = 0;
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { responses?: Record<string, { headers?: Record<string, unknown> }> }>>)) {
    for (const [method, op] of Object.entries(item)) {
      const r201 = op.responses?.['201'];
      if (!r201) continue;
      created++;
      assert.deepEqual(r201.headers?.Location, { $ref: '#/components/headers/Location' }, `${method} ${path}`);
    }
  }
  assert.ok(created >= 10, `201 operations: ${created}`);
  assert.match(doc.components.headers.Location.description, /On a 201, the URL of what was created/);
});
