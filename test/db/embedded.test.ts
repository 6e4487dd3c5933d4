// The embedded PostgreSQL of `npm start`: real server, data kept across restarts, free ports so
// instances (and the machine's own PostgreSQL) run side by side (the admin token: test/admin-token.test.ts).
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { after, test } from 'node:test';
import { loadConfig } from '../../src/config.ts';
import { connect } from '../../src/db/connection.ts';
import { EmbeddedError, ROOT_STATE_DIR, startEmbedded } from '../../src/db/embedded.ts';
import { openStore } from '../../src/runtime.ts';

const dirs: string[] = [];
async function tmpDir(): Promise<string> {
  const d = await fs.mkdtemp(path.join(os.tmpdir(), 'hc-embedded-'));
  await fs.chmod(d, 0o755);
  dirs.push(d);
  return d;
}
after(async () => {
  for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
});

test('data survives a restart; two instances run side by side on different ports', async () => {
  const a = loadConfig({ DATA_DIR: await tmpDir() });
  const b = loadConfig({ DATA_DIR: await tmpDir() });
  const [sa, sb] = await Promise.all([openStore(a), openStore(b)]);
  try {
    assert.ok(sa.embedded && sb.embedded);
    const portA = new URL(sa.embedded.adminUrl).port;
    const portB = new URL(sb.embedded.adminUrl).port;
    assert.notEqual(portA, portB);
    assert.notEqual(portA, '5432');
    const plans = await sa.database.db.selectFrom('plans').select('id').execute();
    assert.ok(plans.length >= 5, 'seeded on first start');
    await sa.database.db.insertInto('accounts').values({ id: 'acc_persist', email: 'p@example.com', name: 'P', company: null, phone: null, country: null, status: 'active', discount_type: null }).execute();
  } finally {
    await sb.close();
    await sa.close();
  }
  const again = await openStore(a);
  try {
    const row = await again.database.db.selectFrom('accounts').select('email').where('id', '=', 'acc_persist').executeTakeFirst();
    assert.equal(row?.email, 'p@example.com');
    const plans = await again.database.db.selectFrom('plans').select('id').execute();
    const first = await sa.database.db.selectFrom('plans').select('id').execute().catch(() => null);
    assert.equal(first, null, 'the first connection is closed');
    assert.equal(plans.length, 6, 'the seed did not run twice');
  } finally {
    await again.close();
  }
  // After close the server is gone: nothing listens on its port any more.
  const probe = connect(again.embedded!.adminUrl, { max: 1 });
  await assert.rejects(probe.db.selectFrom('accounts').selectAll().execute());
  await probe.close();
});

function postmasterPid(dataDir: string): Promise<number> {
  return fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').then((t) => Number(t.split('\n')[0]));
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

test('a postmaster orphaned by a SIGKILLed process is stopped on the next start', async () => {
  const dir = await tmpDir();
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/start-embedded.ts', dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (c) => resolve(String(c).trim()));
    child.on('exit', (code) => reject(new Error(`fixture exited ${code}`)));
  });
  assert.match(url, /^postgres:\/\//);
  const orphan = await postmasterPid(dir);
  child.kill('SIGKILL');
  await new Promise((r) => child.on('exit', r));
  assert.ok(running(orphan), 'PostgreSQL outlives a SIGKILLed parent (it runs in its own process group)');
  const stat = await fs.readFile(`/proc/${orphan}/stat`, 'utf8');
  assert.notEqual(Number(stat.split(') ')[1]!.split(' ')[2]), process.pid, 'not in our process group');

  const server = await startEmbedded(dir);
  try {
    assert.equal(running(orphan), false, 'the orphan was stopped');
    const db = connect(server.adminUrl, { max: 1 });
    await db.pool.query('select 1');
    await db.close();
  } finally {
    await server.stop();
  }
});

