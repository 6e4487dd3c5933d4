// One admin token per installation: made once for the database by the first process, its SHA-256
// kept there, shown in full once and written to that process's DATA_DIR/admin-token; every process
// on the database accepts it. ADMIN_TOKEN, when set, is used instead.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.ts';
import { isAdminToken } from '../src/http/bearer.ts';
import { ADMIN_TOKEN_SECRET, resolveAdminToken } from '../src/runtime.ts';
import { startApp } from './helpers/app.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dirs: string[] = [];
const children: ChildProcess[] = [];
after(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

async function tmpDir(): Promise<string> {
  const d = await fs.mkdtemp(path.join(os.tmpdir(), 'hc-admin-token-'));
  dirs.push(d);
  return d;
}

const t = await startApp();
const forgetToken = () => t.database.db.deleteFrom('app_secrets').where('name', '=', ADMIN_TOKEN_SECRET).execute();

test('made once per database: the maker knows it (file 0600), another DATA_DIR accepts it without it; a stale file is named; ADMIN_TOKEN wins', async () => {
  await forgetToken();
  const a = loadConfig({ DATA_DIR: await tmpDir(), DATABASE_URL: t.databaseUrl });
  const first = await resolveAdminToken(a, t.database.db);
  assert.equal(first.generated, true);
  assert.match(first.token!, /^hcadm_[A-Za-z0-9_-]{32}$/);
  assert.equal((await fs.readFile(path.join(a.dataDir, 'admin-token'), 'utf8')).trim(), first.token);
  assert.equal((await fs.stat(path.join(a.dataDir, 'admin-token'))).mode & 0o077, 0, 'only the owner can read the token file');
  const row = await t.database.db.selectFrom('app_secrets').select('value').where('name', '=', ADMIN_TOKEN_SECRET).executeTakeFirstOrThrow();
  assert.notEqual(row.value, first.token, 'the database keeps a digest, not the token');

  const again = await resolveAdminToken(a, t.database.db);
  assert.deepEqual({ token: again.token, generated: again.generated }, { token: first.token, generated: false });

  const otherDir = await tmpDir();
  const other = await resolveAdminToken(loadConfig({ DATA_DIR: otherDir, DATABASE_URL: t.databaseUrl }), t.database.db);
  assert.equal(other.token, null, 'another process does not learn the token');
  assert.equal(other.generated, false);
  assert.ok(isAdminToken(first.token!, other.secret), 'and accepts it');
  assert.equal(isAdminToken(`${first.token!}x`, other.secret), false);
  await assert.rejects(fs.stat(path.join(otherDir, 'admin-token')), 'nothing written where the token is not known');

  // A DATA_DIR/admin-token from another installation: not accepted, and said so.
  const staleDir = await tmpDir();
  await fs.writeFile(path.join(staleDir, 'admin-token'), 'hcadm_from-another-installation-0123456789\n');
  const stale = await resolveAdminToken(loadConfig({ DATA_DIR: staleDir, DATABASE_URL: t.databaseUrl }), t.database.db);
  assert.equal(stale.staleFile, true);
  assert.equal(isAdminToken('hcadm_from-another-installation-0123456789', stale.secret), false);

  const env = await resolveAdminToken(loadConfig({ DATA_DIR: otherDir, ADMIN_TOKEN: 'from-env-0123456789abcdefghij' }), t.database.db);
  assert.equal(env.token, 'from-env-0123456789abcdefghij');
  assert.equal(isAdminToken(first.token!, env.secret), false, 'ADMIN_TOKEN is used instead of the generated one');
});

test('a DATA_DIR/admin-token from before the database kept one becomes the installation\'s token', async () => {
  await forgetToken();
  const dir = await tmpDir();
  await fs.writeFile(path.join(dir, 'admin-token'), 'hcadm_kept-from-an-earlier-version-0123\n', { mode: 0o600 });
  const r = await resolveAdminToken(loadConfig({ DATA_DIR: dir, DATABASE_URL: t.databaseUrl }), t.database.db);
  assert.deepEqual({ token: r.token, generated: r.generated, staleFile: r.staleFile }, { token: 'hcadm_kept-from-an-earlier-version-0123', generated: false, staleFile: false });
});

interface Serve { child: ChildProcess; out: () => string; exited: Promise<number | null> }

function serve(dataDir: string): Serve {
  const env = { ...process.env };
  for (const k of ['DATA_DIR', 'ADMIN_TOKEN', 'REDIS_URL', 'PORT', 'HOST']) delete env[k];
  const child = spawn(process.execPath, [path.join(root, 'bin/hostcloud.js'), 'serve'], {
    cwd: root,
    env: { ...env, DATABASE_URL: t.databaseUrl, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', WORKER: 'off', LOG_FORMAT: 'json', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (out += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, exited };
}

async function banner(s: Serve): Promise<Record<string, unknown>> {
  const end = Date.now() + 60_000;
  for (;;) {
    const line = s.out().split('\n').find((l) => l.includes('"msg":"hostcloud listening"'));
    if (line) return JSON.parse(line) as Record<string, unknown>;
    if (s.child.exitCode !== null) throw new Error(`hostcloud serve exited (${s.child.exitCode}):\n${s.out()}`);
    if (Date.now() > end) throw new Error(`no banner:\n${s.out()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('two `hostcloud serve` on one DATABASE_URL without ADMIN_TOKEN: one token, printed once, accepted by both', async () => {
  await forgetToken();
  const dirA = await tmpDir();
  const dirB = await tmpDir();
  const servers = [serve(dirA), serve(dirB)];
  const banners = await Promise.all(servers.map(banner));
  const full = banners.filter((b) => typeof b.admin_token === 'string' && /^hcadm_[A-Za-z0-9_-]{32}$/.test(b.admin_token));
  assert.equal(full.length, 1, `exactly one process made and printed the token: ${JSON.stringify(banners.map((b) => [b.admin_token, b.admin_token_source]))}`);
  const token = full[0]!.admin_token as string;
  const files = (await Promise.all([dirA, dirB].map((d) => fs.readFile(path.join(d, 'admin-token'), 'utf8').catch(() => null)))).filter((f) => f !== null);
  assert.deepEqual(files.map((f) => f.trim()), [token], 'written to the maker\'s DATA_DIR only');
  const other = banners.find((b) => b !== full[0])!;
  assert.equal(other.admin_token, null);
  assert.match(String(other.admin_token_source), /another process of this installation/);
  assert.match(String(other.admin_command), /^ADMIN_TOKEN="\$ADMIN_TOKEN" /);
  for (const b of banners) assert.ok((b.setup_missing as string[]).some((m) => m.startsWith('smtp: SMTP_URL is not set')), 'the banner lists what the setup lacks');
  for (const b of banners) {
    const res = await fetch(`${String(b.listen)}/admin/v1/setup`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200, `${String(b.listen)} accepts the installation's token`);
    const wrong = await fetch(`${String(b.listen)}/admin/v1/setup`, { headers: { authorization: `Bearer ${token}x` } });
    assert.equal(wrong.status, 401);
  }
  for (const s of servers) s.child.kill('SIGTERM');
  assert.deepEqual(await Promise.all(servers.map((s) => s.exited)), [0, 0]);
});
