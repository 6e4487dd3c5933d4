// The simulated registrar against a real database: what the worker and the requests rely on —
// a request token never registers twice, never starts a second transfer and never adds a second
// year; refusals are final and say why; every call obeys the registrar fault switch; the no-op
// registrar of the sandbox touches nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFaultSwitch } from '../../src/providers/simulated/fault-switch.ts';
import { noopRegistrar } from '../../src/providers/registrar/noop.ts';
import { createSimulatedRegistrar } from '../../src/providers/registrar/simulated/index.ts';
import { REGISTRAR_CALLS, type RegisterRequest, RegistrarError } from '../../src/providers/registrar/types.ts';
import { ProviderError } from '../../src/providers/errors.ts';
import { startApp } from '../helpers/app.ts';
import { freshName, seedElsewhere } from '../helpers/domains.ts';

const t = await startApp();
const db = t.database.db;
const sim = createSimulatedRegistrar({ db, delayMs: 0 });

let n = 0;
const request = (over: Partial<RegisterRequest> = {}): RegisterRequest => {
  n += 1;
  return { token: `op_reg_${n}`, name: freshName(), years: 1, nameservers: ['ns1.example.net', 'ns2.example.net'], whoisPrivacy: true, transferLock: true, contact: null, ...over };
};

const refused = (p: Promise<unknown>, refusal: string) => assert.rejects(p, (e) => {
  assert.ok(e instanceof RegistrarError, String(e));
  assert.equal(e.refusal, refusal);
  assert.equal(e.retryable, false);
  assert.equal(e.code, 'UPSTREAM_ERROR');
  return true;
});

test('register: a retried token answers with the same domain; another token for the name is refused', async () => {
  const req = request({ years: 3 });
  const [a, b] = await Promise.all([sim.register(req), sim.register(req)]);
  assert.deepEqual(a, b);
  assert.equal(a.name, req.name);
  assert.match(a.ref, /^SIM[0-9A-F]{12}-HC$/);
  assert.deepEqual(a.nameservers, req.nameservers);
  const years = (a.expiresAt.getTime() - a.createdAt.getTime()) / (365.25 * 86_400_000);
  assert.ok(Math.abs(years - 3) < 0.01);
  await refused(sim.register({ ...req, token: 'op_other' }), 'unavailable');
  assert.deepEqual(await sim.check([req.name, 'never-taken-xyz.com']), [{ name: req.name, available: false }, { name: 'never-taken-xyz.com', available: true }]);
});

test('renew: one year per token, never twice; a stale expiry (curExpDate) is refused; 10 years ahead at most', async () => {
  const d = await sim.register(request());
  const first = await sim.renew({ token: 'op_ren_1', name: d.name, years: 2, currentExpiresAt: d.expiresAt });
  const again = await sim.renew({ token: 'op_ren_1', name: d.name, years: 2, currentExpiresAt: d.expiresAt });
  assert.deepEqual(again, first, 'the retried token is answered from the record');
  assert.equal((await sim.info(d.name)).expiresAt.getTime(), first.expiresAt.getTime());
  await refused(sim.renew({ token: 'op_ren_2', name: d.name, years: 1, currentExpiresAt: d.expiresAt }), 'period_invalid');
  await refused(sim.renew({ token: 'op_ren_3', name: d.name, years: 8, currentExpiresAt: first.expiresAt }), 'period_invalid');
  await refused(sim.renew({ token: 'op_ren_4', name: freshName(), years: 1, currentExpiresAt: d.expiresAt }), 'not_registered');
});

test('transfer: checked by info with the auth code; one transfer per token; approved after TRANSFER_APPROVAL_STEPS steps', async () => {
  const name = freshName();
  await seedElsewhere(t, name, 'Code-Right-1', { expires_at: '2029-01-01T00:00:00Z' });
  await refused(sim.info(name, 'Code-Wrong'), 'auth_code_invalid');
  await refused(sim.info(freshName(), 'Code-Right-1'), 'not_registered');
  assert.equal((await sim.info(name, 'Code-Right-1')).expiresAt.toISOString(), '2029-01-01T00:00:00.000Z');
  await refused(sim.transfer({ token: 'op_tr_0', name, authCode: 'Code-Wrong', years: 1 }), 'auth_code_invalid');

  const slow = createSimulatedRegistrar({ db, delayMs: 100 });
  const [a, b] = await Promise.all([
    slow.transfer({ token: 'op_tr_1', name, authCode: 'Code-Right-1', years: 2 }),
    slow.transfer({ token: 'op_tr_1', name, authCode: 'Code-Right-1', years: 2 }),
  ]);
  assert.equal(a.state, 'pending');
  assert.equal(b.state, 'pending');
  await refused(slow.transfer({ token: 'op_tr_2', name, authCode: 'Code-Right-1', years: 1 }), 'unavailable');
  const rows = await db.selectFrom('sim_registry_transfers').selectAll().where('name', '=', name).execute();
  assert.equal(rows.length, 1);
  let status = await slow.transferStatus(name, 'op_tr_1');
  for (let i = 0; status.state === 'pending'; i++) {
    assert.ok(i < 20, 'approved within a few steps');
    status = await slow.transferStatus(name, 'op_tr_1');
  }
  assert.equal(status.state, 'completed');
  assert.equal(status.domain!.expiresAt.toISOString(), '2031-01-01T00:00:00.000Z');
  // Asking again (a worker that lost the answer) changes nothing.
  assert.equal((await sim.transfer({ token: 'op_tr_1', name, authCode: 'Code-Right-1', years: 2 })).domain!.expiresAt.toISOString(), '2031-01-01T00:00:00.000Z');
  await refused(sim.transfer({ token: 'op_tr_3', name, authCode: 'Code-Right-1', years: 1 }), 'already_ours');
  await assert.rejects(sim.transferStatus(name, 'op_never'), (e) => e instanceof RegistrarError && !e.retryable);
});

