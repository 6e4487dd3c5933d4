// Real web hosting under load (BENCH_ONLY=hosting, or part of every run where this machine can be a
// hosting node: root, sshd, nginx, PHP-FPM and MariaDB installed). This machine is the node, with
// its own sshd, nginx and PHP-FPM on free ports (test/helpers/hosting-node-setup.ts); the API and
// a worker (WORKER_CONCURRENCY, default 8) run in this process with HOSTING_DRIVER=native.
// HOSTING_BENCH_ORDERS orders (default 10) are posted back to back; each is timed from its POST to
// the moment its site answers 200 for its domain on the node's nginx. Reports median and p95.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { loadConfig } from '../src/config.ts';
import type { Db } from '../src/core/types.ts';
import { buildApp } from '../src/http/app.ts';
import { createLogger } from '../src/http/logger.ts';
import { createRateLimiter } from '../src/http/rate-limit.ts';
import { renderV2Event } from '../src/http/v2/events/presenters.ts';
import { startWorker } from '../src/jobs/worker.ts';
import { computeFor, hostingFor, registrarFor, servicesFor } from '../src/runtime.ts';
import { hostingProblem, startHostingNode } from '../test/helpers/hosting-node-setup.ts';

const ORDERS = Number(process.env.HOSTING_BENCH_ORDERS ?? 10);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

function status(port: number, host: string): Promise<number> {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path: '/', headers: { host }, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

export async function hostingBench(db: Db, out: (s: string) => void): Promise<void> {
  if (hostingProblem) {
    out(`hosting: skipped (${hostingProblem})`);
    return;
  }
  const node = await startHostingNode();
  const config = {
    ...loadConfig(), logLevel: 'silent', worker: 'off' as const, rateLimitMax: 10_000_000,
    workerConcurrency: Number(process.env.WORKER_CONCURRENCY ?? 8), workerPollMs: 50,
    hostingDriver: 'native' as const, hostingSshKey: node.keyFile,
  };
  const adminToken = `bench-${randomBytes(12).toString('hex')}`;
  const logger = createLogger('silent');
  const app = await buildApp({ config, db, adminToken, logger, rateLimiter: createRateLimiter({ max: config.rateLimitMax, windowS: 60 }), services: servicesFor(config, db) });
  const worker = await startWorker({ db, compute: computeFor(config, db), hosting: hostingFor(config, db), registrar: registrarFor(config, db), config, logger, renderEvent: renderV2Event });
  const admin = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const res = await app.inject({ method, url: `/admin/v1${url}`, headers: { authorization: `Bearer ${adminToken}` }, ...(body === undefined ? {} : { payload: body as object }) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return JSON.parse(res.body).data;
  };
  try {
    await admin('POST', '/hosting-nodes', { name: `${node.prefix}.bench.test`, host: '127.0.0.1', port: node.sshPort, http_port: node.httpPort, config: node.config });
    const account = await admin('POST', '/accounts', { email: `hosting-bench-${node.prefix}@example.com`, name: 'Hosting bench' });
    await admin('POST', `/accounts/${account.id}/deposits`, { amount: '10000.00' });
    const key = (await admin('POST', `/accounts/${account.id}/api-keys`, { name: 'bench', ip_allowlist: ['127.0.0.1'] })).key as string;
    const started = Date.now();
    const pending: Promise<number | null>[] = [];
    for (let i = 0; i < ORDERS; i++) {
      const t0 = Date.now();
      const domain = `b${i}${randomBytes(3).toString('hex')}.example.com`;
      const res = await app.inject({ method: 'POST', url: '/v2/web-hosting', remoteAddress: '127.0.0.1', headers: { authorization: `Bearer ${key}` }, payload: { domain, package_id: 1 } });
      if (res.statusCode !== 201) {
        pending.push(Promise.resolve(null));
        continue;
      }
      pending.push((async () => {
        // Served: the site's default page answers 200 for its domain (give up after 5 minutes).
        while (Date.now() - t0 < 300_000) {
          if (await status(node.httpPort, domain) === 200) return Date.now() - t0;
          await new Promise((r) => setTimeout(r, 50));
        }
        return null;
      })());
    }
    const times = (await Promise.all(pending)).filter((t): t is number => t !== null).sort((a, b) => a - b);
    const wallS = (Date.now() - started) / 1000;
    const failed = ORDERS - times.length;
    out(`hosting: ${times.length}/${ORDERS} sites serving in ${wallS.toFixed(1)} s; order → serving median ${times.length ? pct(times, 50) : '-'} ms, p95 ${times.length ? pct(times, 95) : '-'} ms${failed ? `; ${failed} FAILED` : ''}`);
  } finally {
    await worker.stop();
    await app.close();
    await node.stop();
  }
}
