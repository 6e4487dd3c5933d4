// `npm run chaos -- [options]`: a fault drill against a RUNNING Hostcloud and its PostgreSQL.
// Drives light load through the API while it terminates every session of the database, refuses
// connections for a while, and (optionally) runs your restart command; then prints what clients
// saw — answers by status — and how long service took to come back after each fault.
//
// It needs the API's URL, DATABASE_URL (the faults are done from the same server's maintenance
// database, as a role allowed to terminate sessions and ALTER DATABASE), and either an API key or
// the admin token (a "chaos" account and key are then created). Without --live the key is a test
// key: its requests, creates included, run in the sandbox and leave nothing behind.
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Answer, type Load, type Sample, type Send, countByStatus, reportFault, startLoad, until } from './load.ts';
import { databaseOf, faultConnection, maintenanceUrl } from './faults.ts';

const HELP = `Usage: npm run chaos -- [options]
       npm run chaos -- restore [--help]    the back-up and restore drill (PostgreSQL clusters of its own)
       npm run chaos -- failover [--help]   the failover drill (Patroni, etcd, HAProxy of its own)

  --api-url URL         the running API (default $HOSTCLOUD_URL or http://127.0.0.1:$PORT, PORT 8080)
  --database-url URL    its database (default $DATABASE_URL)
  --admin-db-url URL    where faults are done from (default: the same server's "postgres" database)
  --admin-token TOKEN   to create the drill's account and key (default $ADMIN_TOKEN or $DATA_DIR/admin-token)
  --key KEY             use this API key instead (its IP allowlist must admit this machine)
  --live                a live key: creates are real, charged to the drill account, and must all finish
  --faults LIST         comma-separated: terminate, refuse, restart (default terminate,refuse; restart needs --restart-cmd)
  --refuse-seconds N    how long connections are refused (default 5)
  --restart-cmd CMD     shell command that restarts PostgreSQL (e.g. "systemctl restart postgresql")
  --clients N           concurrent clients (default 4)
  --rate N              requests per second, all clients together (default 8: under the default
                        budget of RATE_LIMIT_MAX 600 per 60 s, so answers are not 429s)
  --allow CIDRS         IP allowlist of the created key (default 127.0.0.1,::1)
`;

interface Options {
  apiUrl: string;
  databaseUrl: string;
  adminDbUrl: string;
  adminToken?: string;
  key?: string;
  live: boolean;
  faults: string[];
  refuseS: number;
  restartCmd?: string;
  clients: number;
  rate: number;
  allow: string[];
}

