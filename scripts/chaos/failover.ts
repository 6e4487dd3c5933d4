// `npm run chaos -- failover`: the high-availability drill. Everything runs on 127.0.0.1, on free
// ports, in a temp directory of its own: a one-member etcd, PostgreSQL (the installed server) twice
// under Patroni (synchronous replication: a commit is on both before the client hears of it),
// HAProxy sending connections to whichever member Patroni's REST API calls primary, two
// `hostcloud serve` (WORKER=off) and one `hostcloud worker` on HAProxy's address.
//
// Phase 1, failover: steady creates (Idempotency-Key, retried on 503 or no answer with the same key,
// as the SDK does), operator deposits and reads for --seconds (60); at --kill-at (20 s) the
// primary's Patroni and PostgreSQL are killed (SIGKILL: the machine is gone); the replica takes over.
// The old primary then rejoins as a replica (pg_rewind).
// Phase 2, switchover back: the same load, and at --kill-at a planned switchover to the old primary.
// For each phase it prints the answers by status, how long clients saw 503, when creates succeeded
// again, committed writes lost (every 201 must exist afterwards), double charges, operations stuck.
// Exit 1 unless 0 lost, 0 double, 0 stuck, no 500 and under 30 s of 503 in each phase.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  type Proc, call, createBody, freePort, must, pgBin, pgDir, pgUser, query, startHostcloud, startProcess, waitFor,
} from './cluster.ts';

const say = (s: string) => process.stdout.write(`${s}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ADMIN_TOKEN = `drill-admin-${randomUUID()}`;

interface Node { name: string; pgPort: number; apiPort: number; dir: string; config: string; proc?: Proc }

interface Sample { at: number; kind: 'create' | 'deposit' | 'read'; status: number }

interface Phase {
  samples: Sample[];
  /** Server ids whose create answered 201, by account. */
  created: { account: string; id: string; name: string }[];
  /** Deposits answered 201 (transaction ids), and those answered otherwise (their descriptions). */
  deposits: { ok: number[]; failed: string[] };
  rejected: string[];
}

function tool(cmd: string): void {
  const found = ['/usr/bin', '/usr/sbin', ...(process.env.PATH ?? '').split(':')].some((d) => fs.existsSync(path.join(d, cmd)));
  if (!found) throw new Error(`${cmd} is not installed (apt-get install patroni etcd-server haproxy)`);
}

function patroniConfig(n: Node, etcdPort: number, scope: string, tmp: string): string {
  return `scope: ${scope}
namespace: /hostcloud-drill/
name: ${n.name}
log:
  level: WARNING
restapi:
  listen: 127.0.0.1:${n.apiPort}
  connect_address: 127.0.0.1:${n.apiPort}
etcd3:
  hosts: 127.0.0.1:${etcdPort}
bootstrap:
  dcs:
    ttl: 20
    loop_wait: 2
    retry_timeout: 5
    maximum_lag_on_failover: 1048576
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      parameters:
        max_connections: 300
        wal_level: replica
        hot_standby: 'on'
        wal_log_hints: 'on'
        max_wal_senders: 10
        max_replication_slots: 10
        fsync: 'off'
  initdb:
    - encoding: UTF8
    - locale: C
  pg_hba:
    - local all all trust
    - host replication all 127.0.0.1/32 trust
    - host all all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:${n.pgPort}
  connect_address: 127.0.0.1:${n.pgPort}
  data_dir: ${n.dir}/data
  bin_dir: ${pgBin()}
  pgpass: ${n.dir}/pgpass
  authentication:
    superuser: { username: postgres, password: drill-superuser }
    replication: { username: replicator, password: drill-replicator }
    rewind: { username: postgres, password: drill-superuser }
  parameters:
    unix_socket_directories: '${tmp}'
`;
}

function haproxyConfig(port: number, nodes: Node[]): string {
  return `global
  maxconn 2000
defaults
  mode tcp
  timeout connect 2s
  timeout client 30m
  timeout server 30m
  timeout check 1s
listen postgres-primary
  bind 127.0.0.1:${port}
  option httpchk GET /primary
  http-check expect status 200
  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
${nodes.map((n) => `  server ${n.name} 127.0.0.1:${n.pgPort} maxconn 900 check port ${n.apiPort}`).join('\n')}
`;
}

async function role(n: Node): Promise<string> {
  const r = await call(`http://127.0.0.1:${n.apiPort}`, 'GET', '/patroni', { timeoutMs: 2_000 });
  return r.status === 0 ? 'down' : `${r.body?.role ?? '?'}/${r.body?.state ?? '?'}`;
}

