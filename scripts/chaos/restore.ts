// `npm run chaos -- restore`: the back-up and restore drill. On a PostgreSQL of its own (the
// installed server, WAL archived to a directory), `hostcloud serve` gets a populated installation:
// accounts with deposits, live servers created (and one deleted: a refund), top-ups paid through
// the simulated checkout (invoices). A base backup (pg_basebackup) is taken half-way, so the second
// half exists only in the archived WAL. Hostcloud is stopped; then
//   1. a fresh cluster is restored from the base backup + WAL archive (recovery to the archive's end),
//   2. another from a pg_dump (custom format) by pg_restore,
// and on each the balances, the ledger (rows and sums per account), the invoice numbers, the
// operations and the servers are compared with the original, row for row; Hostcloud is started on
// the restored database and must answer the same balances and take a new deposit. Exit 1 on any
// difference.
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  type Cluster, call, clusterAt, createBody, freePort, initCluster, must, pgBin, pgDir, pgTool, pgUser, query, startHostcloud, waitFor,
} from './cluster.ts';
import { panelTopUp } from './panel.ts';

const ADMIN_TOKEN = `drill-admin-${randomUUID()}`;
const say = (s: string) => process.stdout.write(`${s}\n`);

interface Figures {
  balances: string[];
  ledger: string[];
  invoices: string[];
  operations: string[];
  servers: string[];
}

/** What must survive a restore, each as sorted lines. */
async function figures(url: string): Promise<Figures> {
  const lines = async (sql: string) => (await query<{ l: string }>(url, sql)).map((r) => r.l);
  return {
    balances: await lines(`SELECT id || ' ' || balance_cents AS l FROM accounts ORDER BY id`),
    ledger: await lines(`SELECT account_id || ' rows=' || count(*) || ' sum=' || sum(amount_cents) || ' last=' || max(id) AS l FROM transactions GROUP BY account_id ORDER BY account_id`),
    invoices: await lines(`SELECT number || ' ' || kind || ' ' || account_id || ' ' || gross_cents AS l FROM invoices ORDER BY number`),
    operations: await lines(`SELECT id || ' ' || type || ' ' || status AS l FROM operations ORDER BY id`),
    servers: await lines(`SELECT id || ' ' || status AS l FROM servers ORDER BY id`),
  };
}

function summary(f: Figures): string {
  const money = f.balances.reduce((n, l) => n + Number(l.split(' ')[1]), 0);
  return `${f.balances.length} accounts holding ${(money / 100).toFixed(2)} USD, ${f.ledger.reduce((n, l) => n + Number(/rows=(\d+)/.exec(l)![1]), 0)} ledger rows, `
    + `${f.invoices.length} invoices (${f.invoices[0]?.split(' ')[0] ?? '-'} … ${f.invoices.at(-1)?.split(' ')[0] ?? '-'}), ${f.operations.length} operations, ${f.servers.length} servers`;
}

function compare(a: Figures, b: Figures): string[] {
  const diffs: string[] = [];
  for (const k of Object.keys(a) as (keyof Figures)[]) {
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) {
      const missing = a[k].filter((l) => !b[k].includes(l));
      const extra = b[k].filter((l) => !a[k].includes(l));
      diffs.push(`${k}: ${missing.length} missing (${missing.slice(0, 3).join('; ')}), ${extra.length} differing or extra (${extra.slice(0, 3).join('; ')})`);
    }
  }
  return diffs;
}

async function populate(base: string, round: number, accounts: number, log: string[]): Promise<void> {
  for (let i = 0; i < accounts; i++) {
    const email = `drill-${round}-${i}-${Date.now()}@example.com`;
    const account = must(await call(base, 'POST', '/admin/v1/accounts', { token: ADMIN_TOKEN, body: { email, name: `Drill ${round}.${i}` } }), 201, 'account');
    must(await call(base, 'POST', `/admin/v1/accounts/${account.id}/deposits`, { token: ADMIN_TOKEN, body: { amount: `${100 + i * 7}.${String(13 * (i + 1) % 100).padStart(2, '0')}`, description: 'Drill deposit' } }), 201, 'deposit');
    const key = must(await call(base, 'POST', `/admin/v1/accounts/${account.id}/api-keys`, { token: ADMIN_TOKEN, body: { name: 'drill', ip_allowlist: ['127.0.0.1', '::1'], is_test: false } }), 201, 'key').key as string;
    const body = await createBody(base, key);
    const servers: string[] = [];
    for (let s = 0; s < 2; s++) {
      const r = must(await call(base, 'POST', '/v2/servers', { token: key, body: { ...body, name: `drill-${round}-${i}-${s}` }, headers: { 'idempotency-key': randomUUID() } }), 201, 'create');
      servers.push(r.id);
    }
    // Each create's operation finishes before the server is deleted (a refund row, a delete operation).
    for (const id of servers) {
      await waitFor(`server ${id} active`, 60_000, async () => (await call(base, 'GET', `/v2/servers/${id}`, { token: key })).body?.data?.status === 'active');
    }
    const del = await call(base, 'DELETE', `/v2/servers/${servers[0]}`, { token: key, headers: { 'idempotency-key': randomUUID() } });
    if (del.status !== 202 && del.status !== 200) throw new Error(`delete: ${del.status} ${JSON.stringify(del.body)}`);
    if (i % 2 === 0) await panelTopUp(base, ADMIN_TOKEN, account.id, email, `${20 + i}.50`);
    log.push(`${account.id}: deposit, 2 servers, 1 deleted${i % 2 === 0 ? ', a paid top-up' : ''}`);
  }
}

