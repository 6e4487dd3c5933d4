// The simulated hosting panel against a real database: it must behave like a panel the worker can
// trust — a retried create makes one account, placement never overfills a server even under
// concurrency, usernames are unique per server, faults fail the calls they name, SSO URLs are fresh.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFaultSwitch } from '../../src/providers/simulated/fault-switch.ts';
import { createSimulatedPanel } from '../../src/providers/hosting/simulated/index.ts';
import { type CreateAccountRequest, HostingPanelError, ProviderError } from '../../src/providers/hosting/types.ts';
import { USERNAME_PATTERN } from '../../src/providers/hosting/username.ts';
import { startApp } from '../helpers/app.ts';

const t = await startApp();
const db = t.database.db;
const panel = createSimulatedPanel({ db, delayMs: 0 });
const quiet = async () => {};

let tokens = 0;
function request(domain: string, over: Partial<CreateAccountRequest> = {}): CreateAccountRequest {
  tokens += 1;
  return { token: `op_panel_${tokens}`, domain, package: { name: 'Web Starter', quotaMb: 10_240, maxDomains: 1 }, contactEmail: 'ada@example.com', ...over };
}

let batch = 0;
/** Only these servers have room from now on (every earlier one is made full); returns their hostnames. */
async function onlyServers(capacities: number[]): Promise<string[]> {
  batch += 1;
  await db.updateTable('sim_hosting_servers').set({ capacity: 0 }).execute();
  const rows = capacities.map((capacity, i) => ({ hostname: `p${batch}-${i}.panel.test`, location_id: 1, capacity }));
  if (rows.length) await db.insertInto('sim_hosting_servers').values(rows).execute();
  return rows.map((r) => r.hostname);
}

const accountRow = (id: string) => db.selectFrom('sim_hosting_accounts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function rejectsWith(p: Promise<unknown>, code: string, retryable: boolean, message?: RegExp) {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof ProviderError, String(e));
    assert.equal(e.code, code);
    assert.equal(e.retryable, retryable);
    if (message) assert.match(e.message, message);
    return true;
  });
}

test('the demo seed gives every location two panel servers with room', async () => {
  const servers = await panel.listServers();
  const locations = await db.selectFrom('locations').select('id').execute();
  for (const { id } of locations) assert.equal(servers.filter((s) => s.locationId === id).length, 2, `location ${id}`);
  for (const s of servers) {
    assert.match(s.hostname, /^web[12]\.[a-z0-9]+\.panel\.hostcloud\.example$/);
    assert.equal(s.capacity, 250);
    assert.equal(s.accounts, 0);
  }
});

test('createAccount: progress in steps, a derived username on the roomiest server, an active account', async () => {
  const [roomy] = await onlyServers([5, 3]);
  const steps: [number, string][] = [];
  const account = await panel.createAccount(request('example.com'), async (pct, detail) => { steps.push([pct, detail]); });
  assert.equal(account.username, 'example');
  assert.equal(account.serverHostname, roomy);
  assert.deepEqual(steps.map(([p]) => p), [10, 40, 70, 90]);
  const row = await accountRow(account.ref);
  assert.equal(row.state, 'active');
  assert.equal(row.domain, 'example.com');
  assert.equal(row.quota_mb, 10_240);
  assert.equal(row.contact_email, 'ada@example.com');
  assert.equal(await panel.findAccount(row.request_token), account.ref);
});

test('createAccount is idempotent by token, also for concurrent twins: one account', async () => {
  await onlyServers([10]);
  const req = request('twins.com');
  const [a, b, c] = await Promise.all([panel.createAccount(req, quiet), panel.createAccount(req, quiet), panel.createAccount(req, quiet)]);
  assert.equal(a.ref, b.ref);
  assert.equal(a.ref, c.ref);
  const rows = await db.selectFrom('sim_hosting_accounts').select('id').where('request_token', '=', req.token).execute();
  assert.equal(rows.length, 1);
  assert.deepEqual(await panel.createAccount(req, quiet), a);
});

test('a create that stopped after placing resumes on retry and activates the same account', async () => {
  await onlyServers([10]);
  const req = request('resumed.com');
  await db.insertInto('sim_hosting_accounts').values({
    id: 'pa-resumed', request_token: req.token, server_id: (await db.selectFrom('sim_hosting_servers').select('id').where('capacity', '=', 10).orderBy('id', 'desc').executeTakeFirstOrThrow()).id,
    username: 'resumed', domain: 'resumed.com', package_name: 'Web Starter', quota_mb: 10_240, max_domains: 1, contact_email: 'a@b.c', state: 'creating',
  }).execute();
  const account = await panel.createAccount(req, quiet);
  assert.equal(account.ref, 'pa-resumed');
  assert.equal((await accountRow('pa-resumed')).state, 'active');
});

