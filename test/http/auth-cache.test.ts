// The key cache: a key is read once per process, and every process hears of a revocation,
// allowlist, scope, sub-user or account-status change within a second (NOTIFY from the
// triggers of migration 0014), also while its listen connection is down (the TTL backstop).
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import type { App } from '../../src/http/app.ts';
import { type TestApp, adminCall, call, createCustomer, json, startApp } from '../helpers/app.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let t: TestApp;
let other: App;
const kids: ChildProcess[] = [];

before(async () => {
  t = await startApp();
  // Another API on the same database, with its own cache and listen connection.
  other = await t.sibling();
});
after(() => { for (const k of kids) k.kill('SIGKILL'); });

type Get = () => Promise<{ status: number; code?: string }>;
const viaApp = (app: App, key: string): Get => async () => {
  const res = await call(app, 'GET', '/v2/account', { key });
  return { status: res.statusCode, code: res.statusCode === 200 ? undefined : json(res).error.code };
};

/** How long after `change` resolves `get` first answers `status` (polling every 20 ms, up to 3 s). */
async function msUntil(get: Get, status: number, change: () => Promise<unknown>): Promise<{ ms: number; code?: string }> {
  await change();
  const t0 = Date.now();
  for (;;) {
    const r = await get();
    if (r.status === status) return { ms: Date.now() - t0, code: r.code };
    assert.ok(Date.now() - t0 < 3_000, `still ${r.status} after 3 s`);
    await new Promise((res) => setTimeout(res, 20));
  }
}

test('a revoked key is refused by a second API process within 1 s', { timeout: 60_000 }, async () => {
  const c = await createCustomer(t);
  const child = spawn(process.execPath, [path.join(root, 'bin/hostcloud.js'), 'serve'], {
    cwd: root, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DATABASE_URL: t.databaseUrl, PORT: '0', HOST: '127.0.0.1', WORKER: 'off', LOG_LEVEL: 'warn', ADMIN_TOKEN: t.adminToken, REDIS_URL: '' },
  });
  kids.push(child);
  let out = '';
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += String(d);
      const m = /(?:listening on |"listen":")http:\/\/[^\s"]+:(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
  const get: Get = async () => {
    const res = await fetch(`http://127.0.0.1:${port}/v2/account`, { headers: { authorization: `Bearer ${c.key}` } });
    return { status: res.status, code: res.status === 200 ? undefined : ((await res.json()) as { error: { code: string } }).error.code };
  };
  assert.equal((await get()).status, 200);
  assert.equal((await get()).status, 200, 'served from its cache');
  const { ms, code } = await msUntil(get, 401, async () => assert.equal((await adminCall(t, 'DELETE', `/admin/v1/api-keys/${c.keyId}`)).statusCode, 200));
  assert.equal(code, 'AUTH_INVALID');
  assert.ok(ms < 1_000, `refused ${ms} ms after the revocation`);
  process.stdout.write(`# the second process refused the revoked key ${ms} ms after the revocation\n`);
  await new Promise((r) => { child.once('exit', r); child.kill('SIGTERM'); });
});

test('the process that made the change refuses at once; another within 1 s', async () => {
  const c = await createCustomer(t);
  for (const app of [t.app, other]) assert.equal((await viaApp(app, c.key)()).status, 200);
  assert.equal((await adminCall(t, 'DELETE', `/admin/v1/api-keys/${c.keyId}`)).statusCode, 200);
  assert.equal((await viaApp(t.app, c.key)()).status, 401, 'at once where the change was made');
  const { ms } = await msUntil(viaApp(other, c.key), 401, async () => {});
  assert.ok(ms < 1_000, `${ms} ms`);
});

