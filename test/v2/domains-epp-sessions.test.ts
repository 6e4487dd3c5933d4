// Domains over EPP through the API when the registry misbehaves mid-command, and the registrant
// contacts following the account's profile:
// - the registry drops the TCP connection after it applied a create, a renew or a transfer request:
//   the driver logs in again, asks (domain info, transfer query) before it would send the command
//   again, and the customer's operation completes once;
// - a pending transfer is checked on a backoff (each wait at least double the last), and the poll
//   queue's news ends the wait;
// - a profile change updates the registrant contacts at the registry through the contact outbox,
//   keeping each contact's disclose flags (WHOIS privacy); a registry outage is retried, a refusal
//   parked until the next change.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Customer, type TestApp, adminCall, call, createCustomer, json, startApp, waitForOperation } from '../helpers/app.ts';
import { freshName, registerDomain } from '../helpers/domains.ts';
import { type RegistryFixture, startRegistryFixture } from '../helpers/epp.ts';
import { until } from '../helpers/worker-process.ts';
import { contactIdOf } from '../../src/providers/registrar/epp/objects.ts';

describe('EPP sessions dropped mid-command, transfer checks, contacts after a profile change', { timeout: 300_000 }, () => {
  let fx: RegistryFixture;
  let t: TestApp;
  let c: Customer;

  before(async () => {
    fx = await startRegistryFixture();
    t = await startApp({
      worker: 'embedded', registrarDriver: 'epp', eppHost: '127.0.0.1', eppPort: fx.registry.port, eppClientId: 'hostcloud', eppPassword: 'test-password',
      eppClientCert: fx.files.cert, eppClientKey: fx.files.key, eppCa: fx.files.ca, eppSessions: 1, eppPollS: 1, jobRetryLimit: 2,
    });
    c = await createCustomer(t, { deposit: '500.00' });
  });
  after(() => fx?.close());

  /** Client frames about `name` from index `from` on. */
  const sent = (name: string, from = 0) => fx.frames.slice(from).filter((f) => f.dir === 'C' && f.xml.includes(name));
  const kindOf = (xml: string) => /<(domain:(?:create|info|renew|check|update)|transfer op="\w+")/.exec(xml)?.[1] ?? '?';

  test('a create whose connection drops after the registry applied it: re-login, domain info, no second create; the order completes once', async () => {
    const name = freshName('com', 'epp-drop');
    const logins = fx.registry.state.counters.logins;
    const start = fx.frames.length;
    fx.registry.injectFault('drop-after', { verb: 'create', object: 'domain' });
    const created = await registerDomain(t, c, { domain: name });
    const op = await waitForOperation(t, c.key, created.operation.id, 60_000);
    assert.equal(op.status, 'completed', op.detail);
    assert.equal(fx.registry.state.counters.domainCreates.get(name), 1);
    assert.ok(fx.registry.state.counters.logins > logins, 'the driver logged in again');
    const kinds = sent(name, start).map((f) => kindOf(f.xml));
    const createAt = kinds.indexOf('domain:create');
    assert.equal(kinds.filter((k) => k === 'domain:create').length, 1, kinds.join(' '));
    assert.equal(kinds[createAt + 1], 'domain:info', `checked before anything else: ${kinds.join(' ')}`);
    assert.equal(json(await call(t.app, 'GET', `/v2/domains/${created.id}`, { key: c.key })).data.status, 'active');
  });

  test('a renew whose connection drops after the registry applied it: the expiry tells, 200 once, one year', async () => {
    const name = freshName('com', 'epp-drop-renew');
    const created = await registerDomain(t, c, { domain: name });
    assert.equal((await waitForOperation(t, c.key, created.operation.id)).status, 'completed');
    const before = fx.registry.state.domains.get(name)!.exDate;
    const start = fx.frames.length;
    fx.registry.injectFault('drop-after', { verb: 'renew' });
    const res = await call(t.app, 'POST', `/v2/domains/${created.id}/renew`, { key: c.key, body: { years: 1 } });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(fx.registry.state.counters.renewals.get(name), 1);
    const after = fx.registry.state.domains.get(name)!.exDate;
    assert.equal(after.getUTCFullYear(), before.getUTCFullYear() + 1);
    assert.equal(new Date(json(res).data.expires_at).getTime(), after.getTime());
    const kinds = sent(name, start).map((f) => kindOf(f.xml));
    assert.equal(kinds.filter((k) => k === 'domain:renew').length, 1, kinds.join(' '));
    assert.equal(kinds[kinds.indexOf('domain:renew') + 1], 'domain:info', kinds.join(' '));
  });

  test('a transfer request whose connection drops: transfer query, not a second request; checked on a backoff; approval via the poll queue', async () => {
    const name = freshName('com', 'epp-drop-in');
    fx.registry.state.seedDomain(name, 'otherreg', { authInfo: 'Drop-In#2026' });
    const start = fx.frames.length;
    fx.registry.injectFault('drop-after', { verb: 'transfer', op: 'request' });
    const res = await call(t.app, 'POST', '/v2/domains/transfer', { key: c.key, body: { domain: name, auth_code: 'Drop-In#2026' } });
    assert.equal(res.statusCode, 201, res.body);
    const { id, operation } = json(res).data;
    // The query that stood in for the lost answer, then the runner's checks while the transfer is
    // pending: after 1 s, then 2 s, then 4 s… (each wait double the last).
    const queries = () => {
      const frames = sent(name, start);
      const requested = frames.findIndex((f) => f.xml.includes('transfer op="request"'));
      return requested < 0 ? [] : frames.slice(requested + 1).filter((f) => f.xml.includes('transfer op="query"'));
    };
    await until('three checks of the pending transfer', 60_000, async () => (queries().length >= 3 ? true : undefined));
    assert.equal(fx.registry.state.counters.transferRequests.get(name), 1, 'one request reached the registry');
    assert.equal(sent(name, start).filter((f) => f.xml.includes('transfer op="request"')).length, 1);
    const [q1, q2, q3] = queries();
    // Lower bounds only: a wait is never shorter than asked, however loaded the machine.
    assert.ok(q2!.at - q1!.at >= 950, `first wait ${q2!.at - q1!.at} ms`);
    assert.ok(q3!.at - q2!.at >= 1950, `second wait ${q3!.at - q2!.at} ms`);
    fx.registry.approveTransfer(name);
    const op = await waitForOperation(t, c.key, operation.id, 60_000);
    assert.equal(op.status, 'completed', op.detail);
    assert.equal(json(await call(t.app, 'GET', `/v2/domains/${id}`, { key: c.key })).data.status, 'active');
    assert.equal(fx.registry.state.domains.get(name)!.sponsor, 'hostcloud');
  });

  describe('registrant contacts after a profile change', () => {
    let p: Customer;
    let publicId: string;
    let privateId: string;
    const contact = (id: string) => fx.registry.state.contacts.get(id)!;
    const outbox = () => t.database.db.selectFrom('registrar_contact_sync').selectAll().where('account_id', '=', p.accountId).executeTakeFirst();
    const patch = (body: Record<string, unknown>) => adminCall(t, 'PATCH', `/admin/v1/accounts/${p.accountId}`, body);

    before(async () => {
      p = await createCustomer(t, { deposit: '100.00' });
      // One domain with WHOIS privacy (the private twin contact, disclose flag 0), one without (flag 1).
      const open = await registerDomain(t, p, { domain: freshName('com', 'epp-open'), whois_privacy: false });
      const hidden = await registerDomain(t, p, { domain: freshName('com', 'epp-hidden'), whois_privacy: true });
      for (const d of [open, hidden]) assert.equal((await waitForOperation(t, p.key, d.operation.id, 60_000)).status, 'completed');
      publicId = contactIdOf(p.accountId, false);
      privateId = contactIdOf(p.accountId, true);
      assert.equal(contact(publicId).disclose?.flag, true);
      assert.equal(contact(privateId).disclose?.flag, false);
    });

    test('name, company, email, phone and country reach both contacts; disclose flags and the address stay', async () => {
      const updates = (id: string) => fx.registry.state.counters.contactUpdates.get(id) ?? 0;
      const [pub0, priv0] = [updates(publicId), updates(privateId)];
      const city = contact(publicId).postal[0]!.city;
      const res = await patch({ name: 'Grace Hopper', company: 'Hopper Compilers', email: 'grace@example.org', phone: '+49 30 1234567', country: 'de' });
      assert.equal(res.statusCode, 200, res.body);
      await until('the registry to hold the new profile', 30_000, async () => (contact(publicId).email === 'grace@example.org' && contact(privateId).email === 'grace@example.org' ? true : undefined));
      for (const id of [publicId, privateId]) {
        const held = contact(id);
        assert.equal(held.postal[0]!.name, 'Grace Hopper');
        assert.equal(held.postal[0]!.org, 'Hopper Compilers');
        assert.equal(held.postal[0]!.cc, 'DE');
        assert.equal(held.postal[0]!.city, city, 'the address stays');
        assert.equal(held.voice, '+49.301234567', 'the phone as +CC.NUMBER');
      }
      assert.equal(contact(publicId).disclose?.flag, true, 'the public contact stays disclosed');
      assert.equal(contact(privateId).disclose?.flag, false, 'WHOIS privacy stays: the private twin stays hidden');
      assert.equal(updates(publicId), pub0 + 1);
      assert.equal(updates(privateId), priv0 + 1);
      await until('the outbox row to go', 10_000, async () => ((await outbox()) === undefined ? true : undefined));
      assert.ok(sent(publicId).some((f) => f.xml.includes('<clTRID>contact-upd-')), 'the update names the change in its clTRID');
    });

    test('a change of only the status queues nothing; an account without domains queues nothing', async () => {
      assert.equal((await patch({ status: 'active' })).statusCode, 200);
      assert.equal(await outbox(), undefined);
      const lone = await createCustomer(t);
      assert.equal((await adminCall(t, 'PATCH', `/admin/v1/accounts/${lone.accountId}`, { name: 'Nobody' })).statusCode, 200);
      assert.equal(await t.database.db.selectFrom('registrar_contact_sync').selectAll().where('account_id', '=', lone.accountId).executeTakeFirst(), undefined);
    });

    test('the registry fails the update (2400): retried after a wait, then done once', async () => {
      fx.registry.injectFault({ code: 2400, msg: 'Command failed' }, { verb: 'update', object: 'contact' });
      assert.equal((await patch({ phone: '+1 555 555 0123' })).statusCode, 200);
      const failed = await until('the first attempt to fail', 30_000, async () => {
        const row = await outbox();
        return row?.last_error ? row : undefined;
      });
      assert.match(failed.last_error!, /2400/);
      assert.equal(failed.refused, false);
      await until('the retry to bring the phone', 30_000, async () => (contact(publicId).voice === '+1.5555550123' && contact(privateId).voice === '+1.5555550123' ? true : undefined));
      await until('the outbox row to go', 10_000, async () => ((await outbox()) === undefined ? true : undefined));
      assert.ok(t.logs.some((l) => l.includes('updating the registrant contacts failed')));
    });

    test('the registry refuses the data (2306): parked with its error, not retried; the next change frees it', async () => {
      fx.registry.injectFault({ code: 2306, msg: 'Parameter value policy error' }, { verb: 'update', object: 'contact' });
      assert.equal((await patch({ name: 'Refused Name' })).statusCode, 200);
      const parked = await until('the refusal to be parked', 30_000, async () => {
        const row = await outbox();
        return row?.refused ? row : undefined;
      });
      assert.match(parked.last_error!, /2306/);
      assert.notEqual(contact(publicId).postal[0]!.name, 'Refused Name');
      assert.equal((await patch({ name: 'Accepted Name' })).statusCode, 200);
      await until('the next change to reach the registry', 30_000, async () => (contact(publicId).postal[0]!.name === 'Accepted Name' && contact(privateId).postal[0]!.name === 'Accepted Name' ? true : undefined));
      await until('the outbox row to go', 10_000, async () => ((await outbox()) === undefined ? true : undefined));
    });
  });
});