async function leader(nodes: Node[]): Promise<Node | undefined> {
  for (const n of nodes) if ((await call(`http://127.0.0.1:${n.apiPort}`, 'GET', '/primary', { timeoutMs: 2_000 })).status === 200) return n;
  return undefined;
}

/** The other member streams synchronously (Patroni's /sync answers 200 on the synchronous standby). */
async function syncStandby(n: Node): Promise<boolean> {
  return (await call(`http://127.0.0.1:${n.apiPort}`, 'GET', '/sync', { timeoutMs: 2_000 })).status === 200;
}

function startPatroni(n: Node, tmp: string): Proc {
  return startProcess(`patroni ${n.name}`, '/usr/bin/patroni', [n.config], { PATH: process.env.PATH, HOME: tmp, LC_ALL: 'C.UTF-8' }, `${n.dir}.log`, { ...(pgUser ?? {}), cwd: tmp });
}

/** SIGKILL of the member's Patroni and of its PostgreSQL (postmaster and backends): the machine is gone. */
function killMember(n: Node): number[] {
  const killed: number[] = [];
  const pidFile = path.join(n.dir, 'data/postmaster.pid');
  const postmaster = fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]) : 0;
  if (n.proc?.child.pid) { try { process.kill(n.proc.child.pid, 'SIGKILL'); killed.push(n.proc.child.pid); } catch { /* gone */ } }
  if (postmaster) {
    const children = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
      try { return Number(fs.readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]) === postmaster; } catch { return false; }
    }).map(Number);
    for (const pid of [postmaster, ...children]) { try { process.kill(pid, 'SIGKILL'); killed.push(pid); } catch { /* gone */ } }
  }
  return killed;
}

function startLoad(bases: string[], keys: { account: string; key: string }[], body: Record<string, unknown>, locations: unknown[], phase: Phase, tag: string) {
  let stopping = false;
  let turn = 0;
  const base = () => bases[turn++ % bases.length]!;
  const record = (kind: Sample['kind'], status: number) => phase.samples.push({ at: Date.now(), kind, status });
  const creator = async (k: { account: string; key: string }, n: number) => {
    for (let i = 0; !stopping; i++) {
      const idem = randomUUID();
      const name = `fo-${tag}-${n}-${i}-${idem.slice(0, 8)}`;
      const first = Date.now();
      for (;;) {
        // Spread over the locations: one location's address pool and nodes would fill up.
        const location_id = locations[(n + i) % locations.length];
        const r = await call(base(), 'POST', '/v2/servers', { token: k.key, body: { ...body, location_id, name }, headers: { 'idempotency-key': idem }, timeoutMs: 45_000 });
        record('create', r.status);
        if (r.status === 201) { phase.created.push({ account: k.account, id: r.body.data.id, name }); break; }
        // As the SDK: 503, 429 and no answer are retried with the same key; anything else is final.
        if (![0, 429, 503].includes(r.status) || Date.now() - first > 180_000) { phase.rejected.push(`${r.status} ${JSON.stringify(r.body).slice(0, 200)}`); break; }
        await sleep(Math.min(1000 * Number(r.headers.get('retry-after') ?? 0) || 250, 2000));
      }
      await sleep(600);
    }
  };
  const depositor = async (k: { account: string }) => {
    while (!stopping) {
      const description = `drill deposit ${randomUUID()}`;
      const r = await call(base(), 'POST', `/admin/v1/accounts/${k.account}/deposits`, { token: ADMIN_TOKEN, body: { amount: '1.00', description } });
      record('deposit', r.status);
      if (r.status === 201) phase.deposits.ok.push(Number(r.body.data.id));
      else phase.deposits.failed.push(description);
      await sleep(200);
    }
  };
  const reader = async (k: { key: string }, n: number) => {
    const paths = ['/v2/billing/balance', '/v2/servers?per_page=5', '/v2/account'];
    for (let i = n; !stopping; i++) {
      const r = await call(base(), 'GET', paths[i % paths.length]!, { token: k.key, timeoutMs: 45_000 });
      record('read', r.status);
      await sleep(100);
    }
  };
  const running = [
    ...keys.map((k, n) => creator(k, n)),
    ...keys.slice(0, 2).map((k) => depositor(k)),
    ...keys.slice(0, 2).map((k, n) => reader(k, n)),
  ];
  return async () => { stopping = true; await Promise.all(running); };
}

