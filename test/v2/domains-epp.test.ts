// Domains through the API with REGISTRAR_DRIVER=epp against the EPP test registry (in process on
// 127.0.0.1, TLS with a test CA): a registration (its frames written to
// test-output/epp-registration.txt), a renewal, a transfer in that the losing registrar approves
// and the worker learns of from the poll queue, the registry's notices recorded for the operator,
// and a registry that is down: retried, then failed with the charge refunded.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { type Customer, type TestApp, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { balanceOf, freshName, registerDomain } from '../helpers/domains.ts';
import { type RegistryFixture, startRegistryFixture } from '../helpers/epp.ts';
import { until } from '../helpers/worker-process.ts';

describe('domains over EPP', { timeout: 240_000 }, () => {
  let fx: RegistryFixture;
  let t: TestApp;
  let c: Customer;

  before(async () => {
    fx = await startRegistryFixture();
    t = await startApp({
      worker: 'embedded', registrarDriver: 'epp', eppHost: '127.0.0.1', eppPort: fx.registry.port, eppClientId: 'hostcloud', eppPassword: 'test-password',
      eppClientCert: fx.files.cert, eppClientKey: fx.files.key, eppCa: fx.files.ca, eppSessions: 2, eppPollS: 1, jobRetryLimit: 1,
    });
    c = await createCustomer(t, { deposit: '500.00' });
  });
  after(() => fx?.close());

  test('a registration: the registry holds the name, the registrant is the account; the frames, in order', async () => {
    const name = freshName('com', 'epp');
    const check = await call(t.app, 'GET', '/v2/domains/check', { key: c.key, query: { domain: name } });
    assert.equal(json(check).data.available, true, check.body);
    const start = fx.frames.length;
    const created = await registerDomain(t, c, { domain: name, nameservers: ['ns1.epp-dns.net', 'ns2.epp-dns.net'] });
    const op = await waitForOperation(t, c.key, created.operation.id);
    assert.equal(op.status, 'completed', op.detail);
    const d = json(await call(t.app, 'GET', `/v2/domains/${created.id}`, { key: c.key })).data;
    assert.equal(d.status, 'active');
    const held = fx.registry.state.domains.get(name)!;
    assert.equal(held.sponsor, 'hostcloud');
    assert.equal(new Date(d.expires_at).getTime(), held.exDate.getTime());
    assert.equal(fx.registry.state.contacts.get(held.registrant)!.email.endsWith('@example.com'), true);
    assert.ok(held.statuses.has('clientTransferProhibited'));
    assert.equal(fx.registry.state.counters.domainCreates.get(name), 1);
    const mine = fx.frames.slice(start).filter((f) => f.xml.includes(created.operation.id) || f.xml.includes(name) || /<(greeting|login)>|<result code="1000"><msg>[^<]*<\/msg><\/result><trID><clTRID>login/.test(f.xml));
    await fs.mkdir('test-output', { recursive: true });
    await fs.writeFile('test-output/epp-registration.txt', mine.map((f) => `${f.dir === 'C' ? 'C→S' : 'S→C'} (session ${f.conn})\n${f.xml}\n`).join('\n'));
    assert.ok(fx.frames.some((f) => f.xml.includes(`<clTRID>create:${created.operation.id}</clTRID>`)), 'the create carries the operation id');
  });

  test('a renewal: the registry adds the year once', async () => {
    const name = freshName('com', 'epp-renew');
    const created = await registerDomain(t, c, { domain: name });
    assert.equal((await waitForOperation(t, c.key, created.operation.id)).status, 'completed');
    const before = fx.registry.state.domains.get(name)!.exDate;
    const res = await call(t.app, 'POST', `/v2/domains/${created.id}/renew`, { key: c.key, body: { years: 1 } });
    assert.equal(res.statusCode, 200, res.body);
    const after = fx.registry.state.domains.get(name)!.exDate;
    assert.equal(after.getUTCFullYear(), before.getUTCFullYear() + 1);
    assert.equal(new Date(json(res).data.expires_at).getTime(), after.getTime());
    assert.equal(fx.registry.state.counters.renewals.get(name), 1);
  });

  test('a transfer in: pending, approved by the losing registrar, learnt from the poll queue → active, domain.transferred', async () => {
    const name = freshName('com', 'epp-in');
    fx.registry.state.seedDomain(name, 'otherreg', { authInfo: 'Move-Me#2026' });
    const wrong = await call(t.app, 'POST', '/v2/domains/transfer', { key: c.key, body: { domain: name, auth_code: 'nope' } });
    assert.equal(wrong.statusCode, 422, wrong.body);
    assert.equal(json(wrong).error.errors[0].field, 'auth_code');
    const res = await call(t.app, 'POST', '/v2/domains/transfer', { key: c.key, body: { domain: name, auth_code: 'Move-Me#2026' } });
    assert.equal(res.statusCode, 201, res.body);
    const { id, operation } = json(res).data;
    await until('the transfer to be requested', 10_000, async () => (fx.registry.state.transfers.get(name)?.status === 'pending' ? true : undefined));
    fx.registry.approveTransfer(name);
    const op = await waitForOperation(t, c.key, operation.id, 20_000);
    assert.equal(op.status, 'completed', op.detail);
    assert.equal(json(await call(t.app, 'GET', `/v2/domains/${id}`, { key: c.key })).data.status, 'active');
    const events = await t.database.db.selectFrom('events').select('type').where('resource_id', '=', id).execute();
    assert.ok(events.some((e) => e.type === 'domain.transferred'));
    const recorded = await t.database.db.selectFrom('registrar_messages').selectAll().where('domain', '=', name).execute();
    assert.equal(recorded[0]?.kind, 'transfer');
  });

  test('a registry notice is recorded for the operator and logged', async () => {
    fx.registry.state.enqueue('hostcloud', 'Scheduled maintenance: EPP unavailable 2026-12-06 02:00-03:00 UTC');
    const row = await until('the notice to be recorded', 10_000, async () => (await t.database.db.selectFrom('registrar_messages').selectAll().where('kind', '=', 'notice').executeTakeFirst()) ?? undefined);
    assert.match(row.text, /Scheduled maintenance/);
    assert.ok(t.logs.some((l) => l.includes('Scheduled maintenance')));
  });

  test('the registry drops every create: the registration is retried, then fails and the charge is refunded', async () => {
    const balance = await balanceOf(t, c);
    fx.registry.injectFault('drop-before', { verb: 'create', object: 'domain' }, 100);
    const name = freshName('com', 'epp-down');
    const created = await registerDomain(t, c, { domain: name });
    const op = await waitForOperation(t, c.key, created.operation.id, 60_000);
    assert.equal(op.status, 'failed', op.detail);
    assert.equal(await balanceOf(t, c), balance);
    assert.equal(json(await call(t.app, 'GET', `/v2/domains/${created.id}`, { key: c.key })).data.status, 'cancelled');
    assert.equal(fx.registry.state.domains.has(name), false);
    fx.registry.state.faults.length = 0;
  });

  test('the registry down: a check answers 502 UPSTREAM_ERROR', async () => {
    await fx.registry.close();
    const res = await call(t.app, 'GET', '/v2/domains/check', { key: c.key, query: { domain: freshName('com', 'epp-gone') } });
    assert.equal(res.statusCode, 502, res.body);
    assert.equal(json(res).error.code, 'UPSTREAM_ERROR');
  });
});