test('account suspended, key allowlist or scopes changed (even by raw SQL), sub-user disabled: refused everywhere within 1 s', async () => {
  const c = await createCustomer(t);
  const get = viaApp(other, c.key);
  assert.equal((await get()).status, 200);
  const suspended = await msUntil(get, 403, () => adminCall(t, 'PATCH', `/admin/v1/accounts/${c.accountId}`, { status: 'suspended' }));
  assert.equal(suspended.code, 'ACCOUNT_INACTIVE');
  assert.ok(suspended.ms < 1_000, `suspension: ${suspended.ms} ms`);
  await adminCall(t, 'PATCH', `/admin/v1/accounts/${c.accountId}`, { status: 'active' });
  await msUntil(get, 200, async () => {});

  // Raw SQL is seen by no plugin: only the trigger's NOTIFY tells the processes.
  const allow = await msUntil(get, 403, () => sql`UPDATE api_keys SET ip_allowlist = '{10.0.0.0/8}' WHERE id = ${c.keyId}`.execute(t.database.db));
  assert.equal(allow.code, 'AUTH_IP_NOT_ALLOWED');
  assert.ok(allow.ms < 1_000, `allowlist: ${allow.ms} ms`);
  await sql`UPDATE api_keys SET ip_allowlist = '{127.0.0.1/32}' WHERE id = ${c.keyId}`.execute(t.database.db);
  await msUntil(get, 200, async () => {});
  const scope = await msUntil(get, 403, () => sql`UPDATE api_keys SET scopes = '{servers:read}' WHERE id = ${c.keyId}`.execute(t.database.db));
  assert.equal(scope.code, 'AUTH_SCOPE_INSUFFICIENT');
  assert.ok(scope.ms < 1_000, `scopes: ${scope.ms} ms`);

  const owner = await createCustomer(t);
  const su = await adminCall(t, 'POST', `/admin/v1/accounts/${owner.accountId}/sub-users`, { email: `su-${Date.now()}@example.com`, first_name: 'Sub', last_name: 'User' });
  assert.equal(su.statusCode, 201, su.body);
  const suId = json(su).data.id;
  assert.equal((await call(t.app, 'PUT', `/v2/sub-users/${suId}/permissions`, { key: owner.key, body: { permissions: ['account:read'] } })).statusCode, 200);
  assert.equal((await call(t.app, 'PATCH', `/v2/sub-users/${suId}`, { key: owner.key, body: { status: 'active' } })).statusCode, 200);
  const k = await adminCall(t, 'POST', `/admin/v1/accounts/${owner.accountId}/api-keys`, { name: 'sub', ip_allowlist: ['127.0.0.1'], sub_user_id: suId });
  assert.equal(k.statusCode, 201, k.body);
  const subGet = viaApp(other, json(k).data.key);
  assert.equal((await subGet()).status, 200);
  const disabled = await msUntil(subGet, 403, () => call(t.app, 'PATCH', `/v2/sub-users/${suId}`, { key: owner.key, body: { status: 'inactive' } }));
  assert.ok(disabled.ms < 1_000, `sub-user: ${disabled.ms} ms`);
});

test('listen connection cut: a revocation it cannot announce still takes effect within 1 s (the cache is dropped on reconnect, and trusted only 1 s meanwhile); it reconnects', async () => {
  const c = await createCustomer(t);
  const get = viaApp(other, c.key);
  assert.equal((await get()).status, 200);
  const listeners = () => sql<{ pid: number }>`
    SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'hostcloud auth listener' AND pid <> pg_backend_pid()`.execute(t.database.db);
  const before = (await listeners()).rows.map((r) => r.pid);
  assert.equal(before.length, 2, 'one listen connection per app');
  // Cut them all and revoke in one statement, so no NOTIFY can reach any app.
  const { ms } = await msUntil(get, 401, () => sql`
    WITH cut AS (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                 WHERE datname = current_database() AND application_name = 'hostcloud auth listener' AND pid <> pg_backend_pid())
    UPDATE api_keys SET revoked_at = now() WHERE id = ${c.keyId} AND (SELECT count(*) FROM cut) >= 0`.execute(t.database.db));
  assert.ok(ms < 1_500, `${ms} ms`);
  const deadline = Date.now() + 10_000;
  while ((await listeners()).rows.filter((r) => !before.includes(r.pid)).length < 2) {
    assert.ok(Date.now() < deadline, 'the listen connections came back');
    await new Promise((r) => setTimeout(r, 50));
  }
});
