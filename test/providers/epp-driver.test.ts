// The EPP driver against the EPP test registry (in process, TLS with a test CA): every command,
// bulk check in one command, exactly once across lost answers and dropped sessions, the poll
// queue's transfer news, result codes as the registrar's errors, a registry that is down.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type EppRegistrar, createEppRegistrar } from '../../src/providers/registrar/epp/index.ts';
import { contactIdOf, voiceOf } from '../../src/providers/registrar/epp/objects.ts';
import { RegistrarError, type RegistryMessage } from '../../src/providers/registrar/types.ts';
import { type RegistryFixture, startRegistryFixture } from '../helpers/epp.ts';

const owner = { id: 'acc_epp_driver', name: 'Ada Lovelace', email: 'ada@example.com', company: 'Engines Ltd', phone: '+44.2071234567', country: 'GB' };

describe('EPP driver', () => {
  let fx: RegistryFixture;
  let epp: EppRegistrar;
  const frames = () => fx.frames;

  before(async () => {
    fx = await startRegistryFixture();
    const { pki, port } = fx.registry;
    epp = createEppRegistrar({
      host: '127.0.0.1', port, clientId: 'hostcloud', password: 'test-password', cert: pki.clientCert, key: pki.clientKey, ca: pki.caCert,
      sessions: 2, pollS: 1, commandTimeoutMs: 3000, connectTimeoutMs: 3000, transferQueryMs: 3_600_000,
    });
  });
  after(async () => {
    await epp?.close();
    await fx?.close();
  });

  const register = (name: string, token: string, extra: Partial<Parameters<EppRegistrar['register']>[0]> = {}) => epp.register({
    token, name, years: 1, nameservers: ['ns1.dns-host.net', 'ns2.dns-host.net'], whoisPrivacy: false, transferLock: true, contact: null, owner, ...extra,
  });

  test('check: 100 names in one command', async () => {
    fx.registry.state.seedDomain('taken-1.com', 'otherreg');
    const names = Array.from({ length: 100 }, (_, i) => `taken-${i}.com`);
    const before = frames().filter((f) => f.dir === 'C' && f.xml.includes('<domain:check')).length;
    const answers = await epp.check(names);
    assert.equal(frames().filter((f) => f.dir === 'C' && f.xml.includes('<domain:check')).length - before, 1);
    assert.equal(answers.length, 100);
    assert.deepEqual(answers.filter((a) => !a.available).map((a) => a.name), ['taken-1.com']);
  });

  test('register: the registrant contact and host objects first, then the domain, then the lock', async () => {
    const d = await register('first-epp.com', 'op_first');
    const { state } = fx.registry;
    const reg = state.domains.get('first-epp.com')!;
    assert.equal(reg.sponsor, 'hostcloud');
    assert.equal(d.ref, reg.roid);
    assert.ok(reg.statuses.has('clientTransferProhibited'));
    assert.deepEqual(reg.ns, ['ns1.dns-host.net', 'ns2.dns-host.net']);
    const contact = state.contacts.get(reg.registrant)!;
    assert.equal(contact.email, 'ada@example.com');
    assert.equal(reg.admin, reg.registrant);
    assert.equal(reg.tech, reg.registrant);
    assert.ok(state.hosts.has('ns1.dns-host.net'));
    assert.equal(d.transferLock, true);
    // The clTRID names our operation and the step.
    assert.ok(frames().some((f) => f.dir === 'C' && f.xml.includes('<clTRID>create:op_first</clTRID>')));
    // Asked again with the same token (a retried operation): the same domain, no second create.
    const again = await register('first-epp.com', 'op_first');
    assert.equal(again.ref, d.ref);
    assert.equal(state.counters.domainCreates.get('first-epp.com'), 1);
    // Another token: the name is taken.
    await assert.rejects(register('first-epp.com', 'op_other'), (e: RegistrarError) => e.refusal === 'unavailable');
  });

  test('a create whose answer is lost: checked with info, not sent twice; the session logs in again', async () => {
    const logins = fx.registry.state.counters.logins;
    fx.registry.injectFault('drop-after', { verb: 'create', object: 'domain' });
    const d = await register('lost-answer.com', 'op_lost');
    assert.equal(d.name, 'lost-answer.com');
    assert.equal(fx.registry.state.counters.domainCreates.get('lost-answer.com'), 1);
    assert.ok(fx.registry.state.counters.logins > logins, 're-login after the drop');
  });

  test('a create the session dropped before it reached the registry is sent again, once', async () => {
    fx.registry.injectFault('drop-before', { verb: 'create', object: 'domain' });
    await register('dropped-before.com', 'op_dropped');
    assert.equal(fx.registry.state.counters.domainCreates.get('dropped-before.com'), 1);
  });

  test('renew with curExpDate: a lost answer is detected by the expiry, never two renewals', async () => {
    const d = await epp.info('first-epp.com');
    fx.registry.injectFault('drop-after', { verb: 'renew' });
    const r = await epp.renew({ token: 'op_renew', name: 'first-epp.com', years: 1, currentExpiresAt: d.expiresAt });
    assert.equal(r.expiresAt.getUTCFullYear(), d.expiresAt.getUTCFullYear() + 1);
    assert.equal(fx.registry.state.counters.renewals.get('first-epp.com'), 1);
    // The same renewal asked again (a killed worker's retry): answered from the expiry.
    const again = await epp.renew({ token: 'op_renew', name: 'first-epp.com', years: 1, currentExpiresAt: d.expiresAt });
    assert.equal(again.expiresAt.getTime(), r.expiresAt.getTime());
    assert.equal(fx.registry.state.counters.renewals.get('first-epp.com'), 1);
    assert.ok(frames().some((f) => f.dir === 'C' && f.xml.includes(`<domain:curExpDate>${d.expiresAt.toISOString().slice(0, 10)}</domain:curExpDate>`)));
    // A stale expiry that is not this renewal's result: refused.
    await assert.rejects(epp.renew({ token: 'op_renew2', name: 'first-epp.com', years: 3, currentExpiresAt: d.expiresAt }), (e: RegistrarError) => e.refusal === 'period_invalid');
  });

  test('update: nameservers, the lock, WHOIS privacy (disclose flags) and a new auth code', async () => {
    const { state } = fx.registry;
    await epp.setNameservers('first-epp.com', ['ns3.dns-host.net', 'ns1.dns-host.net'], 'ns-1');
    assert.deepEqual([...state.domains.get('first-epp.com')!.ns].sort(), ['ns1.dns-host.net', 'ns3.dns-host.net']);
    await epp.setTransferLock('first-epp.com', false, 'lock-1');
    assert.ok(!state.domains.get('first-epp.com')!.statuses.has('clientTransferProhibited'));
    assert.equal((await epp.info('first-epp.com')).transferLock, false);
    await epp.setTransferLock('first-epp.com', true, 'lock-2');
    assert.ok(state.domains.get('first-epp.com')!.statuses.has('clientTransferProhibited'));
    await epp.setWhoisPrivacy('first-epp.com', true, 'privacy-1');
    const registrant = state.contacts.get(state.domains.get('first-epp.com')!.registrant)!;
    assert.deepEqual(registrant.disclose, { flag: false, fields: ['name:int', 'addr:int', 'voice', 'email'] });
    assert.equal((await epp.info('first-epp.com')).whoisPrivacy, true);
    const old = await epp.getAuthCode('first-epp.com');
    const fresh = await epp.refreshAuthCode('first-epp.com', 'auth-1');
    assert.notEqual(fresh, old);
    assert.equal(state.domains.get('first-epp.com')!.authInfo, fresh);
    assert.equal(await epp.getAuthCode('first-epp.com'), fresh);
    // A host inside the domain without glue at the registry: refused, naming nameservers.
    await assert.rejects(epp.setNameservers('first-epp.com', ['ns1.first-epp.com', 'ns1.dns-host.net'], 'ns-2'),
      (e: RegistrarError) => e.refusal === 'policy' && e.field === 'nameservers');
  });

  test('transfer in: authInfo checked, pending, approved by the losing registrar, learnt from the poll queue', async () => {
    const { registry } = fx;
    registry.state.seedDomain('moving-in.com', 'otherreg', { authInfo: 'Right-Code#1' });
    await assert.rejects(epp.info('moving-in.com', 'wrong'), (e: RegistrarError) => e.refusal === 'auth_code_invalid');
    await assert.rejects(epp.info('never-registered.com', 'x'), (e: RegistrarError) => e.refusal === 'not_registered');
    assert.equal((await epp.info('moving-in.com', 'Right-Code#1')).name, 'moving-in.com');
    const first = await epp.transfer({ token: 'op_tr', name: 'moving-in.com', authCode: 'Right-Code#1', years: 1 });
    assert.equal(first.state, 'pending');
    // Asked again with the same token: the same pending transfer, not a second request.
    assert.equal((await epp.transfer({ token: 'op_tr', name: 'moving-in.com', authCode: 'Right-Code#1', years: 1 })).state, 'pending');
    assert.equal(registry.state.counters.transferRequests.get('moving-in.com'), 1);
    assert.equal((await epp.transferStatus('moving-in.com', 'op_tr')).state, 'pending');
    registry.approveTransfer('moving-in.com');
    const seen: RegistryMessage[] = [];
    assert.ok(await epp.messages.poll(async (m) => { seen.push(m); }) >= 1);
    assert.deepEqual(seen.map((m) => [m.domain, m.transfer?.state, m.transfer?.ours]), [['moving-in.com', 'completed', true]]);
    assert.equal(registry.state.queues.get('hostcloud')?.length ?? 0, 0, 'acknowledged');
    const done = await epp.transferStatus('moving-in.com', 'op_tr');
    assert.equal(done.state, 'completed');
    assert.equal(done.domain!.name, 'moving-in.com');
    assert.equal(registry.state.domains.get('moving-in.com')!.sponsor, 'hostcloud');
    await assert.rejects(epp.info('moving-in.com', 'x'), (e: RegistrarError) => e.refusal === 'already_ours');
  });

  test('transfer rejected by the losing registrar; a locked name refused; a wrong code refused', async () => {
    const { registry } = fx;
    registry.state.seedDomain('stays-out.com', 'otherreg', { authInfo: 'Code-1#x' });
    assert.equal((await epp.transfer({ token: 'op_rej', name: 'stays-out.com', authCode: 'Code-1#x', years: 1 })).state, 'pending');
    registry.rejectTransfer('stays-out.com');
    await epp.messages.poll(async () => {});
    const st = await epp.transferStatus('stays-out.com', 'op_rej');
    assert.equal(st.state, 'rejected');
    registry.state.seedDomain('locked-out.com', 'otherreg', { authInfo: 'Code-2#x', locked: true });
    await assert.rejects(epp.transfer({ token: 'op_lock', name: 'locked-out.com', authCode: 'Code-2#x', years: 1 }), (e: RegistrarError) => e.refusal === 'policy');
    registry.state.seedDomain('wrong-code.com', 'otherreg', { authInfo: 'Code-3#x' });
    await assert.rejects(epp.transfer({ token: 'op_wc', name: 'wrong-code.com', authCode: 'nope', years: 1 }), (e: RegistrarError) => e.refusal === 'auth_code_invalid');
  });

  test('registry notices reach the poll handler and are acknowledged', async () => {
    fx.registry.state.enqueue('hostcloud', 'Maintenance on Sunday 02:00 UTC');
    const seen: RegistryMessage[] = [];
    await epp.messages.poll(async (m) => { seen.push(m); });
    assert.deepEqual(seen.map((m) => [m.text, m.transfer]), [['Maintenance on Sunday 02:00 UTC', null]]);
  });

  test('result codes: 2400 and 2500-series retryable, 2306 and 2005 a refusal naming the field', async () => {
    fx.registry.injectFault({ code: 2400 }, { verb: 'check' });
    await assert.rejects(epp.check(['a-name.com']), (e: RegistrarError) => e.retryable && e.refusal === null);
    fx.registry.injectFault({ code: 2502 }, { verb: 'check' });
    await assert.rejects(epp.check(['a-name.com']), (e: RegistrarError) => e.retryable);
    assert.equal((await epp.check(['a-name.com']))[0]!.available, true, 'a new session after the registry ended one');
    await assert.rejects(register('bad-years.com', 'op_years', { years: 11 }), (e: RegistrarError) => !e.retryable && e.refusal === 'policy');
    await assert.rejects(register('contact-bad.com', 'op_cc', { owner: { ...owner, id: 'acc_bad_cc', country: 'G1' } }),
      (e: RegistrarError) => e.refusal === 'policy' && e.field === 'contact');
  });

  test('a runner waiting on a pending transfer is woken by the poll queue\'s news, not at the end of its wait', async () => {
    fx.registry.state.seedDomain('woken-up.com', 'otherreg', { authInfo: 'Wake-Up#1' });
    assert.equal((await epp.transfer({ token: 'op_wake', name: 'woken-up.com', authCode: 'Wake-Up#1', years: 1 })).state, 'pending');
    let woken = false;
    // An hour's wait: the test would time out if only the timer ended it.
    const waiting = epp.transferWatch.wait('woken-up.com', 3_600_000).then(() => { woken = true; });
    await epp.messages.poll(async () => {});
    assert.equal(woken, false, 'no news yet');
    fx.registry.approveTransfer('woken-up.com');
    await epp.messages.poll(async () => {});
    await waiting;
    assert.equal((await epp.transferStatus('woken-up.com', 'op_wake')).state, 'completed');
    // News already in: no wait at all.
    fx.registry.state.seedDomain('already-in.com', 'otherreg', { authInfo: 'Wake-Up#2' });
    await epp.transfer({ token: 'op_in', name: 'already-in.com', authCode: 'Wake-Up#2', years: 1 });
    fx.registry.approveTransfer('already-in.com');
    await epp.messages.poll(async () => {});
    await epp.transferWatch.wait('already-in.com', 3_600_000);
  });

  test('contacts.update: the profile reaches the contacts the registry holds, each keeping its disclose flags', async () => {
    const who = { ...owner, id: 'acc_profile_change' };
    await register('profile-public.com', 'op_pp', { owner: who });
    await register('profile-private.com', 'op_pv', { owner: who, whoisPrivacy: true });
    const ids = [contactIdOf(who.id, false), contactIdOf(who.id, true)];
    const r = await epp.contacts.update({ ...who, name: 'Ada King', email: 'ada.king@example.com', phone: '+44 20 7946 0000' }, 'profile:1');
    assert.deepEqual(r.updated, ids);
    for (const id of ids) {
      const c = fx.registry.state.contacts.get(id)!;
      assert.equal(c.postal[0]!.name, 'Ada King');
      assert.equal(c.email, 'ada.king@example.com');
      assert.equal(c.voice, '+44.2079460000');
    }
    assert.equal(fx.registry.state.contacts.get(ids[0]!)!.disclose?.flag, true);
    assert.equal(fx.registry.state.contacts.get(ids[1]!)!.disclose?.flag, false);
    assert.deepEqual((await epp.contacts.update({ ...who, name: 'Ada King', email: 'ada.king@example.com', phone: '+44 20 7946 0000' }, 'profile:2')).updated, [], 'unchanged: nothing sent');
    assert.deepEqual((await epp.contacts.update({ ...owner, id: 'acc_no_domains' }, 'profile:3')).updated, [], 'contacts the registry does not hold are left alone');
  });

  test('sessions dropped between commands: the next command logs in again and completes once', async () => {
    const logins = fx.registry.state.counters.logins;
    fx.registry.dropAll();
    await register('after-drop.com', 'op_after_drop');
    assert.equal(fx.registry.state.counters.domainCreates.get('after-drop.com'), 1);
    assert.ok(fx.registry.state.counters.logins > logins);
  });

  test('a registry that is down: a retryable upstream error', async () => {
    const { pki } = fx.registry;
    const lonely = createEppRegistrar({ host: '127.0.0.1', port: 1, clientId: 'hostcloud', password: 'x', cert: pki.clientCert, key: pki.clientKey, ca: pki.caCert, sessions: 1, pollS: 60, connectTimeoutMs: 1000 });
    await assert.rejects(lonely.check(['x.com']), (e: RegistrarError) => e instanceof RegistrarError && e.retryable);
    await lonely.close();
  });
});

test('voiceOf: a profile\'s international number as +CC.NUMBER, the country code split by the E.164 plan', () => {
  assert.equal(voiceOf('+49 30 1234567'), '+49.301234567');
  assert.equal(voiceOf('+1 (555) 555-0123'), '+1.5555550123');
  assert.equal(voiceOf('+7 495 123-45-67'), '+7.4951234567');
  assert.equal(voiceOf('+353 1 234 5678'), '+353.12345678');
  assert.equal(voiceOf('+44.2071234567'), '+44.2071234567');
  assert.equal(voiceOf('030 1234567'), null, 'no country code: left out, not guessed');
  assert.equal(voiceOf('+0 123 4567'), null);
  assert.equal(voiceOf(null), null);
});
