// `npm test`: one PostgreSQL for the run (embedded unless TEST_DATABASE_URL is set), a template
// database migrated and seeded once, then node's test runner with one process per test file;
// each file copies the template into a database of its own (test/helpers/app.ts).
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { connect } from '../src/db/connection.ts';
import { adminPool, ensureDatabase } from '../src/db/create-database.ts';
import { startEmbedded } from '../src/db/embedded.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { seedDemoCatalog } from '../src/db/seed.ts';
import { ensureAllPoolZones } from '../src/core/dns/reverse.ts';
import { bundleDir, bundleTests, pruneBundles, sourceOf } from './bundle-tests.ts';

const execFileP = promisify(execFile);

async function findTests(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await findTests(p)));
    else if (e.name.endsWith('.test.ts')) out.push(p);
  }
  return out.sort();
}

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

async function dropRunDatabases(adminUrl: string, prefix: string): Promise<void> {
  const k = new Kysely<{ pg_database: { datname: string } }>({ dialect: new PostgresDialect({ pool: adminPool(adminUrl) }) });
  try {
    const rows = await k.selectFrom('pg_database').select('datname').where('datname', 'like', `${prefix}%`).execute();
    for (const r of rows) await sql`DROP DATABASE IF EXISTS ${sql.id(r.datname)} WITH (FORCE)`.execute(k);
  } finally {
    await k.destroy();
  }
}

/**
 * The run's own embedded cluster, thrown away at its end, need not survive a crash of the
 * machine: no fsync and no full-page images, so commits and each file's CREATE DATABASE (a copy
 * of the template through the WAL) do not wait on the disk; what sessions see is unchanged. Six
 * files at once, each with its app's and its worker's pools (some with child processes of their
 * own), need more than PostgreSQL's default 100 connections (the machine's PostgreSQL in CI is
 * raised to 500 by .ci/run).
 */
async function tuneForTests(adminUrl: string): Promise<void> {
  const k = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: adminPool(adminUrl) }) });
  try {
    for (const setting of ['fsync', 'full_page_writes', 'synchronous_commit']) await sql`ALTER SYSTEM SET ${sql.raw(setting)} = off`.execute(k);
    await sql`ALTER SYSTEM SET max_connections = 400`.execute(k);
  } finally {
    await k.destroy();
  }
}

/**
 * A backstop for a hung file, so that it fails on its own instead of stalling CI. Node 20's
 * --test-timeout bounds each test *file* (its whole process), not each test: at 120 s it failed
 * files whose tests were all fine but which took longer as a whole on a busy machine (a file's wall
 * time there is three or four times a quiet one's). A test that must answer within a bound says so
 * itself ({ timeout }).
 */
const FILE_TIMEOUT_MS = 15 * 60_000;

/**
 * Wall times of the slowest files in a whole run (CI: two cores, six files at once, embedded
 * PostgreSQL, the browser, LXD, hosting, EPP, PowerDNS and deploy tests run), in seconds. They start
 * first: in path order some of them started late and the run ended waiting on them alone. A run
 * also remembers what each file took (DURATIONS_FILE), which orders the rest, and these too when
 * it has seen them; this list is for a fresh checkout.
 */
const KNOWN_SLOW_S: Record<string, number> = {
  'test/http/console-browser.test.ts': 115, 'test/http/docs-browser.test.ts': 108, 'test/packages/pack.test.ts': 92,
  'test/db/embedded.test.ts': 87, 'test/panel/browser-servers.test.ts': 86, 'test/panel/browser-access.test.ts': 82,
  'test/panel/browser-billing.test.ts': 81, 'test/serve.test.ts': 77, 'test/providers/hosting-native-faults.test.ts': 75,
  'test/panel/browser-services.test.ts': 72, 'test/providers/hosting-native.test.ts': 71, 'test/faults/restart.test.ts': 68,
  'test/panel/browser-sign-up.test.ts': 68, 'test/providers/lxd-driver.test.ts': 52, 'test/providers/hosting-native-unreachable.test.ts': 51,
};

/** Where a run keeps each file's last wall time (ms, by path from the checkout), to order the next. */
const durationsFile = (root: string) => path.join(root, 'node_modules/.cache/hostcloud-test-durations.json');

async function knownDurations(root: string): Promise<Record<string, number>> {
  const remembered = JSON.parse(await fs.readFile(durationsFile(root), 'utf8').catch(() => '{}')) as Record<string, number>;
  return { ...Object.fromEntries(Object.entries(KNOWN_SLOW_S).map(([f, s]) => [f, s * 1000])), ...remembered };
}

