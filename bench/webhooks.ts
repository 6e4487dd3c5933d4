// The webhook sender under load: one `hostcloud worker` process delivering to a receiver in this
// process (127.0.0.1, answering 204 at once; WEBHOOK_ALLOW_HTTP/PRIVATE set for it). Two figures:
//  - deliveries per second: a backlog of pings over several endpoints (each endpoint gets at most
//    WEBHOOK_ENDPOINT_CONCURRENCY at once), drained from the first receipt to the last;
//  - latency from commit to receipt at a steady rate (100 events/s by default): each event is written
//    in a statement of its own, its commit time taken as the statement returns, its receipt time as
//    the receiver reads it; the worker is woken by the NOTIFY of each commit.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../src/core/types.ts';
import { newSecret } from '../src/core/webhooks/signing.ts';
import { type CpuSample, cpuSample, cpuSpent } from './cpu.ts';

const APP = 'hostcloud-bench-webhooks';

export interface WebhookBench {
  backlog: number;
  endpoints: number;
  deliveriesPerS: number;
  drainS: number;
  rate: number;
  steadyEvents: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** CPU per delivery while draining, µs: the worker process, its PostgreSQL backends, the receiver (this process); null without /proc. */
  cpuUs: { worker: number; database: number; receiver: number } | null;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

export async function webhookBench(root: string, db: Db, url: string, accountId: string, opts: { backlog: number; endpoints: number; rate: number; seconds: number }): Promise<WebhookBench> {
  const received = new Map<string, number>();
  let wanted = Infinity;
  // CPU counted from the first receipt (the worker's start-up is not a delivery's cost).
  let cpuAtFirst: Promise<CpuSample> | undefined;
  let workerPid = 0;
  let done: (() => void) | null = null;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id']);
      if (!received.has(id)) received.set(id, performance.now());
      cpuAtFirst ??= cpuSample(db, APP, [workerPid]);
      res.writeHead(204).end();
      if (received.size >= wanted) done?.();
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let worker: ChildProcess | undefined;
  try {
    // Endpoints straight into the table: the API's per-account limit is not what is measured.
    for (let i = 0; i < opts.endpoints; i++) {
      await db.insertInto('webhook_endpoints').values({
        id: `whk_bench${String(i).padStart(11, '0')}`, account_id: accountId, url: `${base}/e${i}`, events: ['webhook.ping'], secret: newSecret(),
      }).execute();
    }
    // The backlog: pings, a thousand per statement.
    const perEndpoint = Math.ceil(opts.backlog / opts.endpoints);
    for (let from = 0; from < perEndpoint; from += 1000) {
      const n = Math.min(1000, perEndpoint - from);
      await sql`SELECT hc_emit_event(w.account_id, 'webhook.ping', 'webhook', w.id, NULL, w.id)
                  FROM webhook_endpoints w CROSS JOIN generate_series(1, ${n}::int) WHERE w.id LIKE 'whk_bench%'`.execute(db);
    }
    const backlog = perEndpoint * opts.endpoints;
    wanted = backlog;
    const drained = new Promise<void>((resolve) => { done = resolve; });
    worker = spawn(process.execPath, [...(process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean), path.join(root, 'bin/hostcloud.js'), 'worker'], {
      cwd: root, stdio: 'ignore',
      env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true', PGAPPNAME: APP },
    });
    workerPid = worker.pid!;
    await drained;
    const spent = cpuSpent(await cpuAtFirst!, await cpuSample(db, APP, [workerPid]));
    const times = [...received.values()].sort((a, b) => a - b);
    const drainS = (times.at(-1)! - times[0]!) / 1000;

    // Steady rate: one event per 1/rate s, each in a statement of its own.
    const committed = new Map<string, number>();
    const total = Math.round(opts.rate * opts.seconds);
    wanted = backlog + total;
    const steady = new Promise<void>((resolve) => { done = resolve; });
    const t0 = performance.now();
    const writes: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const at = t0 + (i * 1000) / opts.rate;
      const wait = at - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      writes.push(sql<{ id: string }>`SELECT hc_emit_event(${accountId}, 'webhook.ping', 'webhook', 'whk_bench00000000000', NULL, 'whk_bench00000000000') AS id`
        .execute(db).then((r) => { committed.set(r.rows[0]!.id, performance.now()); }));
    }
    await Promise.all(writes);
    await Promise.race([steady, new Promise((r) => setTimeout(r, 30_000))]);
    const latencies = [...committed].map(([id, at]) => (received.get(id) ?? NaN) - at).filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
    return {
      backlog, endpoints: opts.endpoints, deliveriesPerS: backlog / drainS, drainS, rate: opts.rate, steadyEvents: latencies.length,
      p50Ms: quantile(latencies, 0.5), p99Ms: quantile(latencies, 0.99), maxMs: latencies.at(-1) ?? NaN,
      cpuUs: spent.process > 0 ? { worker: (spent.process * 1e6) / backlog, database: (spent.database * 1e6) / backlog, receiver: (spent.self * 1e6) / backlog } : null,
    };
  } finally {
    if (worker && worker.exitCode === null) {
      const exited = once(worker, 'exit');
      worker.kill('SIGTERM');
      await exited;
    }
    server.closeAllConnections();
    server.close();
  }
}
