// `hostcloud serve` as an operator meets it: the banner's admin command works as printed from
// another directory, a taken port is one line naming PORT, with nothing left running, and a
// second signal while it stops does not cut the stop short.
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(root, 'bin/hostcloud.js');
const dirs: string[] = [];
const children: ChildProcess[] = [];
after(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

async function tmpDir(): Promise<string> {
  const d = await fs.mkdtemp(path.join(os.tmpdir(), 'hc-serve-'));
  await fs.chmod(d, 0o755);
  dirs.push(d);
  return d;
}

/** The environment of a fresh operator's shell: none of the server's or tests' settings. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of ['DATA_DIR', 'ADMIN_TOKEN', 'DATABASE_URL', 'HOSTCLOUD_URL', 'PORT', 'HOST', 'REDIS_URL', 'LOG_FORMAT']) delete env[k];
  return { ...env, ...extra };
}

function serve(env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, 'serve'], { cwd: root, env: cleanEnv({ WORKER: 'off', LOG_LEVEL: 'warn', ...env }), stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, out: () => stdout, err: () => stderr };
}

// Waits, not bounds: an embedded PostgreSQL's first start (initdb) took over 60 s on a busy machine.
async function until<T>(fn: () => T | undefined, what: string, ms = 180_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('the banner prints an admin command that works as printed, from another directory', async () => {
  const dataDir = path.join(await tmpDir(), 'data with space');
  // A person at a terminal reads the banner (pretty logs); a JSON log gets it as a JSON line (below).
  const s = serve({ DATA_DIR: dataDir, PORT: '0', LOG_FORMAT: 'pretty' });
  const command = await until(() => /\n {4}(\S.* admin --url \S+ accounts create .*)\n/.exec(s.out())?.[1], `the banner (${s.err()})`);
  assert.match(s.out(), /Database: embedded PostgreSQL in .*data with space\/pg/);
  assert.ok(command.includes(BIN), 'the absolute path of bin/hostcloud.js');
  assert.ok(command.startsWith(`DATA_DIR='${dataDir}' `), command);
  const elsewhere = await tmpDir();
  const run = (cmd: string) => new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile('/bin/sh', ['-c', cmd], { cwd: elsewhere, env: cleanEnv({}), timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
  const created = await run(command);
  assert.equal(created.code, 0, created.stderr);
  assert.match(created.stdout, /^Account acc_\w+ opened\n/);
  assert.match(created.stdout, /balance +100\.00 USD/);
  assert.match(created.stdout, /API key \(shown once, store it now\): hc_live_/);
  const listed = await run(command.replace(/ accounts create .*/, ' accounts list --json'));
  assert.equal(listed.code, 0, listed.stderr);
  assert.deepEqual(JSON.parse(listed.stdout).data.map((a: { email: string }) => a.email), ['you@example.com']);
  s.child.kill('SIGTERM');
  assert.equal(await s.exited, 0);
  assert.match(s.out(), /stopped cleanly/);
});

test('a taken port: one line naming PORT, exit 1, no stack trace, no PostgreSQL left running', async () => {
  const blocker = net.createServer();
  await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
  const { port } = blocker.address() as net.AddressInfo;
  try {
    const dataDir = path.join(await tmpDir(), 'data');
    const s = serve({ DATA_DIR: dataDir, PORT: String(port) });
    assert.equal(await s.exited, 1);
    assert.equal(s.err(), `hostcloud: port ${port} is in use; set PORT to another port\n`);
    assert.doesNotMatch(s.out(), /listening/);
    const pid = await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => null);
    assert.equal(pid, null, 'the embedded PostgreSQL was stopped');
  } finally {
    blocker.close();
  }
});

test('SIGTERM twice (a supervisor and npm both pass it on): the stop still completes, exit 0, the embedded PostgreSQL stopped', async () => {
  const dataDir = path.join(await tmpDir(), 'data');
  const s = serve({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', LOG_FORMAT: 'json' });
  await until(() => (/"msg":"hostcloud listening"/.test(s.out()) ? true : undefined), `the banner (${s.err()})`);
  s.child.kill('SIGTERM');
  // The second arrives while the first's stop is under way (it has logged that it is shutting down).
  await until(() => (/shutting down/.test(s.out()) ? true : undefined), 'the stop to begin');
  s.child.kill('SIGTERM');
  assert.equal(await s.exited, 0, s.err());
  // With LOG_FORMAT=json every line of stdout is one JSON object, the banner and the goodbye included.
  const lines = s.out().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  const start = lines.find((l) => l.msg === 'hostcloud listening');
  assert.ok(start, s.out());
  assert.match(String(start.listen), /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.match(String(start.admin_command), / admin --url http:\/\/127\.0\.0\.1:\d+ accounts create /);
  assert.match(String(start.database), /^embedded PostgreSQL in /);
  assert.equal(start.level, 30);
  assert.equal(lines.at(-1)!.msg, 'hostcloud stopped cleanly');
  const pid = await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').catch(() => null);
  assert.equal(pid, null, 'the embedded PostgreSQL was stopped');
});