/** The slowest first (by what is known of them), the rest in path order. */
function slowestFirst(files: string[], durations: Record<string, number>, relOf: (f: string) => string): string[] {
  const known = (f: string) => durations[relOf(f)] ?? 0;
  return [...files].sort((a, b) => known(b) - known(a) || (a < b ? -1 : a > b ? 1 : 0));
}

/** What test/summary-reporter.mjs writes. */
interface RunSummary {
  files: string[];
  passed: number;
  failed: number;
  skipped: { file: string; name: string; suite: boolean; reason: string }[];
  failures: { file: string; name: string; error?: string }[];
  /** Each file's wall time in ms, from its process's start to its end. */
  durations?: Record<string, number>;
}

/**
 * One line per reason: files skipped for one cause (every LXD file on a machine without LXD) are
 * named on the line that says why.
 */
function skippedLines(skipped: RunSummary['skipped'], rel: (f: string) => string): string[] {
  const byReason = new Map<string, RunSummary['skipped']>();
  for (const k of skipped) byReason.set(k.reason, [...(byReason.get(k.reason) ?? []), k]);
  return [...byReason].map(([reason, ks]) => (ks.length === 1
    ? `  skipped ${ks[0]!.suite ? 'suite' : 'test'}: ${rel(ks[0]!.file)} › ${ks[0]!.name} — ${reason}`
    : `  skipped ${ks.length}: ${reason} — ${ks.map((k) => `${rel(k.file)} › ${k.name}`).join('; ')}`));
}

/** What the reporter wrote for each phase of one run, merged; null when the runner ended first. */
async function readSummary(summaryFiles: string[]): Promise<RunSummary | null> {
  const parts: RunSummary[] = [];
  for (const file of summaryFiles) {
    const text = await fs.readFile(file, 'utf8').catch(() => '');
    await fs.rm(file, { force: true });
    if (text) parts.push(JSON.parse(text) as RunSummary);
  }
  if (parts.length < summaryFiles.length || !parts.length) return null;
  return {
    files: parts.flatMap((p) => p.files),
    passed: parts.reduce((n, p) => n + p.passed, 0),
    failed: parts.reduce((n, p) => n + p.failed, 0),
    skipped: parts.flatMap((p) => p.skipped),
    failures: parts.flatMap((p) => p.failures),
    durations: Object.assign({}, ...parts.map((p) => p.durations ?? {})) as Record<string, number>,
  };
}

/** Keeps each file's wall time of this run for the next run's order (files not run keep theirs). */
async function rememberDurations(root: string, measured: Record<string, number>, rel: (f: string) => string): Promise<void> {
  const file = durationsFile(root);
  const kept = JSON.parse(await fs.readFile(file, 'utf8').catch(() => '{}')) as Record<string, number>;
  for (const [f, ms] of Object.entries(measured)) kept[rel(f)] = Math.round(ms);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, `${JSON.stringify(kept, null, 1)}\n`);
}

/** A test by file and name; a file that failed as a whole (it did not load, it timed out) by its path. */
const failureName = (f: RunSummary['failures'][number], rel: (f: string) => string) =>
  (path.isAbsolute(f.name) ? `${rel(f.name)} (the whole file)` : `${rel(f.file)} › ${f.name}`);

/** A failed test as the summary names it: its file, its name, and the first line of what it threw. */
const failureLine = (f: RunSummary['failures'][number], rel: (f: string) => string) =>
  `${failureName(f, rel)}${f.error ? ` — ${f.error.length > 300 ? `${f.error.slice(0, 300)}…` : f.error}` : ''}`;

