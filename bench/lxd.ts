// The LXD driver under load (BENCH_ONLY=lxd, or part of every run when LXD is there): servers
// created through the API on real LXD containers (the busybox test image of scripts/lxd-setup.sh),
// with one node and then with two (the second daemon, over https). Reports creates per second
// (servers running / wall time from the first POST to the last running) and the time from POST to
// a running instance (median, p95). LXD_BENCH_CREATES servers per run (default 12), posted back to
// back; the worker runs in this process with WORKER_CONCURRENCY (default 8). Without LXD it says
// so and skips.
import { randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/core/types.ts';
import { setIpCooldown } from '../src/db/queries/ip-pools.ts';
import { buildApp } from '../src/http/app.ts';
import { createLogger } from '../src/http/logger.ts';
import { createRateLimiter } from '../src/http/rate-limit.ts';
import { startWorker } from '../src/jobs/worker.ts';
import { renderV2Event } from '../src/http/v2/events/presenters.ts';
import { LxdClient } from '../src/providers/compute/lxd/client.ts';
import { deleteInstance } from '../src/providers/compute/lxd/instance.ts';
import { ensureProject } from '../src/providers/compute/lxd/nodes.ts';
import { computeFor, hostingFor, registrarFor, servicesFor } from '../src/runtime.ts';

const CREATES = Number(process.env.LXD_BENCH_CREATES ?? 12);

function lxdEnv(): Record<string, string> | null {
  try {
    const text = fs.readFileSync(`${process.env.LXD_TEST_DIR ?? '/var/lib/hostcloud-lxd-test'}/env`, 'utf8');
    return Object.fromEntries(text.split('\n').filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
  } catch {
    return null;
  }
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export async function lxdBench(db: Db, out: (s: string) => void): Promise<void> {
  const env = lxdEnv();
  if (!env) {
    out('lxd: skipped (no LXD test setup: run scripts/lxd-setup.sh as root)');
    return;
  }
  const project = `hcbench-${randomBytes(4).toString('hex')}`;
  const sockets = [env.LXD_TEST_FIRST!, env.LXD_TEST_SECOND_SOCKET!].map((endpoint) => new LxdClient({ endpoint, client: null, fingerprint: null, project }));
  try {
    for (const c of sockets) await ensureProject(c, project);
  } catch (e) {
    out(`lxd: skipped (LXD does not answer: ${e instanceof Error ? e.message : e})`);
    for (const c of sockets) c.close();
    return;
  }
  const config = {
    ...loadConfig(), logLevel: 'silent', worker: 'off' as const, rateLimitMax: 10_000_000, ipCooldownS: 0,
    workerConcurrency: Number(process.env.WORKER_CONCURRENCY ?? 8),
    computeDriver: 'lxd' as const, lxdProject: project, lxdInstanceType: 'container' as const, lxdClientCert: env.LXD_TEST_CERT!, lxdClientKey: env.LXD_TEST_KEY!,
  };
  await setIpCooldown(db, 0);
  const adminToken = `bench-${randomBytes(12).toString('hex')}`;
  const logger = createLogger('silent');
  const app = await buildApp({ config, db, adminToken, logger, rateLimiter: createRateLimiter({ max: config.rateLimitMax, windowS: 60 }), services: servicesFor(config, db) });
  const worker = await startWorker({ db, compute: computeFor(config, db), hosting: hostingFor(config, db), registrar: registrarFor(config, db), config, logger, renderEvent: renderV2Event });
  const admin = async (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => {
    const res = await app.inject({ method, url: `/admin/v1${url}`, headers: { authorization: `Bearer ${adminToken}` }, ...(body === undefined ? {} : { payload: body as object }) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return JSON.parse(res.body).data;
  };
  try {
    const n = randomInt(0, 510);
    const loc = await admin('POST', '/locations', { name: `LXD bench ${n}`, code: `lxdb-${n}`, country: 'DE', provider: 'primary' });
    await admin('POST', `/locations/${loc.id}/ip-pools`, { version: 4, cidr: `198.${18 + (n >> 8)}.${n & 255}.0/24`, gateway: `198.${18 + (n >> 8)}.${n & 255}.1` });
    await admin('POST', `/locations/${loc.id}/ip-pools`, { version: 6, cidr: `2001:db8:${(0x2000 + n).toString(16)}::/64`, gateway: `2001:db8:${(0x2000 + n).toString(16)}::1` });
    // Containers share the host's cores and RAM: sizes given, beyond this small host's, so placement never refuses.
    const size = { cpu_cores: 256, ram_mb: 262_144, storage_gb: 10_000 };
    const a = await admin('POST', '/nodes', { location_id: loc.id, name: `lxdb-${n}-a`, endpoint: env.LXD_TEST_FIRST, ...size });
    const b = await admin('POST', '/nodes', { location_id: loc.id, name: `lxdb-${n}-b`, endpoint: env.LXD_TEST_SECOND, ...size });
    await admin('PATCH', '/operating-systems/1', { image: env.LXD_TEST_IMAGE });
    const account = await admin('POST', '/accounts', { email: `lxd-bench-${n}@example.com`, name: 'LXD bench' });
    await admin('POST', `/accounts/${account.id}/deposits`, { amount: '10000.00' });
    const key = (await admin('POST', `/accounts/${account.id}/api-keys`, { name: 'bench', ip_allowlist: ['127.0.0.1'] })).key as string;
    const api = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) => app.inject({
      method, url, remoteAddress: '127.0.0.1', headers: { authorization: `Bearer ${key}` }, ...(body === undefined ? {} : { payload: body as object }),
    });
    const settled = async (opId: string): Promise<string> => {
      for (;;) {
        const op = JSON.parse((await api('GET', `/v2/operations/${opId}`)).body).data;
        if (op.status === 'completed' || op.status === 'failed') return op.status;
        await new Promise((r) => setTimeout(r, 25));
      }
    };
    for (const nodes of [1, 2]) {
      await admin('PATCH', `/nodes/${b.id}`, { status: nodes === 2 ? 'active' : 'disabled' });
      const started = Date.now();
      // POSTed one after another (each answered in milliseconds), so that each placement sees the
      // ones before it and two nodes share the work; the creates then run side by side.
      const pending: Promise<{ ms: number; ok: boolean; id: string | null }>[] = [];
      for (let i = 0; i < CREATES; i++) {
        const t0 = Date.now();
        const res = await api('POST', '/v2/servers', { name: `bench-${nodes}-${i}-${randomBytes(3).toString('hex')}.example.com`, location_id: loc.id, plan_id: 1, os_version_id: 1, password: 'Str0ng!Passw0rd' });
        if (res.statusCode !== 201) {
          pending.push(Promise.resolve({ ms: Date.now() - t0, ok: false, id: null }));
          continue;
        }
        const data = JSON.parse(res.body).data;
        pending.push(settled(data.operation.id).then((status) => ({ ms: Date.now() - t0, ok: status === 'completed', id: data.id as string })));
      }
      const runs = await Promise.all(pending);
      const wallS = (Date.now() - started) / 1000;
      const ok = runs.filter((r) => r.ok);
      const failed = runs.length - ok.length;
      const times = ok.map((r) => r.ms).sort((x, y) => x - y);
      const spread = nodes === 2 ? ` (node a ${(await admin('GET', `/nodes/${a.id}`)).servers}, node b ${(await admin('GET', `/nodes/${b.id}`)).servers})` : '';
      out(`lxd: ${nodes} node${nodes > 1 ? 's' : ''}: ${ok.length}/${CREATES} containers running in ${wallS.toFixed(1)} s = ${(ok.length / wallS).toFixed(2)} creates/s; POST → running median ${times.length ? pct(times, 50) : '-'} ms, p95 ${times.length ? pct(times, 95) : '-'} ms${spread}${failed ? `; ${failed} FAILED` : ''}`);
      // Gone again before the next run (not timed).
      for (const r of runs) if (r.id) await api('DELETE', `/v2/servers/${r.id}`);
      for (;;) {
        const busy = await db.selectFrom('operations').select('id').where('type', '=', 'server.delete').where('status', 'in', ['queued', 'running']).executeTakeFirst();
        if (!busy) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    await worker.stop();
    await app.close();
    for (const c of sockets) {
      try {
        for (const u of await c.get<string[]>('/1.0/instances')) await deleteInstance(c, decodeURIComponent(u.split('/').pop()!.split('?')[0]!));
        await c.request('DELETE', `/1.0/projects/${project}`, { global: true });
      } catch (e) {
        out(`lxd: cleanup of project ${project}: ${e instanceof Error ? e.message : e}`);
      }
      c.close();
    }
  }
}