test('a server that dies under us (SIGKILL) is started again on the same port; stop() stops the new one', { timeout: 120_000 }, async () => {
  const dir = await tmpDir();
  const logs: string[] = [];
  const server = await startEmbedded(dir, (m) => logs.push(m));
  const db = connect(server.adminUrl, { max: 2, connectTimeoutMs: 2_000 });
  try {
    const started = async () => (await db.pool.query<{ t: Date }>('SELECT pg_postmaster_start_time() AS t')).rows[0]!.t.getTime();
    const first = await started();
    const killed = await postmasterPid(dir);
    process.kill(killed, 'SIGKILL');
    // A backend of the killed server may still answer for a moment: wait for a later start time.
    let again = 0;
    for (const end = Date.now() + 60_000; again <= first && Date.now() < end;) {
      again = await started().catch(() => 0);
      if (again <= first) await new Promise((r) => setTimeout(r, 200));
    }
    assert.ok(again > first, `running again at ${server.adminUrl}: ${logs.slice(-5).join(' | ')}`);
    assert.ok(logs.some((l) => l.includes('exited unexpectedly (SIGKILL)')), 'it says why');
    const restarted = await postmasterPid(dir);
    assert.notEqual(restarted, killed);
    await db.close();
    await server.stop();
    assert.equal(running(restarted), false, 'stop() stops the server started again');
  } finally {
    await db.close().catch(() => {});
    await server.stop();
  }
});

test('a PostgreSQL that cannot start reports why, without a stack trace in the message', async () => {
  const dir = await tmpDir();
  const first = await startEmbedded(dir);
  await first.stop();
  await fs.appendFile(path.join(dir, 'pg', 'postgresql.conf'), '\nthis_is_not_a_setting = 1\n');
  await assert.rejects(startEmbedded(dir), (e: Error) => {
    assert.ok(e instanceof EmbeddedError);
    assert.match(e.message, /this_is_not_a_setting/);
    return true;
  });
});

test('as root, a DATA_DIR the postgres user cannot reach (a checkout under /root) keeps its cluster under /var/lib/hostcloud; data survives restarts', { skip: process.getuid?.() !== 0 && 'needs root' }, async () => {
  const closed = await fs.mkdtemp(path.join(os.tmpdir(), 'hc-closed-'));
  dirs.push(closed);
  await fs.chmod(closed, 0o700);
  const dataDir = path.join(closed, 'data');
  const config = loadConfig({ DATA_DIR: dataDir });
  const first = await openStore(config);
  const cluster = first.embedded!.clusterDir;
  try {
    assert.ok(cluster.startsWith(`${ROOT_STATE_DIR}/data-`), cluster);
    assert.equal(await fs.readlink(path.join(dataDir, 'pg')), cluster, 'DATA_DIR/pg links to it');
    const st = await fs.stat(cluster);
    assert.equal(st.uid, Number((await fs.readFile('/etc/passwd', 'utf8')).split('\n').find((l) => l.startsWith('postgres:'))!.split(':')[2]), 'owned by postgres');
    assert.equal(st.mode & 0o077, 0, 'private to postgres');
    await first.database.db.insertInto('accounts').values({ id: 'acc_root', email: 'root@example.com', name: 'R', company: null, phone: null, country: null, status: 'active', discount_type: null }).execute();
  } finally {
    await first.close();
  }
  const again = await openStore(config);
  try {
    assert.equal(again.embedded!.clusterDir, cluster, 'the same cluster after a restart');
    const row = await again.database.db.selectFrom('accounts').select('email').where('id', '=', 'acc_root').executeTakeFirst();
    assert.equal(row?.email, 'root@example.com');
  } finally {
    await again.close();
    await fs.rm(cluster, { recursive: true, force: true });
  }
});

test('a DATA_DIR the postgres user can reach keeps its cluster in DATA_DIR/pg', async () => {
  const dir = await tmpDir();
  const server = await startEmbedded(dir);
  try {
    assert.equal(server.clusterDir, path.join(dir, 'pg'));
    assert.equal((await fs.lstat(path.join(dir, 'pg'))).isDirectory(), true);
  } finally {
    await server.stop();
  }
});