/** The last lines of a run: how many files and tests, what failed, what was skipped and why. */
function printSummary(s: RunSummary | null, fileCount: number, ms: number, rel: (f: string) => string, label = 'summary'): void {
  if (!s) {
    process.stdout.write(`\n${label}: not available (the test runner ended before reporting)\n`);
    return;
  }
  // The slowest files, to see where a run's time goes (a file's wall time grows with the files
  // sharing the machine, but the order mostly holds). TEST_SLOWEST sets how many (0: none).
  const slowest = Object.entries(s.durations ?? {}).sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TEST_SLOWEST ?? 15));
  const lines = [
    '',
    `${label}: ${fileCount} files, ${s.passed + s.failed} tests: ${s.passed} passed, ${s.failed} failed, ${s.skipped.length} skipped (${(ms / 1000).toFixed(1)} s)`,
    ...s.failures.map((f) => `  failed: ${failureLine(f, rel)}`),
    ...skippedLines(s.skipped, rel),
    ...(slowest.length ? ['  slowest files:', ...slowest.map(([f, d]) => `    ${(d / 1000).toFixed(1).padStart(6)} s  ${rel(f)}`)] : []),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * After `--repeat N`: each round's outcome, then every test that failed in any round with how
 * often, worst first, and the first line of what it threw each distinct time.
 */
function printRepeatSummary(rounds: { summary: RunSummary | null; ms: number }[], rel: (f: string) => string): void {
  const counts = new Map<string, { line: string; n: number; errors: Set<string> }>();
  for (const { summary } of rounds) {
    for (const f of summary?.failures ?? []) {
      const key = failureName(f, rel);
      const c = counts.get(key) ?? { line: key, n: 0, errors: new Set<string>() };
      c.n++;
      if (f.error) c.errors.add(f.error.length > 300 ? `${f.error.slice(0, 300)}…` : f.error);
      counts.set(key, c);
    }
  }
  const clean = rounds.filter((r) => r.summary && r.summary.failed === 0).length;
  const lines = [
    '',
    `repeat: ${rounds.length} rounds, ${clean} without a failure; ${counts.size} tests failed at least once`,
    ...rounds.map((r, i) => `  round ${i + 1}: ${r.summary ? `${r.summary.passed} passed, ${r.summary.failed} failed` : 'no summary'} (${(r.ms / 1000).toFixed(1)} s)`),
    ...[...counts.values()].sort((a, b) => b.n - a.n).flatMap((c) => [
      `  failed ${c.n} of ${rounds.length}: ${c.line}`,
      ...[...c.errors].map((e) => `      ${e}`),
    ]),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** `--repeat N` (or `--repeat=N`) and the files named, from npm test's arguments. */
function parseArgs(argv: string[]): { repeat: number; files: string[] } {
  const files: string[] = [];
  let repeat = 1;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const m = /^--repeat(?:=(.*))?$/.exec(a);
    if (!m) {
      files.push(a);
      continue;
    }
    const value = m[1] ?? argv[++i];
    repeat = Number(value);
    if (!Number.isInteger(repeat) || repeat < 1) throw new Error(`--repeat needs a whole number of rounds, at least 1 (got ${value ?? 'nothing'})`);
  }
  return { repeat, files };
}

async function main(): Promise<number> {
  const { repeat, files: args } = parseArgs(process.argv.slice(2));
  // TEST_EXCLUDE (a regular expression over paths relative to the checkout) leaves files out of a
  // whole-suite run: .ci/run's second run, on the machine's PostgreSQL and Redis, leaves out the
  // files whose subject is not the database (browsers, LXD, npm pack, a terminal), which the first
  // run has run. Files named on the command line always run.
  const exclude = !args.length && process.env.TEST_EXCLUDE ? new RegExp(process.env.TEST_EXCLUDE) : null;
  // Most tests live under test/; a family's route tests may sit beside its routes in src/ (src/http/v2/ssh-keys).
  const all = args.length ? args : [...(await findTests(path.resolve('test'))), ...(await findTests(path.resolve('src')))];
  const files = exclude ? all.filter((f) => !exclude.test(path.relative(process.cwd(), f))) : all;
  if (exclude) process.stdout.write(`TEST_EXCLUDE leaves out ${all.length - files.length} of ${all.length} files\n`);
  const started = Date.now();
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stopEmbedded: (() => Promise<void>) | undefined;
  let tmp: string | undefined;
  if (!adminUrl) {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'hostcloud-test-'));
    await fs.chmod(tmp, 0o755);
    // Started twice: max_connections takes effect only at a start.
    const first = await startEmbedded(tmp);
    await tuneForTests(first.adminUrl);
    await first.stop();
    const server = await startEmbedded(tmp);
    adminUrl = server.adminUrl;
    stopEmbedded = () => server.stop();
  }
  const prefix = `hct_${process.pid}_${Date.now().toString(36)}`;
  const template = `${prefix}_tpl`;
  // The test files run bundled (test/bundle-tests.ts) unless TEST_BUNDLE=0, which runs their
  // sources through tsx as before (the same tests, a second or two of CPU more per file).
  const root = process.cwd();
  const bundled = process.env.TEST_BUNDLE !== '0';
  const outdir = bundleDir(root, prefix);
  const toSource = (f: string) => (bundled ? sourceOf(root, outdir, f) : f);
  try {
    const [runnable] = await Promise.all([
      bundled ? pruneBundles(root).then(() => bundleTests(root, files.map((f) => path.resolve(f)), outdir)) : files,
      // Child `hostcloud` processes (bin/hostcloud.js: serve, worker, migrate, admin) run the
      // bundle npm start runs when it is fresh, else the sources through tsx, at 2-3 s of CPU more
      // each: build it (skipped when fresh), so they run what production runs, and quickly.
      execFileP(process.execPath, [path.join(root, 'scripts/build.mjs')], { cwd: root }),
      (async () => {
        await ensureDatabase(adminUrl, template);
        const t = connect(withDatabase(adminUrl, template), { max: 1 });
        await migrateToLatest(t.db);
        await seedDemoCatalog(t.db);
        await ensureAllPoolZones(t.db);
        await t.close();
      })(),
    ]);
    process.stdout.write(`test database: ${stopEmbedded ? 'embedded PostgreSQL' : 'TEST_DATABASE_URL'}; redis: ${process.env.REDIS_URL ? 'REDIS_URL' : 'none'}; ${files.length} files${bundled ? ', bundled' : ''} (setup ${Date.now() - started} ms)\n`);

    // Files named *.solo.test.ts bound a latency (a bystander's p99, statements per create): they
    // run after the others, one at a time, so what they measure is the code and not the other
    // test files sharing the machine's cores.
    // Six files at once on two cores by default: most of a bundled file's time is spent waiting
    // (on the worker's queue, PostgreSQL, child processes, a browser). On two cores test/v2's 55
    // files took 123 s at four and 106 s at six, with the same CPU time.
    const concurrency = Number(process.env.TEST_CONCURRENCY ?? Math.max(6, os.availableParallelism()));
    const isSolo = (f: string) => /\.solo\.test\.m?[jt]s$/.test(f);
    const solo = runnable.filter(isSolo);
    const shared = runnable.filter((f) => !isSolo(f));
    const rel = (f: string) => path.relative(process.cwd(), toSource(f)) || f;
    const durations = await knownDurations(root);
    const phases: [string[], number][] = [[slowestFirst(shared, durations, rel), concurrency], [solo, 1]];
    const rounds: { summary: RunSummary | null; ms: number }[] = [];
    let code = 0;
    for (let round = 1; round <= repeat; round++) {
      const roundStarted = Date.now();
      if (repeat > 1) process.stdout.write(`\nround ${round} of ${repeat}\n`);
      const summaryFiles: string[] = [];
      for (const [phaseFiles, phaseConcurrency] of phases) {
        if (!phaseFiles.length) continue;
        const summaryFile = path.join(os.tmpdir(), `${prefix}-summary-${round}-${summaryFiles.length}.json`);
        summaryFiles.push(summaryFile);
        const reporters = [
          '--test-reporter=spec', '--test-reporter-destination=stdout',
          `--test-reporter=${path.resolve('test/summary-reporter.mjs')}`, `--test-reporter-destination=${summaryFile}`,
        ];
        const phaseCode = await new Promise<number>((resolve) => {
          // hostcloud-source: @hostcloud/sdk and @hostcloud/cli resolve to their TypeScript sources
          // (their package.json "exports"), so tests run what is checked in, built or not (the
          // bundles hold them already). Stack traces of bundles map back through their source maps.
          // test/run-files.mjs is `node --test` keeping the files' order (the test processes
          // inherit these flags); TEST_ORDER=path runs them through `node --test` itself, in path order.
          const loader = bundled ? ['--enable-source-maps'] : ['--import', 'tsx'];
          const runner = process.env.TEST_ORDER === 'path'
            ? ['--test', `--test-concurrency=${phaseConcurrency}`, `--test-timeout=${FILE_TIMEOUT_MS}`, ...reporters, ...phaseFiles]
            : [path.resolve('test/run-files.mjs'), String(phaseConcurrency), String(FILE_TIMEOUT_MS), summaryFile, ...phaseFiles];
          const child = spawn(process.execPath, [...loader, '--conditions=hostcloud-source', ...runner], {
            stdio: 'inherit',
            env: { ...process.env, HC_TEST_ADMIN_URL: adminUrl, HC_TEST_TEMPLATE: template, HC_TEST_PREFIX: prefix },
          });
          child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
        });
        code ||= phaseCode;
      }
      const summary = await readSummary(summaryFiles);
      // From whole runs only: a file run alone is quicker than it is among the others.
      if (summary?.durations && !args.length) await rememberDurations(root, summary.durations, rel);
      const ms = Date.now() - (repeat > 1 ? roundStarted : started);
      rounds.push({ summary, ms });
      printSummary(summary, files.length, ms, rel, repeat > 1 ? `round ${round} of ${repeat}` : 'summary');
    }
    if (repeat > 1) printRepeatSummary(rounds, rel);
    return code;
  } finally {
    await dropRunDatabases(adminUrl, prefix).catch((e) => process.stderr.write(`cleanup: ${e}\n`));
    await stopEmbedded?.();
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
    await fs.rm(outdir, { recursive: true, force: true });
  }
}

main().then((code) => process.exit(code), (e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : e}\n`);
  process.exit(1);
});