test('updates of our names; a name sponsored elsewhere cannot be changed; auth codes read and refreshed once per token', async () => {
  const d = await sim.register(request());
  await sim.setNameservers(d.name, ['a.example.org', 'b.example.org'], 'ns-1');
  await sim.setTransferLock(d.name, false, 'lock-1');
  await sim.setWhoisPrivacy(d.name, false, 'privacy-1');
  const info = await sim.info(d.name);
  assert.deepEqual([info.nameservers, info.transferLock, info.whoisPrivacy], [['a.example.org', 'b.example.org'], false, false]);
  const code = await sim.getAuthCode(d.name);
  const fresh = await sim.refreshAuthCode(d.name, 'auth-1');
  assert.notEqual(fresh, code);
  assert.equal(await sim.refreshAuthCode(d.name, 'auth-1'), fresh, 'the same token: the same new code');
  assert.equal(await sim.getAuthCode(d.name), fresh);
  await refused(sim.setNameservers('example.com', ['a.example.org', 'b.example.org'], 'ns-2'), 'policy');
  await refused(sim.getAuthCode(freshName()), 'not_registered');
});

test('every call obeys the registrar fault switch, and only that switch', async () => {
  const d = await sim.register(request());
  const args: Record<(typeof REGISTRAR_CALLS)[number], () => Promise<unknown>> = {
    check: () => sim.check([d.name]),
    register: () => sim.register(request()),
    transfer: () => sim.transfer({ token: 'op_f', name: d.name, authCode: 'x', years: 1 }),
    renew: () => sim.renew({ token: 'op_f', name: d.name, years: 1, currentExpiresAt: d.expiresAt }),
    info: () => sim.info(d.name),
    setNameservers: () => sim.setNameservers(d.name, ['a.b.c', 'd.e.f'], 'f'),
    setTransferLock: () => sim.setTransferLock(d.name, true, 'f'),
    setWhoisPrivacy: () => sim.setWhoisPrivacy(d.name, true, 'f'),
    getAuthCode: () => sim.getAuthCode(d.name),
    refreshAuthCode: () => sim.refreshAuthCode(d.name, 'f'),
    transferStatus: () => sim.transferStatus(d.name, 'f'),
  };
  for (const call of REGISTRAR_CALLS) {
    await setFaultSwitch(db, 'registrar', { mode: 'upstream_error', remaining: 1, calls: [call] });
    await assert.rejects(args[call](), (e) => e instanceof ProviderError && e.retryable && /Simulated upstream error/.test(e.message), call);
  }
  await setFaultSwitch(db, 'compute', { mode: 'upstream_error' });
  try {
    assert.deepEqual(await sim.check([d.name]), [{ name: d.name, available: false }], 'the compute switch does not touch the registrar');
  } finally {
    await setFaultSwitch(db, 'compute', { mode: 'none' });
  }
  await setFaultSwitch(db, 'registrar', { mode: 'capacity_unavailable', remaining: 1 });
  await assert.rejects(sim.check(['x.com']), (e) => e instanceof ProviderError && e.code === 'CAPACITY_UNAVAILABLE' && !e.retryable);
});

test('the no-op registrar: plausible answers, nothing written', async () => {
  const before = await db.selectFrom('sim_registry_domains').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  assert.deepEqual(await noopRegistrar.check(['a.com', 'example.com']), [{ name: 'a.com', available: true }, { name: 'example.com', available: true }]);
  const reg = await noopRegistrar.register(request({ years: 2 }));
  assert.ok(reg.expiresAt.getTime() > Date.now() + 700 * 86_400_000);
  assert.equal((await noopRegistrar.transfer({ token: 'x', name: 'a.com', authCode: 'y', years: 1 })).state, 'pending');
  assert.equal((await noopRegistrar.renew({ token: 'x', name: 'a.com', years: 1, currentExpiresAt: new Date('2030-01-01T00:00:00Z') })).expiresAt.getUTCFullYear(), 2031);
  assert.match(await noopRegistrar.getAuthCode('a.com'), /^\S{8,}$/);
  const after = await db.selectFrom('sim_registry_domains').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  assert.equal(after.n, before.n);
});