async function operationsSettled(url: string): Promise<boolean> {
  const [r] = await query<{ n: number }>(url, `SELECT count(*)::int AS n FROM operations WHERE status NOT IN ('completed', 'failed')`);
  return r!.n === 0;
}

async function checkOnHostcloud(url: string, original: Figures, dataDir: string, log: string): Promise<string> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const serve = startHostcloud('serve', { DATABASE_URL: url, PORT: String(port), ADMIN_TOKEN, DATA_DIR: dataDir, SIM_DELAY_MS: '0', PUBLIC_URL: base }, log);
  try {
    await waitFor('the restored Hostcloud to be ready', 60_000, async () => (await call(base, 'GET', '/readyz')).status === 200, 200, serve);
    let same = 0;
    for (const line of original.balances) {
      const [id, cents] = line.split(' ');
      const a = must(await call(base, 'GET', `/admin/v1/accounts/${id}`, { token: ADMIN_TOKEN }), 200, 'account');
      const amount = (a.balance?.amount ?? a.balance) as string;
      if (Math.round(Number(amount) * 100) !== Number(cents)) throw new Error(`account ${id}: the restored API says ${amount}, the original had ${cents} cents`);
      same++;
    }
    const first = original.balances[0]!.split(' ')[0]!;
    must(await call(base, 'POST', `/admin/v1/accounts/${first}/deposits`, { token: ADMIN_TOKEN, body: { amount: '1.00', description: 'After the restore' } }), 201, 'a deposit on the restored installation');
    return `Hostcloud on the restored database: ${same} balances answered as before by GET /admin/v1/accounts/{id}; a new deposit committed`;
  } finally {
    await serve.stop();
  }
}

