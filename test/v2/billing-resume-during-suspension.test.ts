// A deposit made while a server's suspension for non-payment is still being carried out (its
// power-off operation running) must still pay and resume it within seconds — after the power-off
// finishes — charged once and resumed once, not at the next timed pass (BILLING_INTERVAL_S, a day
// in tests). The power-off is held up by the simulated platform's fault switch (its power calls
// fail, and the operation retries) until the test lets it through.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { type TestApp, adminCall, createCustomer, json, startApp } from '../helpers/app.ts';
import { activeServer } from '../helpers/servers.ts';
import { clearFault, setFault } from '../helpers/server-actions.ts';
import { assertLedger, chargesOf, noticesOf, passer, plusDays, setServerDates, settled, withdrawalsOf } from '../helpers/billing.ts';

let t: TestApp;
let pass: ReturnType<typeof passer>;
before(async () => {
  t = await startApp({ worker: 'embedded' });
  pass = passer(t);
});

const serverRow = (id: string) => t.database.db.selectFrom('servers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const operationsOf = (id: string, type: string) => t.database.db.selectFrom('operations').selectAll()
  .where('resource_id', '=', id).where('type', '=', type).orderBy('created_at').execute();

/** Polls (the embedded worker runs the operations) until the server is `status`; the time it took. */
async function waitForStatus(id: string, status: string, timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    if ((await serverRow(id)).status === status) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`server ${id} is still ${(await serverRow(id)).status} after ${timeoutMs} ms (want ${status})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('a deposit (and POST /admin/v1/billing/run) during the power-off of a suspension: paid and resumed once the power-off ends, once', async () => {
  const c = await createCustomer(t, { deposit: '6.00' });
  const s = await activeServer(t, c);
  const price = (await serverRow(s.id)).price_cents;
  assert.equal(price, 500);
  const now = new Date();
  await setServerDates(t, s.id, { created: plusDays(now, -31), start: plusDays(now, -31), next: new Date(now.getTime() - 3_600_000) });

  // The platform refuses to power the server off until the test says otherwise.
  await setFault(t, { mode: 'upstream_error', remaining: null, calls: ['power'] });
  try {
    const r1 = await pass(now, c.accountId);
    assert.equal(r1.suspended, 1, 'the 1.00 left does not cover 5.00: suspended');
    const [suspension] = await operationsOf(s.id, 'server.suspend');
    assert.ok(suspension && (suspension.status === 'queued' || suspension.status === 'running'), 'the power-off is still being carried out');

    // The deposit covers the charge, but the power-off still runs: the pass defers the server.
    const dep = await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/deposits`, { amount: '4.00' });
    assert.equal(dep.statusCode, 201, dep.body);
    const run = await adminCall(t, 'POST', '/admin/v1/billing/run');
    assert.equal(run.statusCode, 200, run.body);
    assert.equal(json(run).data.resumed, 0);
    assert.ok(json(run).data.deferred >= 1, run.body);
    assert.equal((await serverRow(s.id)).status, 'suspended', 'nothing could be done while the power-off runs');
    const [still] = await operationsOf(s.id, 'server.suspend');
    assert.ok(still!.status === 'queued' || still!.status === 'running', 'the deposit and the run came during the power-off');
  } finally {
    await clearFault(t);
  }

  // The power-off's next attempt succeeds; its end starts the account's pass, which pays and resumes.
  const waited = await waitForStatus(s.id, 'active', 30_000);
  const [suspension] = await operationsOf(s.id, 'server.suspend');
  assert.equal(suspension!.status, 'completed');
  const resumes = await operationsOf(s.id, 'server.resume');
  assert.equal(resumes.length, 1, 'resumed once');
  const afterPowerOffMs = resumes[0]!.created_at.getTime() - suspension!.finished_at!.getTime();
  process.stdout.write(`# resumed ${afterPowerOffMs} ms after the power-off finished (${waited} ms after the fault cleared)\n`);
  assert.ok(afterPowerOffMs < 5_000, `resumed within seconds of the power-off's end (${afterPowerOffMs} ms), not at the next timed pass`);

  await settled(t, s.id);
  assert.equal((await serverRow(s.id)).power_state, 'running', 'powered on again');
  const charges = await chargesOf(t, s.id);
  assert.deepEqual(charges.map((ch) => [ch.status, ch.amount_cents]), [['paid', 500]], 'the due period, paid once');
  assert.deepEqual((await withdrawalsOf(t, c.accountId)).map((w) => w.amount_cents), [500, 500], 'the first cycle and the one renewal: charged once');
  assert.equal(await assertLedger(t, c.accountId), 0, '1.00 + 4.00 − exactly 5.00');
  const notices = await noticesOf(t, c.accountId);
  assert.equal(notices.filter((k) => k === 'service.resumed').length, 1, 'one resumption notice');

  // Later passes find nothing more to do for it.
  const again = await adminCall(t, 'POST', '/admin/v1/billing/run');
  assert.equal(json(again).data.resumed, 0);
  assert.equal(json(again).data.charged, 0);
  assert.equal((await operationsOf(s.id, 'server.resume')).length, 1);
});

test('a suspension that ends without the money to resume: nothing is paid or resumed, the charge stays due', async () => {
  const c = await createCustomer(t, { deposit: '6.00' });
  const s = await activeServer(t, c);
  const now = new Date();
  await setServerDates(t, s.id, { created: plusDays(now, -31), start: plusDays(now, -31), next: new Date(now.getTime() - 3_600_000) });
  assert.equal((await pass(now, c.accountId)).suspended, 1);
  await settled(t, s.id);
  assert.equal((await serverRow(s.id)).status, 'suspended');
  assert.equal((await serverRow(s.id)).power_state, 'stopped');
  const [due] = await chargesOf(t, s.id);
  assert.equal(due!.status, 'due');
  assert.equal(due!.attempts, 1, 'no payment attempted again after the power-off');
  assert.equal((await operationsOf(s.id, 'server.resume')).length, 0);
});