interface Figures { lines: string[]; ok: boolean }

async function judge(phase: Phase, faultAt: number, dbUrl: string, what: string): Promise<Figures> {
  const lines: string[] = [];
  const bad = (s: Sample) => s.status === 503 || s.status === 0;
  const after = phase.samples.filter((s) => s.at >= faultAt);
  const failures = after.filter(bad);
  const by: Record<string, number> = {};
  for (const s of phase.samples) by[s.status === 0 ? 'no answer' : String(s.status)] = (by[s.status === 0 ? 'no answer' : String(s.status)] ?? 0) + 1;
  const kinds = (k: Sample['kind']) => {
    const m: Record<string, number> = {};
    for (const s of phase.samples.filter((x) => x.kind === k)) m[s.status === 0 ? 'none' : String(s.status)] = (m[s.status === 0 ? 'none' : String(s.status)] ?? 0) + 1;
    return Object.entries(m).map(([s, n]) => `${s}×${n}`).join(' ');
  };
  const secondsOf503 = failures.length ? (failures.at(-1)!.at - failures[0]!.at) / 1000 : 0;
  const distinctSeconds = new Set(failures.map((s) => Math.floor(s.at / 1000))).size;
  const lastBadCreate = after.filter((s) => s.kind === 'create' && bad(s)).at(-1);
  const backAt = lastBadCreate ? phase.samples.find((s) => s.kind === 'create' && s.status === 201 && s.at > lastBadCreate.at)?.at : after.find((s) => s.kind === 'create' && s.status === 201)?.at;
  const fiveHundreds = phase.samples.filter((s) => s.status >= 500 && s.status !== 503).length;
  lines.push(`requests answered: ${Object.entries(by).sort().map(([s, n]) => `${s}: ${n}`).join(', ')} (creates ${kinds('create')}; deposits ${kinds('deposit')}; reads ${kinds('read')})`);
  lines.push(`503 or no answer: ${failures.length} answers over ${secondsOf503.toFixed(1)} s (first ${failures[0] ? ((failures[0].at - faultAt) / 1000).toFixed(1) : '-'} s after the ${what}; ${distinctSeconds} distinct seconds had one)`);
  lines.push(`creates succeed again: ${backAt ? `${((backAt - faultAt) / 1000).toFixed(1)} s after the ${what}` : 'NEVER'}`);

  // Every 201 the clients saw must exist; every server charged once; no operation left unfinished.
  const ids = phase.created.map((c) => c.id);
  const found = new Set((await query<{ id: string }>(dbUrl, 'SELECT id FROM servers WHERE id = ANY($1)', [ids])).map((r) => r.id));
  const lostServers = ids.filter((id) => !found.has(id)).length;
  const foundDeposits = new Set((await query<{ id: number }>(dbUrl, 'SELECT id FROM transactions WHERE id = ANY($1::bigint[])', [phase.deposits.ok])).map((r) => Number(r.id)));
  const lostDeposits = phase.deposits.ok.filter((id) => !foundDeposits.has(id)).length;
  const ambiguous = (await query<{ n: number }>(dbUrl, 'SELECT count(*)::int AS n FROM transactions WHERE description = ANY($1)', [phase.deposits.failed]))[0]!.n;
  const names = phase.created.map((c) => c.name);
  const perName = await query<{ name: string; n: number }>(dbUrl, 'SELECT name, count(*)::int AS n FROM servers WHERE name = ANY($1) GROUP BY name', [names]);
  const doubleCreates = perName.filter((r) => r.n > 1).reduce((n, r) => n + r.n - 1, 0);
  const charges = await query<{ account_id: string; n: number }>(dbUrl, `SELECT account_id, count(*)::int AS n FROM transactions WHERE type = 'withdraw' AND account_id = ANY($1) GROUP BY account_id`, [[...new Set(phase.created.map((c) => c.account))]]);
  const servers = await query<{ account_id: string; n: number }>(dbUrl, 'SELECT account_id, count(*)::int AS n FROM servers WHERE account_id = ANY($1) GROUP BY account_id', [[...new Set(phase.created.map((c) => c.account))]]);
  const doubleCharges = charges.reduce((n, c) => n + Math.max(0, c.n - (servers.find((s) => s.account_id === c.account_id)?.n ?? 0)), 0);
  const stuck = await waitFor('operations to finish', 120_000, async () => {
    const [r] = await query<{ n: number }>(dbUrl, `SELECT count(*)::int AS n FROM operations WHERE status NOT IN ('completed', 'failed')`);
    return r!.n === 0 ? 'none' : false;
  }, 500).then(() => 0, async () => (await query<{ n: number }>(dbUrl, `SELECT count(*)::int AS n FROM operations WHERE status NOT IN ('completed', 'failed')`))[0]!.n);
  const [failedOps] = await query<{ n: number }>(dbUrl, `SELECT count(*)::int AS n FROM operations WHERE status = 'failed' AND account_id = ANY($1)`, [[...new Set(phase.created.map((c) => c.account))]]);
  lines.push(`committed writes lost: ${lostServers + lostDeposits} (${ids.length} servers answered 201, ${lostServers} missing; ${phase.deposits.ok.length} deposits answered 201, ${lostDeposits} missing)`);
  lines.push(`double charges: ${doubleCharges} (withdrawals beyond one per server); double creates: ${doubleCreates}`);
  lines.push(`operations stuck: ${stuck} (failed: ${failedOps!.n}); deposits answered 503 that committed anyway: ${ambiguous} of ${phase.deposits.failed.length}`);
  if (phase.rejected.length) lines.push(`creates refused: ${phase.rejected.length} (first: ${phase.rejected[0]})`);
  const ok = lostServers + lostDeposits === 0 && doubleCharges === 0 && doubleCreates === 0 && stuck === 0 && fiveHundreds === 0 && secondsOf503 < 30 && !!backAt && phase.rejected.length === 0;
  return { lines, ok };
}

