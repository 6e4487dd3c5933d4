// Registrations per second through the API with REGISTRAR_DRIVER=epp, against the EPP test
// registry in this process (127.0.0.1, TLS with a test CA): `hostcloud serve` (embedded worker)
// on the bench's database, an account with money, then `count` POST /v2/domains at once, timed
// from the first request to the last domain active (every name checked, charged, created at the
// registry over EPP and activated). Run with EPP_SESSIONS=1 and 2: one command at a time per session.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../src/core/types.ts';
import { startTestRegistry } from '../src/providers/registrar/epp/test-registry/server.ts';

const freePort = () => new Promise<number>((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address() as net.AddressInfo;
    s.close(() => resolve(port));
  });
});

async function until<T>(timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface EppBench {
  sessions: number;
  count: number;
  seconds: number;
  perS: number;
}

export async function eppBench(root: string, db: Db, databaseUrl: string, sessions: number, count: number): Promise<EppBench> {
  const registry = await startTestRegistry();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hc-bench-epp-'));
  const files = { ca: path.join(dir, 'ca.pem'), cert: path.join(dir, 'client.pem'), key: path.join(dir, 'client.key') };
  await fs.writeFile(files.ca, registry.pki.caCert);
  await fs.writeFile(files.cert, registry.pki.clientCert);
  await fs.writeFile(files.key, registry.pki.clientKey);
  const port = await freePort();
  const admin = `bench-admin-${randomBytes(8).toString('hex')}`;
  let child: ChildProcess | null = null;
  try {
    child = spawn(process.execPath, [path.join(root, 'bin/hostcloud.js'), 'serve'], {
      cwd: root, stdio: 'ignore',
      env: {
        ...process.env, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl, ADMIN_TOKEN: admin, WORKER: 'embedded', DATA_DIR: dir,
        SIM_DELAY_MS: '0', RATE_LIMIT_MAX: '100000', WORKER_POLL_MS: '20', WORKER_CONCURRENCY: '8', LOG_LEVEL: 'warn',
        REGISTRAR_DRIVER: 'epp', EPP_HOST: '127.0.0.1', EPP_PORT: String(registry.port), EPP_CLIENT_ID: 'hostcloud', EPP_PASSWORD: 'test-password',
        EPP_CLIENT_CERT: files.cert, EPP_CLIENT_KEY: files.key, EPP_CA: files.ca, EPP_SESSIONS: String(sessions), EPP_POLL_S: '60',
      },
    });
    const base = `http://127.0.0.1:${port}`;
    await until(60_000, async () => ((await fetch(`${base}/healthz`)).ok ? true : undefined));
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const asAdmin = async (url: string, body: unknown): Promise<any> => {
      const r = await fetch(`${base}${url}`, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (r.status !== 201 && r.status !== 200) throw new Error(`POST ${url}: ${r.status} ${await r.text()}`);
      return r.json();
    };
    const acc = await asAdmin('/admin/v1/accounts', { email: `bench-${randomBytes(4).toString('hex')}@example.com`, name: 'EPP bench', country: 'DE' });
    const accountId = acc.data.id;
    await asAdmin(`/admin/v1/accounts/${accountId}/deposits`, { amount: '100000.00' });
    const key = (await asAdmin(`/admin/v1/accounts/${accountId}/api-keys`, { name: 'bench', ip_allowlist: ['127.0.0.1', '::1'] })).data.key;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    // One registration first (the sessions log in, the contact and hosts are made), not counted.
    const warm = await fetch(`${base}/v2/domains`, { method: 'POST', headers, body: JSON.stringify({ domain: `warm-${randomBytes(5).toString('hex')}.com`, years: 1, nameservers: ['ns1.bench-dns.net', 'ns2.bench-dns.net'] }) });
    if (warm.status !== 201) throw new Error(`warm-up registration: ${warm.status} ${await warm.text()}`);
    await until(60_000, async () => (registry.state.domains.size >= 1 ? true : undefined));
    const names = Array.from({ length: count }, () => `bench-${randomBytes(6).toString('hex')}.com`);
    const started = performance.now();
    const answers = await Promise.all(names.map((domain) => fetch(`${base}/v2/domains`, { method: 'POST', headers, body: JSON.stringify({ domain, years: 1, nameservers: ['ns1.bench-dns.net', 'ns2.bench-dns.net'] }) }).then((r) => r.status)));
    const refused = answers.filter((s) => s !== 201).length;
    if (refused) throw new Error(`${refused} of ${count} registrations were refused`);
    await until(300_000, async () => (names.every((n) => registry.state.domains.has(n)) ? true : undefined));
    // Active in our database too: the operation's completion follows the registry's create.
    await until(60_000, async () => {
      const left = await db.selectFrom('domains').select((eb) => eb.fn.countAll<string>().as('n')).where('account_id', '=', accountId).where('status', '=', 'pending').executeTakeFirstOrThrow();
      return Number(left.n) === 0 ? true : undefined;
    });
    const seconds = (performance.now() - started) / 1000;
    return { sessions, count, seconds, perS: count / seconds };
  } finally {
    child?.kill('SIGTERM');
    if (child && child.exitCode === null) await new Promise((r) => child!.once('exit', r));
    await registry.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}