test('placement spreads accounts over the servers with the most room, lowest id on a tie', async () => {
  const [first, second] = await onlyServers([2, 2]);
  const placed = [];
  for (let i = 0; i < 4; i++) placed.push((await panel.createAccount(request(`spread${i}.com`), quiet)).serverHostname);
  assert.deepEqual(placed, [first, second, first, second]);
});

test('a full panel: CAPACITY_UNAVAILABLE, not retryable, nothing created; 12 concurrent creates fill 5 places exactly', async () => {
  await onlyServers([0]);
  await rejectsWith(panel.createAccount(request('nowhere.com'), quiet), 'CAPACITY_UNAVAILABLE', false, /full/);
  assert.equal((await db.selectFrom('sim_hosting_accounts').select('id').where('domain', '=', 'nowhere.com').execute()).length, 0);

  const hosts = await onlyServers([3, 2]);
  const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => panel.createAccount(request(`race${i}.com`), quiet)));
  const ok = results.filter((r) => r.status === 'fulfilled');
  const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  assert.equal(ok.length, 5);
  for (const r of refused) assert.ok(r.reason instanceof HostingPanelError && r.reason.code === 'CAPACITY_UNAVAILABLE' && !r.reason.retryable, String(r.reason));
  const usage = (await panel.listServers()).filter((s) => hosts.includes(s.hostname));
  assert.deepEqual(usage.map((s) => [s.accounts, s.capacity]), [[3, 3], [2, 2]]);
});

test('usernames are unique per server: a collision gets a digit; another server may reuse the name', async () => {
  const [one] = await onlyServers([10]);
  const a = await panel.createAccount(request('clash.com'), quiet);
  const b = await panel.createAccount(request('clash.net'), quiet);
  const c = await panel.createAccount(request('clash.org'), quiet);
  assert.deepEqual([a.username, b.username, c.username], ['clash', 'clash1', 'clash2']);
  for (const x of [a, b, c]) assert.equal(x.serverHostname, one);
  const [two] = await onlyServers([10]);
  const d = await panel.createAccount(request('clash.io'), quiet);
  assert.deepEqual([d.username, d.serverHostname], ['clash', two]);
  for (const x of [a, b, c, d]) assert.match(x.username, USERNAME_PATTERN);
  // A terminated account frees its name on its server.
  await panel.terminate(a.ref, 'op_free');
  await onlyServers([]);
  await db.updateTable('sim_hosting_servers').set({ capacity: 10 }).where('hostname', '=', one!).execute();
  assert.equal((await panel.createAccount(request('clash.info'), quiet)).username, 'clash');
});

test('one live account per domain on the panel: a second create for it is a retryable UPSTREAM_ERROR until the first is terminated', async () => {
  await onlyServers([10]);
  const first = await panel.createAccount(request('once.com'), quiet);
  await rejectsWith(panel.createAccount(request('once.com'), quiet), 'UPSTREAM_ERROR', true, /already has an account/);
  await panel.terminate(first.ref, 'op_t');
  assert.equal((await panel.createAccount(request('once.com'), quiet)).username, 'once');
});

test('suspend, unsuspend, terminate: idempotent; a terminated account answers no more', async () => {
  await onlyServers([10]);
  const { ref } = await panel.createAccount(request('states.com'), quiet);
  await panel.suspend(ref, 'unpaid', 'op_s1');
  await panel.suspend(ref, 'unpaid', 'op_s1');
  assert.deepEqual([(await accountRow(ref)).state, (await accountRow(ref)).suspend_reason], ['suspended', 'unpaid']);
  await rejectsWith(panel.ssoUrl(ref), 'UPSTREAM_ERROR', false, /suspended/);
  await panel.unsuspend(ref, 'op_u1');
  await panel.unsuspend(ref, 'op_u1');
  assert.equal((await accountRow(ref)).state, 'active');
  await panel.terminate(ref, 'op_t1');
  await panel.terminate(ref, 'op_t1');
  const row = await accountRow(ref);
  assert.equal(row.state, 'terminated');
  assert.ok(row.terminated_at);
  assert.equal(await panel.findAccount(row.request_token), null);
  await rejectsWith(panel.diskUsage(ref, 1000), 'UPSTREAM_ERROR', false, /does not exist/);
  await rejectsWith(panel.suspend(ref, 'x', 'op_s2'), 'UPSTREAM_ERROR', false);
  await rejectsWith(panel.createAccount({ ...request('states.com'), token: row.request_token }, quiet), 'UPSTREAM_ERROR', false, /terminated/);
  await panel.terminate('pa-never-existed', 'op_t2');
});