export async function failoverDrill(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { seconds: { type: 'string' }, 'kill-at': { type: 'string' }, keep: { type: 'boolean' }, help: { type: 'boolean' } } });
  if (values.help) {
    say('Usage: npm run chaos -- failover [--seconds 60] [--kill-at 20] [--keep]\n\n  PostgreSQL twice under Patroni (etcd, HAProxy), two `hostcloud serve` and a worker on HAProxy;\n  load for --seconds, the primary killed at --kill-at, then a switchover back under the same load.\n  Needs patroni, etcd-server, haproxy and PostgreSQL server binaries. --keep leaves the temp directory.');
    return 0;
  }
  for (const t of ['patroni', 'etcd', 'haproxy']) tool(t);
  const seconds = Number(values.seconds ?? 60);
  const killAt = Number(values['kill-at'] ?? 20);
  const tmp = pgDir(fs.mkdtempSync(path.join(os.tmpdir(), 'hostcloud-failover-')));
  fs.chmodSync(tmp, 0o755);
  const procs: Proc[] = [];
  const nodes: Node[] = [];
  try {
    const etcdClient = await freePort();
    const etcdPeer = await freePort();
    const etcd = startProcess('etcd', '/usr/bin/etcd', [
      '--name', 'drill', '--data-dir', path.join(tmp, 'etcd'), '--listen-client-urls', `http://127.0.0.1:${etcdClient}`, '--advertise-client-urls', `http://127.0.0.1:${etcdClient}`,
      '--listen-peer-urls', `http://127.0.0.1:${etcdPeer}`, '--initial-advertise-peer-urls', `http://127.0.0.1:${etcdPeer}`, '--initial-cluster', `drill=http://127.0.0.1:${etcdPeer}`,
      '--listen-metrics-urls', `http://127.0.0.1:${await freePort()}`,
    ], { PATH: process.env.PATH, ETCD_UNSUPPORTED_ARCH: process.arch === 'x64' ? '' : process.arch }, path.join(tmp, 'etcd.log'));
    procs.push(etcd);
    await waitFor('etcd', 30_000, async () => (await call(`http://127.0.0.1:${etcdClient}`, 'GET', '/health')).body?.health === 'true');
    const scope = `drill-${randomUUID().slice(0, 8)}`;
    for (const name of ['pg1', 'pg2']) {
      const n: Node = { name, pgPort: await freePort(), apiPort: await freePort(), dir: pgDir(path.join(tmp, name)), config: path.join(tmp, `${name}.yml`) };
      fs.writeFileSync(n.config, patroniConfig(n, etcdClient, scope, tmp));
      nodes.push(n);
    }
    const [n1, n2] = nodes as [Node, Node];
    n1.proc = startPatroni(n1, tmp);
    await waitFor('pg1 to bootstrap as primary', 90_000, async () => (await leader(nodes)) === n1, 500);
    n2.proc = startPatroni(n2, tmp);
    await waitFor('pg2 to stream as the synchronous standby', 120_000, () => syncStandby(n2), 500);
    const haPort = await freePort();
    fs.writeFileSync(path.join(tmp, 'haproxy.cfg'), haproxyConfig(haPort, nodes));
    const haproxy = startProcess('haproxy', '/usr/sbin/haproxy', ['-f', path.join(tmp, 'haproxy.cfg'), '-db'], { PATH: process.env.PATH }, path.join(tmp, 'haproxy.log'));
    procs.push(haproxy);
    const adminUrl = `postgres://postgres@127.0.0.1:${haPort}/postgres`;
    // HAProxy counts a server up until its checks say otherwise: wait for them to settle.
    let primaryInARow = 0;
    await waitFor('HAProxy to send every connection to the primary', 30_000, async () => {
      const inRecovery = (await query<{ r: boolean }>(adminUrl, 'SELECT pg_is_in_recovery() AS r'))[0]!.r;
      primaryInARow = inRecovery ? 0 : primaryInARow + 1;
      return primaryInARow >= 6;
    }, 300);
    await query(adminUrl, 'CREATE DATABASE hostcloud');
    const dbUrl = `postgres://postgres@127.0.0.1:${haPort}/hostcloud`;
    say(`Failover drill: PostgreSQL ${/\d+\.\d+/.exec((await query<{ v: string }>(adminUrl, 'SELECT current_setting($$server_version$$) AS v'))[0]!.v)?.[0]} ×2 under Patroni 3 (etcd 127.0.0.1:${etcdClient}, synchronous_mode), HAProxy 127.0.0.1:${haPort} → pg1 :${n1.pgPort} / pg2 :${n2.pgPort}; ${tmp}`);

    const env = { DATABASE_URL: dbUrl, ADMIN_TOKEN, SIM_DELAY_MS: '200', SEED_DEMO: 'true', DATA_DIR: path.join(tmp, 'hostcloud'), WORKER_POLL_MS: '100', RATE_LIMIT_MAX: '1000000' };
    const ports = [await freePort(), await freePort()];
    const bases = ports.map((p) => `http://127.0.0.1:${p}`);
    const serve1 = startHostcloud('serve', { ...env, PORT: String(ports[0]), WORKER: 'off', PUBLIC_URL: bases[0] }, path.join(tmp, 'serve1.log'));
    procs.push(serve1);
    await waitFor('serve 1 (migrations)', 120_000, async () => (await call(bases[0]!, 'GET', '/readyz')).status === 200, 300, serve1);
    const serve2 = startHostcloud('serve', { ...env, PORT: String(ports[1]), WORKER: 'off', PUBLIC_URL: bases[1] }, path.join(tmp, 'serve2.log'));
    const worker = startHostcloud('worker', { ...env }, path.join(tmp, 'worker.log'));
    procs.push(serve2, worker);
    await waitFor('serve 2', 60_000, async () => (await call(bases[1]!, 'GET', '/readyz')).status === 200, 300, serve2);
    say(`Hostcloud: serve ${bases.join(', ')} (WORKER=off), one worker; all on HAProxy`);

    const keys: { account: string; key: string }[] = [];
    for (let i = 0; i < 4; i++) {
      const a = must(await call(bases[0]!, 'POST', '/admin/v1/accounts', { token: ADMIN_TOKEN, body: { email: `failover-${i}-${Date.now()}@example.com`, name: `Failover ${i}` } }), 201, 'account');
      must(await call(bases[0]!, 'POST', `/admin/v1/accounts/${a.id}/deposits`, { token: ADMIN_TOKEN, body: { amount: '5000.00', description: 'Drill budget' } }), 201, 'deposit');
      const key = must(await call(bases[0]!, 'POST', `/admin/v1/accounts/${a.id}/api-keys`, { token: ADMIN_TOKEN, body: { name: 'drill', ip_allowlist: ['127.0.0.1', '::1'], is_test: false } }), 201, 'key').key as string;
      keys.push({ account: a.id, key });
    }
    const body = await createBody(bases[0]!, keys[0]!.key);
    const locations = (must(await call(bases[0]!, 'GET', '/v2/locations?per_page=100', { token: keys[0]!.key }), 200, 'locations') as { id: unknown; available?: boolean }[])
      .filter((l) => l.available !== false).map((l) => l.id);
    let allOk = true;

    for (const tag of ['failover', 'switchover'] as const) {
      const phase: Phase = { samples: [], created: [], deposits: { ok: [], failed: [] }, rejected: [] };
      const primary = (await leader(nodes))!;
      const standby = nodes.find((n) => n !== primary)!;
      say(`\n== ${tag}: ${seconds} s of load (4 creators, 2 depositors, 2 readers); at ${killAt} s, ${tag === 'failover' ? `SIGKILL of ${primary.name}'s Patroni and PostgreSQL` : `switchover ${primary.name} → ${standby.name}`}`);
      const start = Date.now();
      const stop = startLoad(bases, keys, body, locations, phase, tag);
      await sleep(killAt * 1000);
      const faultAt = Date.now();
      if (tag === 'failover') {
        const pids = killMember(primary);
        say(`  ${((faultAt - start) / 1000).toFixed(1)} s: killed ${primary.name} (pids ${pids.join(', ')})`);
      } else {
        const r = await call(`http://127.0.0.1:${primary.apiPort}`, 'POST', '/switchover', { body: { leader: primary.name, candidate: standby.name } });
        say(`  ${((faultAt - start) / 1000).toFixed(1)} s: switchover asked: ${r.status} ${typeof r.body === 'string' ? r.body.trim() : JSON.stringify(r.body)}`);
      }
      const promoted = await waitFor(`${standby.name} to be primary`, 90_000, async () => (await leader(nodes)) === standby, 200).then(() => Date.now(), () => 0);
      say(`  ${standby.name} primary ${promoted ? `${((promoted - faultAt) / 1000).toFixed(1)} s after` : 'NOT within 90 s'}`);
      await sleep(Math.max(0, start + seconds * 1000 - Date.now()));
      await stop();
      say(`  load stopped at ${((Date.now() - start) / 1000).toFixed(1)} s`);
      if (tag === 'failover') {
        // The old primary comes back as a machine would after a reboot: Patroni rewinds it and it follows.
        primary.proc = startPatroni(primary, tmp);
        const back = await waitFor(`${primary.name} to rejoin as the synchronous standby`, 180_000, () => syncStandby(primary), 500).then(() => true, () => false);
        say(`  ${primary.name} restarted: ${back ? 'rejoined as the synchronous standby' : `NOT rejoined (${await role(primary)})`}`);
        if (!back) allOk = false;
      }
      const f = await judge(phase, faultAt, dbUrl, tag === 'failover' ? 'kill' : 'switchover');
      for (const l of f.lines) say(`  ${l}`);
      if (!f.ok) allOk = false;
    }
    say(`\n${allOk ? 'PASSED' : 'FAILED'}: 0 lost, 0 double, 0 stuck, no 500 and under 30 s of 503 in each phase${allOk ? '' : ' — NOT met'}`);
    return allOk ? 0 : 1;
  } finally {
    for (const p of procs.slice().reverse()) if (p.name.startsWith('hostcloud')) await p.stop();
    for (const n of nodes) if (n.proc) await n.proc.stop();
    for (const n of nodes) killMember(n);
    for (const p of procs) await p.stop();
    if (!values.keep) fs.rmSync(tmp, { recursive: true, force: true });
    else say(`kept ${tmp}`);
  }
}