async function options(): Promise<Options> {
  const { values } = parseArgs({
    options: {
      'api-url': { type: 'string' }, 'database-url': { type: 'string' }, 'admin-db-url': { type: 'string' },
      'admin-token': { type: 'string' }, key: { type: 'string' }, live: { type: 'boolean' }, faults: { type: 'string' },
      'refuse-seconds': { type: 'string' }, 'restart-cmd': { type: 'string' }, clients: { type: 'string' }, rate: { type: 'string' }, allow: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    process.exit(0);
  }
  const databaseUrl = values['database-url'] ?? process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('give --database-url or set DATABASE_URL');
  let adminToken = values['admin-token'] ?? process.env.ADMIN_TOKEN;
  if (!adminToken && !values.key) {
    adminToken = (await fs.readFile(path.join(process.env.DATA_DIR ?? './data', 'admin-token'), 'utf8').catch(() => '')).trim() || undefined;
    if (!adminToken) throw new Error('give --key, or --admin-token (or ADMIN_TOKEN) to create the drill account');
  }
  const faults = (values.faults ?? (values['restart-cmd'] ? 'terminate,refuse,restart' : 'terminate,refuse')).split(',').map((f) => f.trim()).filter(Boolean);
  for (const f of faults) if (!['terminate', 'refuse', 'restart'].includes(f)) throw new Error(`unknown fault "${f}"`);
  if (faults.includes('restart') && !values['restart-cmd']) throw new Error('the restart fault needs --restart-cmd');
  return {
    apiUrl: (values['api-url'] ?? process.env.HOSTCLOUD_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8080}`).replace(/\/+$/, ''),
    databaseUrl,
    adminDbUrl: values['admin-db-url'] ?? maintenanceUrl(databaseUrl),
    adminToken,
    key: values.key,
    live: values.live ?? false,
    faults,
    refuseS: Number(values['refuse-seconds'] ?? 5),
    restartCmd: values['restart-cmd'],
    clients: Number(values.clients ?? 4),
    rate: Number(values.rate ?? 8),
    allow: (values.allow ?? '127.0.0.1,::1').split(',').map((a) => a.trim()),
  };
}

function httpSend(base: string, token: string | undefined): Send {
  return async (method, p, o) => {
    const res = await fetch(`${base}${p}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(o?.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...o?.headers,
      },
      ...(o?.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
      // Longer than any answer the API should take (statement timeout + margin).
      signal: AbortSignal.timeout(40_000),
    });
    return { status: res.status, headers: Object.fromEntries(res.headers), body: await res.text() };
  };
}

function must(a: Answer, status: number, what: string): { data: Record<string, unknown> } {
  if (a.status !== status) throw new Error(`${what}: ${a.status} ${a.body}`);
  return JSON.parse(a.body);
}

/** The drill's key: the one given, or a new account's (funded for live creates). */
async function drillKey(o: Options): Promise<{ key: string; accountId?: string }> {
  if (o.key) return { key: o.key };
  const admin = httpSend(o.apiUrl, o.adminToken);
  const stamp = new Date().toISOString().replace(/[-:.TZ]/g, '').slice(0, 14);
  const account = must(await admin('POST', '/admin/v1/accounts', { body: { email: `chaos-${stamp}@example.invalid`, name: `Chaos drill ${stamp}` } }), 201, 'creating the drill account').data;
  const id = account.id as string;
  if (o.live) must(await admin('POST', `/admin/v1/accounts/${id}/deposits`, { body: { amount: '500.00', description: 'Chaos drill budget' } }), 201, 'funding it');
  const key = must(await admin('POST', `/admin/v1/accounts/${id}/api-keys`, { body: { name: 'chaos drill', ip_allowlist: o.allow, is_test: !o.live } }), 201, 'creating its key').data;
  return { key: key.key as string, accountId: id };
}

/** A catalog combination to create servers with: the cheapest available plan, a location and an OS. */
async function createBody(send: Send): Promise<Record<string, unknown>> {
  const list = async (p: string) => (JSON.parse((await send('GET', p)).body) as { data: Record<string, unknown>[] }).data;
  const plans = (await list('/v2/plans?per_page=100')).filter((p) => p.available !== false).sort((a, b) => Number((a.price as { amount: string }).amount) - Number((b.price as { amount: string }).amount));
  const locations = await list('/v2/locations?per_page=100');
  const os = await list('/v2/operating-systems?per_page=100');
  return { plan_id: plans[0]?.id, location_id: locations[0]?.id, os_version_id: os[0]?.id, password: 'Ch4os!Drill-pass' };
}

/** /readyz and /healthz polled on the side, twice a second. */
function probes(base: string): { samples: { at: number; ready: number; health: number }[]; stop(): void } {
  const samples: { at: number; ready: number; health: number }[] = [];
  const send = httpSend(base, undefined);
  let stopped = false;
  void (async () => {
    while (!stopped) {
      const [ready, health] = await Promise.all(['/readyz', '/healthz'].map((p) => send('GET', p).then((a) => a.status, () => 0)));
      samples.push({ at: Date.now(), ready: ready!, health: health! });
      await new Promise((r) => setTimeout(r, 500));
    }
  })();
  return { samples, stop: () => { stopped = true; } };
}

const recovered = (load: Load, since: number) => {
  const later = load.samples.filter((s) => s.at > since);
  return later.length >= 20 && later.slice(-10).every((s) => s.status >= 200 && s.status < 300);
};

function runShell(cmd: string): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(cmd, { shell: true, stdio: 'inherit' });
    child.on('exit', (code) => resolve(code ?? 1));
    child.on('error', () => resolve(1));
  });
}

function describe(samples: Sample[]): string {
  return Object.entries(countByStatus(samples)).map(([s, n]) => `${s === '0' ? 'no answer' : s}: ${n}`).join(', ') || 'none';
}