test('diskUsage grows with the account\'s age; ssoUrl gives a fresh single-use session on the account\'s server each time', async () => {
  await onlyServers([10]);
  let clock = new Date();
  const timed = createSimulatedPanel({ db, delayMs: 0, now: () => clock });
  const { ref, serverHostname, username } = await timed.createAccount(request('grows.com'), quiet);
  const fresh = (await timed.diskUsage(ref, 1000)).usedMb;
  clock = new Date(clock.getTime() + 60 * 86_400_000);
  const later = (await timed.diskUsage(ref, 1000)).usedMb;
  assert.ok(fresh > 0 && later > fresh, `${fresh} → ${later}`);

  const a = await panel.ssoUrl(ref);
  const b = await panel.ssoUrl(ref);
  assert.notEqual(a.url, b.url);
  const url = new URL(a.url);
  assert.equal(url.protocol, 'https:');
  assert.equal(url.hostname, serverHostname);
  assert.match(url.pathname, /^\/cpsess\d{10}\/login\/$/);
  assert.ok(url.searchParams.get('session')!.startsWith(`${username}:`));
  const left = a.expiresAt.getTime() - Date.now();
  assert.ok(left > 50_000 && left <= 61_000, `${left} ms`);
  const sessions = await db.selectFrom('sim_hosting_sso_sessions').select(['used_at']).where('account_id', '=', ref).execute();
  assert.deepEqual(sessions, [{ used_at: null }, { used_at: null }]);
});

test('fault switch: each call fails as asked, the calls filter spares the others, remaining counts down', async () => {
  await onlyServers([10]);
  const { ref } = await panel.createAccount(request('faulty.com'), quiet);
  await setFaultSwitch(db, 'hosting', { mode: 'upstream_error', calls: ['createAccount'], remaining: 2 });
  await rejectsWith(panel.createAccount(request('f1.com'), quiet), 'UPSTREAM_ERROR', true, /\(createAccount\)/);
  assert.ok((await panel.diskUsage(ref, 1000)).usedMb > 0, 'another call is spared');
  await rejectsWith(panel.createAccount(request('f2.com'), quiet), 'UPSTREAM_ERROR', true);
  assert.equal((await panel.createAccount(request('f3.com'), quiet)).username, 'f3', 'the count ran out');
  await setFaultSwitch(db, 'hosting', { mode: 'capacity_unavailable', calls: ['createAccount'], remaining: 1 });
  await rejectsWith(panel.createAccount(request('f4.com'), quiet), 'CAPACITY_UNAVAILABLE', false);
  await setFaultSwitch(db, 'hosting', { mode: 'upstream_error', remaining: null, calls: [] });
  await rejectsWith(panel.listServers(), 'UPSTREAM_ERROR', true, /\(listServers\)/);
  await rejectsWith(panel.ssoUrl(ref), 'UPSTREAM_ERROR', true);
  await rejectsWith(panel.terminate(ref, 'op_x'), 'UPSTREAM_ERROR', true);
  // The compute provider's switch is another switch.
  await setFaultSwitch(db, 'hosting', { mode: 'none' });
  await setFaultSwitch(db, 'compute', { mode: 'upstream_error' });
  assert.ok((await panel.listServers()).length > 0);
  await setFaultSwitch(db, 'compute', { mode: 'none' });
});

test('diskUsage honours its deadline: a hanging panel rejects after timeoutMs', async () => {
  await onlyServers([10]);
  const { ref } = await panel.createAccount(request('hangs.com'), quiet);
  await setFaultSwitch(db, 'hosting', { mode: 'timeout', calls: ['diskUsage'] });
  const started = Date.now();
  await rejectsWith(panel.diskUsage(ref, 150), 'UPSTREAM_ERROR', true, /timed out after 150 ms/);
  const took = Date.now() - started;
  // Not before its deadline; the message names the deadline (150 ms), not the fault's longer hang.
  // No upper bound in milliseconds: a busy machine may answer late.
  assert.ok(took >= 140, `${took} ms`);
  await setFaultSwitch(db, 'hosting', { mode: 'none' });
});

test('steps take delayMs each', async () => {
  await onlyServers([10]);
  const slow = createSimulatedPanel({ db, delayMs: 40 });
  const started = Date.now();
  await slow.createAccount(request('slow.com'), quiet);
  const took = Date.now() - started;
  assert.ok(took >= 4 * 40 - 5, `${took} ms for four steps`);
});
