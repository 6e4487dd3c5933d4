// DNS record writes under load (BENCH_ONLY=dns). With PowerDNS installed (pdns-server,
// pdns-backend-sqlite3, sqlite3: test/helpers/powerdns.ts starts one on free ports), the API
// process and one `hostcloud worker` run with DNS_DRIVER=powerdns; without it, with the simulated
// driver (the figures say which). Two figures, all writes to one zone at a time (a zone holds at
// most 500 records: a new one is made every 450):
//  - record writes per second through the API: BENCH_DNS_CLIENTS (16) clients each POSTing its
//    next record as soon as the last is answered, for the run's seconds; refusals (503) counted;
//  - at BENCH_DNS_RATE (100) writes/s, open loop: from each POST's answer (the commit) to the
//    record answered by PowerDNS (a DNS query at it, every 20 ms) — or, simulated, to its outbox
//    row pushed — p50, p99 and max.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { Resolver } from 'node:dns/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { Db } from '../src/core/types.ts';

export interface DnsBench {
  driver: 'powerdns' | 'simulated';
  clients: number;
  writes: number;
  writesPerS: number;
  refused: number;
  rate: number;
  measured: number;
  unanswered: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

interface Pdns { dnsPort: number; apiUrl: string; apiKey: string; close(): Promise<void> }

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function maybePowerDns(): Promise<Pdns | string> {
  const helper = await import('../test/helpers/powerdns.ts');
  if (helper.powerDnsSkip) return helper.powerDnsSkip;
  return helper.startPowerDns();
}

export async function dnsBench(root: string, db: Db, url: string, key: string, spawnApp: (env: NodeJS.ProcessEnv) => Promise<{ url: string }>,
  opts: { seconds: number; rate: number; clients: number }, say: (s: string) => void): Promise<DnsBench> {
  const pdns = await maybePowerDns();
  if (typeof pdns === 'string') say(`dns: ${pdns}; measured with the simulated driver (nothing answers: "answered" is the outbox row pushed)`);
  const env: NodeJS.ProcessEnv = typeof pdns === 'string' ? { DNS_DRIVER: 'simulated' } : { DNS_DRIVER: 'powerdns', POWERDNS_API_URL: pdns.apiUrl, POWERDNS_API_KEY: pdns.apiKey };
  const app = await spawnApp(env);
  const worker: ChildProcess = spawn(process.execPath, [path.join(root, 'bin/hostcloud.js'), 'worker'], {
    cwd: root, stdio: 'ignore', env: { ...process.env, ...env, DATABASE_URL: url, LOG_LEVEL: 'warn', PGAPPNAME: 'hostcloud-bench-dns-worker' },
  });
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const post = async (p: string, body: unknown) => {
    const res = await fetch(`${app.url}/v2${p}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, json: res.ok ? JSON.parse(text) : text };
  };
  // One zone for each 450 writes, made when the first of them needs it.
  const zones = new Map<number, Promise<{ id: string; name: string }>>();
  const tag = Math.random().toString(36).slice(2, 8);
  const zoneFor = (i: number) => {
    const n = Math.floor(i / 450);
    if (!zones.has(n)) {
      zones.set(n, post('/dns/zones', { name: `bench-${tag}-${n}.example.com` }).then((r) => {
        if (r.status !== 201) throw new Error(`zone: ${r.status} ${String(r.json)}`);
        return r.json.data;
      }));
    }
    return zones.get(n)!;
  };
  let next = 0;
  let firstRefusal = '';
  const write = async () => {
    const i = next++;
    const zone = await zoneFor(i);
    const name = `r${i}`;
    const content = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    const r = await post(`/dns/zones/${zone.id}/records`, { name, type: 'A', content, ttl: 60 });
    if (r.status === 503 && !firstRefusal) firstRefusal = String(r.json).slice(0, 300);
    return { status: r.status, fqdn: `${name}.${zone.name}`, content, at: performance.now() };
  };
  try {
    // Closed loop: writes per second.
    let ok = 0;
    let refused = 0;
    const until = performance.now() + opts.seconds * 1000;
    const t0 = performance.now();
    // BENCH_DNS_DIAG=1: what the API's connections are doing, sampled every 250 ms.
    const seen = new Map<string, number>();
    const diag = process.env.BENCH_DNS_DIAG ? setInterval(() => void sql<{ s: string }>`
      SELECT coalesce(state, '') || ' ' || coalesce(wait_event_type, '') || ':' || coalesce(wait_event, '') || ' ' || left(regexp_replace(query, '\s+', ' ', 'g'), 70) AS s
        FROM pg_stat_activity WHERE application_name = 'hostcloud-bench-app'`.execute(db).then((r) => {
      for (const row of r.rows) seen.set(row.s, (seen.get(row.s) ?? 0) + 1);
    }, () => {}), 250) : undefined;
    await Promise.all(Array.from({ length: opts.clients }, async () => {
      while (performance.now() < until) {
        const r = await write();
        if (r.status === 201) ok++;
        else if (r.status === 503) refused++;
        else throw new Error(`record write answered ${r.status}`);
      }
    }));
    const writesPerS = ok / ((performance.now() - t0) / 1000);
    if (diag) {
      clearInterval(diag);
      for (const [what, n] of [...seen].sort((a, b) => b[1] - a[1]).slice(0, 12)) say(`dns diag: ${n} × ${what}`);
    }
    // Let the backlog drain before the latency run.
    for (let i = 0; i < 600; i++) {
      const left = await sql<{ n: number }>`SELECT count(*)::int AS n FROM dns_outbox`.execute(db);
      if (left.rows[0]!.n === 0) break;
      await sleep(100);
    }

    // Open loop at the rate: each write's commit (its answer) to its answer from the nameserver.
    next = Math.ceil(next / 450) * 450;
    const resolver = typeof pdns === 'string' ? null : new Resolver({ timeout: 1000, tries: 1 });
    resolver?.setServers([`127.0.0.1:${(pdns as Pdns).dnsPort}`]);
    const pending = new Map<string, { content: string; at: number }>();
    const latencies: number[] = [];
    let refusedLate = 0;
    let sending = true;
    const answered = async (): Promise<void> => {
      while (sending || pending.size > 0) {
        const names = [...pending.keys()];
        if (resolver) {
          await Promise.all(names.map(async (fqdn) => {
            const got = await resolver.resolve4(fqdn).catch(() => [] as string[]);
            const p = pending.get(fqdn);
            if (p && got.includes(p.content)) {
              latencies.push(performance.now() - p.at);
              pending.delete(fqdn);
            }
          }));
        } else if (names.length > 0) {
          const waiting = await sql<{ rr_name: string }>`SELECT DISTINCT rr_name FROM dns_outbox WHERE rr_name = ANY(${names}::text[])`.execute(db);
          const still = new Set(waiting.rows.map((r) => r.rr_name));
          const now = performance.now();
          for (const fqdn of names) {
            if (!still.has(fqdn)) {
              latencies.push(now - pending.get(fqdn)!.at);
              pending.delete(fqdn);
            }
          }
        }
        if (!sending && performance.now() > giveUp) break;
        await sleep(20);
      }
    };
    let giveUp = Infinity;
    const watcher = answered();
    const total = Math.round(opts.rate * opts.seconds);
    const start = performance.now();
    const sent: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const wait = start + (i * 1000) / opts.rate - performance.now();
      if (wait > 0) await sleep(wait);
      sent.push(write().then((r) => {
        if (r.status === 201) pending.set(r.fqdn, { content: r.content, at: r.at });
        else if (r.status === 503) refusedLate++;
        else throw new Error(`record write answered ${r.status}`);
      }));
    }
    await Promise.all(sent);
    sending = false;
    giveUp = performance.now() + 30_000;
    await watcher;
    latencies.sort((a, b) => a - b);
    if (firstRefusal) say(`dns: the first 503: ${firstRefusal}`);
    return {
      driver: typeof pdns === 'string' ? 'simulated' : 'powerdns', clients: opts.clients, writes: ok, writesPerS, refused: refused + refusedLate,
      rate: opts.rate, measured: latencies.length, unanswered: pending.size,
      p50Ms: quantile(latencies, 0.5), p99Ms: quantile(latencies, 0.99), maxMs: latencies.at(-1) ?? NaN,
    };
  } finally {
    if (worker.exitCode === null) {
      const exited = once(worker, 'exit');
      worker.kill('SIGTERM');
      await exited;
    }
    if (typeof pdns !== 'string') await pdns.close();
  }
}