export async function restoreDrill(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { accounts: { type: 'string' }, keep: { type: 'boolean' }, help: { type: 'boolean' } } });
  if (values.help) {
    say('Usage: npm run chaos -- restore [--accounts N] [--keep]\n\n  Populates an installation on a PostgreSQL of its own, backs it up (pg_basebackup + WAL archive, and\n  pg_dump), restores both into fresh clusters and checks balances, ledger, invoices, operations and\n  servers are identical; --keep leaves the temp directory. Needs the PostgreSQL server binaries\n  (/usr/lib/postgresql/N/bin or PG_BIN).');
    return 0;
  }
  const perRound = Number(values.accounts ?? 4);
  const bin = pgBin();
  const tmp = pgDir(fs.mkdtempSync(path.join(os.tmpdir(), 'hostcloud-restore-')));
  fs.chmodSync(tmp, 0o755);
  const archive = pgDir(path.join(tmp, 'wal-archive'));
  say(`Restore drill: PostgreSQL ${/\d+\.\d+/.exec(pgTool('postgres', ['--version']))?.[0]} (${bin}), working in ${tmp}`);
  const started = Date.now();
  const clusters: Cluster[] = [];
  try {
    const source = initCluster(path.join(tmp, 'source'), await freePort(), [
      'wal_level = replica', 'archive_mode = on', `archive_command = 'test ! -f ${archive}/%f && cp %p ${archive}/%f'`, 'max_wal_senders = 4',
    ]);
    clusters.push(source);
    source.start();
    await query(source.url(), 'CREATE DATABASE hostcloud');
    const dbUrl = source.url('hostcloud');
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const hcData = path.join(tmp, 'hostcloud-data');
    const serve = startHostcloud('serve', { DATABASE_URL: dbUrl, PORT: String(port), ADMIN_TOKEN, DATA_DIR: hcData, SIM_DELAY_MS: '0', SEED_DEMO: 'true', PUBLIC_URL: base, WORKER_POLL_MS: '50' }, path.join(tmp, 'serve-source.log'));
    const log: string[] = [];
    const backup = path.join(tmp, 'basebackup');
    try {
      await waitFor('Hostcloud to be ready', 90_000, async () => (await call(base, 'GET', '/readyz')).status === 200, 200, serve);
      await populate(base, 1, perRound, log);
      // The base backup, online, while Hostcloud runs; what follows it lives only in the WAL archive.
      pgTool('pg_basebackup', ['-h', '127.0.0.1', '-p', String(source.port), '-U', 'postgres', '-D', backup, '-X', 'none', '-c', 'fast', '--no-sync']);
      say(`base backup taken (pg_basebackup) after ${log.length} accounts; populating more, which only the archived WAL holds`);
      await populate(base, 2, perRound, log);
      await waitFor('every operation to finish', 120_000, () => operationsSettled(dbUrl));
    } finally {
      await serve.stop();
    }
    for (const l of log) say(`  ${l}`);
    const original = await figures(dbUrl);
    // Close the current WAL segment so the archive holds every committed change.
    const wal = (await query<{ wal: string }>(source.url(), 'SELECT pg_walfile_name(pg_switch_wal()) AS wal'))[0]!.wal;
    await waitFor('the last WAL segment to be archived', 60_000, async () => fs.existsSync(path.join(archive, wal)));
    const dump = path.join(tmp, 'hostcloud.dump');
    pgTool('pg_dump', ['-h', '127.0.0.1', '-p', String(source.port), '-U', 'postgres', '-Fc', '-f', dump, 'hostcloud']);
    say(`original:      ${summary(original)}`);
    source.stop();

    // 1. Base backup + WAL archive into a fresh cluster: recovery replays the archive to its end, then promotes.
    const pitrDir = path.join(tmp, 'restored-pitr');
    fs.cpSync(backup, pitrDir, { recursive: true });
    const pitrPort = await freePort();
    fs.appendFileSync(path.join(pitrDir, 'postgresql.conf'), `\nport = ${pitrPort}\narchive_mode = off\nrestore_command = 'cp ${archive}/%f %p'\n`);
    fs.writeFileSync(path.join(pitrDir, 'recovery.signal'), '');
    execChown(pitrDir);
    const pitr = clusterAt(pitrDir, pitrPort);
    clusters.push(pitr);
    const t0 = Date.now();
    pitr.start();
    await waitFor('recovery to end', 120_000, async () => (await query<{ r: boolean }>(pitr.url(), 'SELECT pg_is_in_recovery() AS r'))[0]!.r === false);
    const fromPitr = await figures(pitr.url('hostcloud'));
    say(`\n1. pg_basebackup + WAL archive → a fresh PostgreSQL (recovered in ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    say(`   restored:    ${summary(fromPitr)}`);
    const d1 = compare(original, fromPitr);
    say(d1.length ? `   DIFFERENT: ${d1.join('\n              ')}` : '   identical: balances, ledger rows and sums, invoice numbers, operations and servers, row for row');
    const api1 = await checkOnHostcloud(pitr.url('hostcloud'), original, path.join(tmp, 'hostcloud-pitr'), path.join(tmp, 'serve-pitr.log'));
    say(`   ${api1}`);
    pitr.stop();

    // 2. pg_dump → pg_restore into another fresh cluster.
    const dumped = initCluster(path.join(tmp, 'restored-dump'), await freePort());
    clusters.push(dumped);
    dumped.start();
    await query(dumped.url(), 'CREATE DATABASE hostcloud');
    const t1 = Date.now();
    pgTool('pg_restore', ['-h', '127.0.0.1', '-p', String(dumped.port), '-U', 'postgres', '-d', 'hostcloud', '--no-owner', '--exit-on-error', dump]);
    const fromDump = await figures(dumped.url('hostcloud'));
    say(`\n2. pg_dump -Fc → pg_restore into a fresh PostgreSQL (${((Date.now() - t1) / 1000).toFixed(1)} s)`);
    say(`   restored:    ${summary(fromDump)}`);
    const d2 = compare(original, fromDump);
    say(d2.length ? `   DIFFERENT: ${d2.join('\n              ')}` : '   identical: balances, ledger rows and sums, invoice numbers, operations and servers, row for row');
    const api2 = await checkOnHostcloud(dumped.url('hostcloud'), original, path.join(tmp, 'hostcloud-dump'), path.join(tmp, 'serve-dump.log'));
    say(`   ${api2}`);
    dumped.stop();

    const ok = d1.length === 0 && d2.length === 0;
    say(`\n${ok ? 'PASSED' : 'FAILED'}: restore drill in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    return ok ? 0 : 1;
  } finally {
    for (const c of clusters) c.stop('immediate');
    if (!values.keep) fs.rmSync(tmp, { recursive: true, force: true });
    else say(`kept ${tmp}`);
  }
}

/** Everything under `dir` owned by the PostgreSQL user, mode 0700 (a copied backup is ours otherwise). */
function execChown(dir: string): void {
  if (pgUser) {
    const walk = (p: string) => {
      fs.chownSync(p, pgUser!.uid, pgUser!.gid);
      if (fs.statSync(p).isDirectory()) for (const e of fs.readdirSync(p)) walk(path.join(p, e));
    };
    walk(dir);
  }
  fs.chmodSync(dir, 0o700);
}
