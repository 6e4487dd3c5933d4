// A `hostcloud worker` killed with SIGKILL in the middle of an EPP command loses nothing and doubles
// nothing. The test registry's stall-after fault applies the command and never answers, so the kill
// lands after the registry did the work and before the worker recorded it; the next worker finds the
// work done — a registration by its authInfo (derived from the operation id), a renewal by the
// expiry (curExpDate + the years) — and records it: one registration, one renewal, one charge each.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Customer, type TestApp, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { balanceOf, freshName, registerDomain } from '../helpers/domains.ts';
import { type RegistryFixture, startRegistryFixture } from '../helpers/epp.ts';
import { killWorkers, startWorker, until } from '../helpers/worker-process.ts';

after(killWorkers);

describe('SIGKILL a worker mid-command over EPP', { timeout: 300_000 }, () => {
  let fx: RegistryFixture;
  let t: TestApp;
  let c: Customer;
  let eppEnv: NodeJS.ProcessEnv;

  before(async () => {
    fx = await startRegistryFixture();
    const epp = {
      registrarDriver: 'epp' as const, eppHost: '127.0.0.1', eppPort: fx.registry.port, eppClientId: 'hostcloud', eppPassword: 'test-password',
      eppClientCert: fx.files.cert, eppClientKey: fx.files.key, eppCa: fx.files.ca, eppSessions: 1, eppPollS: 60,
    };
    t = await startApp({ ...epp, jobTimeoutS: 900 });
    c = await createCustomer(t, { deposit: '200.00' });
    eppEnv = {
      REGISTRAR_DRIVER: 'epp', EPP_HOST: '127.0.0.1', EPP_PORT: String(fx.registry.port), EPP_CLIENT_ID: 'hostcloud', EPP_PASSWORD: 'test-password',
      EPP_CLIENT_CERT: fx.files.cert, EPP_CLIENT_KEY: fx.files.key, EPP_CA: fx.files.ca, EPP_SESSIONS: '1', EPP_POLL_S: '60',
    };
  });
  after(() => fx?.close());

  const db = () => t.database.db;
  const opRow = (id: string) => db().selectFrom('operations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const settled = (id: string, worker: { output: () => string }) => until(`operation ${id} to finish`, 90_000, async () => {
    const op = await opRow(id);
    return op.status === 'completed' || op.status === 'failed' ? op : undefined;
  }).catch((e) => { throw new Error(`${e.message}\n--- worker ---\n${worker.output()}`); });
  const kill = async (w: ReturnType<typeof startWorker>) => {
    w.child.kill('SIGKILL');
    if (w.child.exitCode === null && w.child.signalCode === null) await new Promise((r) => w.child.once('exit', r));
  };
  const priceOf = async (tld: string) => db().selectFrom('tld_prices').selectAll().where('tld', '=', `.${tld}`).executeTakeFirstOrThrow();
  const cents = (amount: string) => Math.round(Number(amount) * 100);

  test('mid-create: the registry created the name, the worker died before recording it → one registration, one charge', async () => {
    const name = freshName('com', 'epp-kill');
    const balance0 = cents(await balanceOf(t, c));
    fx.registry.injectFault('stall-after', { verb: 'create', object: 'domain' });
    const created = await registerDomain(t, c, { domain: name, nameservers: ['ns1.kill-dns.net', 'ns2.kill-dns.net'] });
    const first = startWorker(t.databaseUrl, 0, eppEnv);
    await until('the registry to create the name', 60_000, async () => (fx.registry.state.counters.domainCreates.get(name) === 1 ? true : undefined))
      .catch((e) => { throw new Error(`${e.message}\n--- worker ---\n${first.output()}`); });
    await kill(first);
    assert.equal((await opRow(created.operation.id)).status, 'running', 'the worker died before it recorded the registration');
    assert.equal(json(await call(t.app, 'GET', `/v2/domains/${created.id}`, { key: c.key })).data.status, 'pending');

    const second = startWorker(t.databaseUrl, 0, eppEnv);
    try {
      const done = await settled(created.operation.id, second);
      assert.equal(done.status, 'completed', done.detail);
      assert.ok(done.attempts >= 2, `attempts ${done.attempts}`);
    } finally {
      await kill(second);
    }
    assert.equal(fx.registry.state.counters.domainCreates.get(name), 1, 'one <domain:create> reached the registry');
    const creates = fx.frames.filter((f) => f.dir === 'C' && f.xml.includes('<domain:create') && f.xml.includes(name));
    assert.equal(creates.length, 1, 'the second worker did not send the create again');
    const held = fx.registry.state.domains.get(name)!;
    assert.equal(held.sponsor, 'hostcloud');
    const d = json(await call(t.app, 'GET', `/v2/domains/${created.id}`, { key: c.key })).data;
    assert.equal(d.status, 'active');
    assert.equal(new Date(d.expires_at).getTime(), held.exDate.getTime());
    assert.equal(cents(await balanceOf(t, c)), balance0 - (await priceOf('com')).register_cents, 'charged once');
  });

  test('mid-renew: the registry renewed, the worker died before recording it → one renewal (curExpDate), one charge', async () => {
    const name = freshName('com', 'epp-renew-kill');
    const created = await registerDomain(t, c, { domain: name });
    const maker = startWorker(t.databaseUrl, 0, eppEnv);
    try {
      assert.equal((await settled(created.operation.id, maker)).status, 'completed');
    } finally {
      await kill(maker);
    }
    // Due for auto-renewal: ten days left, at the registry and with us alike (EPP dates are whole seconds).
    const soon = new Date(Math.floor(Date.now() / 1000) * 1000 + 10 * 86_400_000);
    fx.registry.state.domains.get(name)!.exDate = soon;
    await db().updateTable('domains').set({ expires_at: soon }).where('id', '=', created.id).execute();
    const balance0 = cents(await balanceOf(t, c));
    fx.registry.injectFault('stall-after', { verb: 'renew', object: 'domain' });

    // The billing pass (every second here) renews it; the registry applies the renewal and never answers.
    const billing = { ...eppEnv, BILLING_INTERVAL_S: '1', DOMAIN_RENEW_DAYS: '30' };
    const first = startWorker(t.databaseUrl, 0, billing);
    await until('the registry to renew the name', 60_000, async () => (fx.registry.state.counters.renewals.get(name) === 1 ? true : undefined))
      .catch((e) => { throw new Error(`${e.message}\n--- worker ---\n${first.output()}`); });
    await kill(first);
    const renewOp = await db().selectFrom('operations').selectAll().where('resource_id', '=', created.id).where('type', '=', 'domain.renew').executeTakeFirstOrThrow();
    assert.equal(renewOp.status, 'running', 'the worker died before it recorded the renewal');
    const renewedAt = fx.registry.state.domains.get(name)!.exDate;
    assert.equal(renewedAt.getUTCFullYear(), soon.getUTCFullYear() + 1);

    const second = startWorker(t.databaseUrl, 0, billing);
    try {
      const done = await settled(renewOp.id, second);
      assert.equal(done.status, 'completed', done.detail);
      // Its own billing passes meanwhile found the renewal in flight, then the expiry a year away: nothing more.
      await until('a billing pass after the renewal', 30_000, async () => (second.output().split('"billing pass"').length > 2 ? true : undefined));
    } finally {
      await kill(second);
    }
    assert.equal(fx.registry.state.counters.renewals.get(name), 1, 'one <domain:renew> reached the registry');
    const renews = fx.frames.filter((f) => f.dir === 'C' && f.xml.includes('<domain:renew') && f.xml.includes(name));
    assert.equal(renews.length, 1, 'the second worker saw the expiry and did not renew again');
    assert.match(renews[0]!.xml, new RegExp(`<domain:curExpDate>${soon.toISOString().slice(0, 10)}</domain:curExpDate>`));
    assert.equal(fx.registry.state.domains.get(name)!.exDate.getTime(), renewedAt.getTime(), 'one year, once');
    const d = json(await call(t.app, 'GET', `/v2/domains/${created.id}`, { key: c.key })).data;
    assert.equal(new Date(d.expires_at).getTime(), renewedAt.getTime());
    assert.equal(cents(await balanceOf(t, c)), balance0 - (await priceOf('com')).renewal_cents, 'charged once');
    const charges = await db().selectFrom('billing_charges').selectAll().where('resource_id', '=', created.id).execute();
    assert.deepEqual(charges.map((r) => r.status), ['paid']);
  });
  test('SIGTERM instead: the worker logs out of its EPP session before it exits', async () => {
    const name = freshName('com', 'epp-term');
    const created = await registerDomain(t, c, { domain: name, nameservers: ['ns1.kill-dns.net', 'ns2.kill-dns.net'] });
    const w = startWorker(t.databaseUrl, 0, eppEnv);
    const done = await settled(created.operation.id, w);
    assert.equal(done.status, 'completed', done.detail);
    const logoutsBefore = fx.frames.filter((f) => f.dir === 'C' && f.xml.includes('<logout/>')).length;
    w.child.kill('SIGTERM');
    if (w.child.exitCode === null && w.child.signalCode === null) await new Promise((r) => w.child.once('exit', r));
    assert.equal(w.child.exitCode, 0, w.output());
    assert.ok(fx.frames.filter((f) => f.dir === 'C' && f.xml.includes('<logout/>')).length > logoutsBefore, 'a <logout/> reached the registry');
  });
});
