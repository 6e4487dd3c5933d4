// A real PowerDNS Authoritative for a test file: `pdns_server` from Debian's pdns-server with the
// sqlite3 backend (pdns-backend-sqlite3), started in the foreground on 127.0.0.1 with free DNS and
// API ports, its own config directory and database (the backend's schema, loaded with the sqlite3
// command), stopped and removed when the file ends. Answers are read with `dig` (bind9-dnsutils).
// Without them the file skips with one line — unless POWERDNS_TESTS=required (CI), when it fails.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileP = promisify(execFile);

const SCHEMAS = ['/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql', '/usr/share/doc/pdns-backend-sqlite3/schema.sqlite3.sql'];

async function which(cmd: string): Promise<boolean> {
  return execFileP('sh', ['-c', `command -v ${cmd}`]).then(() => true, () => false);
}

async function probe(): Promise<string | { schema: string; server: string }> {
  const server = ['/usr/sbin/pdns_server', '/usr/bin/pdns_server'].find((p) => fs.existsSync(p));
  if (!server) return 'pdns_server is not installed (apt-get install pdns-server pdns-backend-sqlite3)';
  const schema = SCHEMAS.find((p) => fs.existsSync(p));
  if (!schema) return 'the sqlite3 backend\'s schema is missing (apt-get install pdns-backend-sqlite3)';
  if (!(await which('sqlite3'))) return 'sqlite3 is not installed (apt-get install sqlite3)';
  if (!(await which('dig'))) return 'dig is not installed (apt-get install bind9-dnsutils)';
  return { schema, server };
}

const probed = await probe();
if (typeof probed === 'string' && process.env.POWERDNS_TESTS === 'required') throw new Error(`POWERDNS_TESTS=required but ${probed}`);

/** `skip` for the file's suite: false, or why it is skipped. */
export const powerDnsSkip: string | false = typeof probed === 'string' ? `PowerDNS not available: ${probed}` : false;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export interface PowerDns {
  dnsPort: number;
  apiUrl: string;
  apiKey: string;
  /** Starts it (again, on the same ports and database); nothing when it runs. */
  start(): Promise<void>;
  /** Stops it (SIGTERM, then SIGKILL). */
  stop(): Promise<void>;
  /** Empties its database (every zone and record gone): PowerDNS having lost its data. */
  wipe(): Promise<void>;
  /** `dig +short` at it: the answer's lines ([] for none). */
  dig(name: string, type: string): Promise<string[]>;
  /** Polls dig until `ok` holds for the answer, or fails after `timeoutMs`. */
  waitFor(name: string, type: string, ok: (answer: string[]) => boolean, timeoutMs?: number): Promise<string[]>;
  /** Stops it and removes its directory (the file's `after`). */
  close(): Promise<void>;
}

export async function startPowerDns(): Promise<PowerDns> {
  if (typeof probed === 'string') throw new Error(probed);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'hc-pdns-'));
  const db = path.join(dir, 'pdns.sqlite3');
  await execFileP('sh', ['-c', `sqlite3 "${db}" < "${probed.schema}"`]);
  fs.writeFileSync(path.join(dir, 'pdns.conf'), '');
  const [dnsPort, apiPort] = [await freePort(), await freePort()];
  const apiKey = randomBytes(16).toString('hex');
  const args = [
    '--daemon=no', '--guardian=no', `--config-dir=${dir}`, `--socket-dir=${dir}`, '--launch=gsqlite3', `--gsqlite3-database=${db}`,
    '--local-address=127.0.0.1', `--local-port=${dnsPort}`, '--api=yes', `--api-key=${apiKey}`, '--webserver=yes',
    '--webserver-address=127.0.0.1', `--webserver-port=${apiPort}`, '--webserver-allow-from=127.0.0.1/32',
    // The tests read what was just written: no caching between a change and the next query.
    '--cache-ttl=0', '--negquery-cache-ttl=0', '--query-cache-ttl=0', '--zone-cache-refresh-interval=0',
    '--loglevel=4', '--disable-syslog=yes',
  ];
  let child: ChildProcess | null = null;
  let output = '';
  const apiUrl = `http://127.0.0.1:${apiPort}`;

  async function start(): Promise<void> {
    if (child && child.exitCode === null) return;
    child = spawn(probed && typeof probed !== 'string' ? probed.server : 'pdns_server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d) => { output += String(d); });
    child.stderr!.on('data', (d) => { output += String(d); });
    const deadline = Date.now() + 15_000;
    for (;;) {
      const ok = await fetch(`${apiUrl}/api/v1/servers/localhost`, { headers: { 'X-API-Key': apiKey }, signal: AbortSignal.timeout(1000) }).then((r) => r.ok, () => false);
      if (ok) return;
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`pdns_server did not start:\n${output.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function stop(): Promise<void> {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    const timer = setTimeout(() => c.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  }

  async function dig(name: string, type: string): Promise<string[]> {
    const { stdout } = await execFileP('dig', ['@127.0.0.1', '-p', String(dnsPort), '+short', '+tries=1', '+time=2', name, type]);
    return stdout.split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith(';'));
  }

  async function waitFor(name: string, type: string, ok: (answer: string[]) => boolean, timeoutMs = 5000): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    let last: string[] = [];
    for (;;) {
      last = await dig(name, type).catch(() => []);
      if (ok(last)) return last;
      if (Date.now() > deadline) throw new Error(`${name} ${type}: no matching answer within ${timeoutMs} ms (last: ${JSON.stringify(last)})`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async function wipe(): Promise<void> {
    await execFileP('sqlite3', [db, 'DELETE FROM records; DELETE FROM domainmetadata; DELETE FROM domains;']);
  }

  async function close(): Promise<void> {
    await stop();
    await rm(dir, { recursive: true, force: true });
  }

  await start();
  return { dnsPort, apiUrl, apiKey, start, stop, wipe, dig, waitFor, close };
}