async function main(): Promise<number> {
  const o = await options();
  const database = databaseOf(o.databaseUrl);
  const faults = faultConnection(o.adminDbUrl);
  const { key, accountId } = await drillKey(o);
  const send = httpSend(o.apiUrl, key);
  const body = await createBody(send);
  process.stdout.write(`Chaos drill: API ${o.apiUrl}, database "${database}", ${o.clients} clients at ${o.rate} requests/s, ${o.live ? 'LIVE creates (charged to the drill account)' : 'sandbox key (nothing persists)'}${accountId ? `, account ${accountId}` : ''}\n`);

  // Each client waits long enough that all of them together stay at --rate.
  const load = startLoad({ send, clients: o.clients, createEvery: 10, createBody: body, pauseMs: Math.round((o.clients * 1000) / o.rate), retryPauseMs: 500 });
  const side = probes(o.apiUrl);
  let restoring: (() => Promise<void>) | undefined;
  const onSignal = () => { void (restoring?.() ?? Promise.resolve()).finally(() => process.exit(130)); };
  process.once('SIGINT', onSignal);
  const results: { fault: string; line: string; failed: boolean }[] = [];
  try {
    await until('the API to answer', 30_000, () => load.samples.some((s) => s.status === 200), 100);
    const base = Date.now();
    await new Promise((r) => setTimeout(r, 3_000));
    process.stdout.write(`baseline (3 s): ${describe(load.samples.filter((s) => s.at >= base))}\n`);

    for (const fault of o.faults) {
      const start = Date.now();
      let end = start;
      let note = '';
      if (fault === 'terminate') {
        // Three times, a second apart: each catches whatever sessions are busy at that moment.
        let n = 0;
        for (let round = 0; round < 3; round++) {
          if (round) await new Promise((r) => setTimeout(r, 1_000));
          n += await faults.terminate(database);
        }
        note = `${n} sessions terminated in 3 rounds, 1 s apart`;
        end = Date.now();
      } else if (fault === 'refuse') {
        restoring = () => faults.restore(database);
        try {
          note = `connections refused for ${o.refuseS} s (${await faults.refuse(database)} sessions terminated)`;
          await new Promise((r) => setTimeout(r, o.refuseS * 1000));
        } finally {
          await faults.restore(database);
          restoring = undefined;
        }
        end = Date.now();
      } else {
        const code = await runShell(o.restartCmd!);
        end = Date.now();
        note = `restart command took ${end - start} ms (exit ${code})`;
      }
      const ok = await until('service to come back', 120_000, () => recovered(load, end), 100).then(() => true, () => false);
      const r = reportFault(load.samples, start, end);
      const ready = side.samples.filter((s) => s.at >= start && s.at <= Math.max(end, start + 1));
      const readyCounts = ready.length ? JSON.stringify(countByStatus(ready.map((s) => ({ at: s.at, ms: 0, status: s.ready, path: '/readyz' })))) : 'n/a (an instant fault)';
      const healthOk = side.samples.filter((s) => s.at >= start).every((s) => s.health === 200);
      const bad = load.samples.filter((s) => s.at >= start && (s.status >= 500 && s.status !== 503 || s.status === 0)).length;
      const line = `${fault}: ${note}\n  clients saw  ${describe(load.samples.filter((s) => s.at >= start))}\n`
        + `  recovery     ${ok ? `${(r.recoveryMs / 1000).toFixed(2)} s after the fault ended` : 'NOT RECOVERED within 120 s'}; outage seen by clients ${(r.disruptionMs / 1000).toFixed(2)} s\n`
        + `  /readyz      during the fault ${readyCounts}; /healthz ${healthOk ? 'always 200' : 'FAILED'}`;
      results.push({ fault, line, failed: !ok || bad > 0 || !healthOk });
      process.stdout.write(`${line}\n`);
      await new Promise((r) => setTimeout(r, 2_000));
    }
  } finally {
    side.stop();
    await load.stop();
    await faults.close();
  }

  let settled = '';
  if (o.live && load.created.length) {
    const ids = [...new Set(load.created)];
    const unfinished = async () => {
      const states = await Promise.all(ids.map(async (id) => (JSON.parse((await send('GET', `/v2/servers/${id}`)).body) as { data?: { status?: string } }).data?.status));
      return states.filter((s) => s !== 'active');
    };
    const done = await until('every created server to be provisioned', 120_000, async () => (await unfinished()).length === 0, 500).then(() => true, () => false);
    const balance = JSON.parse((await send('GET', '/v2/billing/balance')).body).data.balance.amount as string;
    const charges = JSON.parse((await send('GET', '/v2/billing/transactions?type=withdraw&per_page=1')).body).meta.pagination.total as number;
    const once = charges === ids.length;
    settled = `\n${ids.length} servers created during the drill: ${done ? 'all provisioned' : `NOT all provisioned (${(await unfinished()).length} left)`}; `
      + `${charges} charges (${once ? 'one per server' : 'NOT one per server'}); balance ${balance} USD of 500.00 deposited`;
    if (!done || !once) results.push({ fault: 'settle', line: '', failed: true });
  }
  if (load.rejected.length) {
    settled += `\n${load.rejected.length} creates refused (not a fault answer): first ${load.rejected[0]!.status} ${load.rejected[0]!.body.slice(0, 200)}`;
    results.push({ fault: 'creates', line: '', failed: true });
  }
  const total = countByStatus(load.samples);
  process.stdout.write(`\nAll answers: ${describe(load.samples)}${settled}\n`);
  const failed = results.filter((r) => r.failed).map((r) => r.fault);
  const fivehundreds = Object.entries(total).filter(([s]) => Number(s) >= 500 && s !== '503').reduce((n, [, c]) => n + c, 0);
  process.stdout.write(failed.length || fivehundreds ? `FAILED: ${failed.join(', ')}${fivehundreds ? ` (${fivehundreds} answers 5xx other than 503)` : ''}\n` : 'PASSED: only 2xx and 503 with Retry-After; service came back by itself after every fault.\n');
  return failed.length || fivehundreds ? 1 : 0;
}

// `restore` and `failover` are drills of their own, on PostgreSQL clusters they start themselves.
const [sub, ...subArgs] = process.argv.slice(2);
const drill = sub === 'restore'
  ? () => import('./restore.ts').then((m) => m.restoreDrill(subArgs))
  : sub === 'failover'
    ? () => import('./failover.ts').then((m) => m.failoverDrill(subArgs))
    : main;
drill().then((code) => process.exit(code), (e) => {
  process.stderr.write(`chaos: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(2);
});
