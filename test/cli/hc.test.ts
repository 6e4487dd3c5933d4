// `hc` as a customer runs it against the app on a real port: the binary piped (exit codes, JSON
// on stdout and nothing else on stderr), and the rest in-process (help, contexts, output formats,
// errors, completion, the other command groups).
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { EventEmitter, once } from 'node:events';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import type { Command } from 'commander';
import { parse as parseYaml } from 'yaml';
import { buildProgram } from '../../packages/cli/src/run.ts';
import { Runtime } from '../../packages/cli/src/runtime.ts';
import { createCustomer, startApp } from '../helpers/app.ts';
import { HC_NODE_ARGS, ROOT, configHome, hc, spawnHc } from '../helpers/hc.ts';
import { PASSWORD } from '../helpers/servers.ts';
import { startReceiver } from '../helpers/webhook-receiver.ts';

// Webhook URLs on 127.0.0.1 (the receiver of `hc webhook ping`) are allowed, as for development.
const t = await startApp({ worker: 'embedded', simDelayMs: 20, webhookAllowHttp: true, webhookAllowPrivate: true, webhookRetryScheduleS: [60] });
await t.app.listen({ port: 0, host: '127.0.0.1' });
const url = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
const customer = await createCustomer(t, { deposit: '200.00' });
const env = { HC_URL: url, HC_TOKEN: customer.key };
const createArgs = (name: string) => ['server', 'create', '--name', name, '--plan', '1', '--location', '1', '--os', '1', '--password', PASSWORD];

test('the binary, piped: create --wait -o json prints the active server and nothing else; a wrong flag exits 2 with usage; an API error exits 1 with its code', async () => {
  const home = await configHome();
  const e = { ...env, XDG_CONFIG_HOME: home };
  const [created, wrongFlag, apiError] = await Promise.all([
    spawnHc([...createArgs('cli-1.example.com'), '--wait', '-o', 'json'], e),
    spawnHc([...createArgs('cli-2.example.com'), '--frobnicate'], e),
    spawnHc(['server', 'get', 'srv_doesnotexist'], e),
  ]);
  assert.equal(created.code, 0, created.stderr);
  assert.equal(created.stderr, '');
  const server = JSON.parse(created.stdout);
  assert.equal(server.status, 'active');
  assert.equal(server.name, 'cli-1.example.com');
  assert.match(server.network.ipv4.address, /^\d+\.\d+\.\d+\.\d+$/);

  assert.equal(wrongFlag.code, 2);
  assert.equal(wrongFlag.stdout, '');
  assert.match(wrongFlag.stderr, /unknown option '--frobnicate'/);
  assert.match(wrongFlag.stderr, /Usage: hc server create \[options\]/);

  assert.equal(apiError.code, 1);
  assert.equal(apiError.stdout, '');
  assert.match(apiError.stderr, /^error: RESOURCE_NOT_FOUND: /);
  assert.match(apiError.stderr, /request id: req_\w+/);
});

test('every command answers --help with its usage and examples, exit 0, without credentials', async () => {
  const program = buildProgram(new Runtime({
    stdout: () => {}, stderr: () => {}, env: {}, stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false,
    readFile: async () => '', prompt: async () => '', readStdin: async () => '', exec: async () => 0,
  }));
  const paths: string[][] = [];
  const walk = (c: Command, prefix: string[]) => {
    for (const sub of c.commands) {
      if (sub.name() === 'help') continue;
      paths.push([...prefix, sub.name()]);
      walk(sub, [...prefix, sub.name()]);
    }
  };
  walk(program, []);
  assert.ok(paths.length >= 40, `${paths.length} commands`);
  for (const p of [[], ...paths]) {
    const r = await hc([...p, '--help']);
    assert.equal(r.code, 0, `hc ${p.join(' ')} --help: ${r.stderr}`);
    assert.match(r.stdout, new RegExp(`^Usage: hc ${p.join(' ')}`), p.join(' '));
    assert.match(r.stdout, /\nExamples:\n {2}\$ .*\bhc /, `hc ${p.join(' ')} --help has examples`);
    // The global options are listed with every command.
    if (p.length > 0) assert.match(r.stdout, /-o, --output <format>/, p.join(' '));
  }
  // A group without its subcommand, or no command at all, is a usage error.
  const bare = await hc(['server']);
  assert.equal(bare.code, 2);
  assert.match(bare.stderr, /Usage: hc server/);
  assert.equal((await hc(['--version'])).stdout, '0.1.0\n');
});

test('contexts: kept 0600, tokens masked in lists, HC_URL/HC_TOKEN override, unknown or missing ones are usage errors', async () => {
  const home = await configHome();
  const e = { XDG_CONFIG_HOME: home };
  const own = await createCustomer(t, { deposit: '50.00' });
  assert.equal((await hc(['context', 'add', 'local', '--url', `${url}/`, '--token', own.key], { env: e })).code, 0);
  assert.equal((await hc(['context', 'add', 'broken', '--url', 'http://127.0.0.1:9', '--token', 'hc_live_x'], { env: e })).code, 0);
  const file = path.join(home, 'hostcloud', 'contexts.json');
  assert.equal((await fs.stat(file)).mode & 0o777, 0o600);
  assert.equal((await fs.stat(path.dirname(file))).mode & 0o777, 0o700);
  const saved = JSON.parse(await fs.readFile(file, 'utf8'));
  assert.equal(saved.current, 'local');
  assert.deepEqual(saved.contexts.local, { url, token: own.key });

  const list = await hc(['context', 'list', '-o', 'table'], { env: e });
  assert.match(list.stdout, /^CURRENT\s+NAME\s+URL\s+TOKEN\n\*\s+local\s+http:\/\/127\.0\.0\.1:\d+\s+hc_live_\w{4}…\n\s+broken/);
  assert.ok(!list.stdout.includes(own.key));

  // The current context works; another is chosen with --context; HC_URL and HC_TOKEN win over both.
  assert.equal((await hc(['balance', '-o', 'table'], { env: e })).stdout, '50.00 USD\n');
  const viaBroken = await hc(['--context', 'broken', 'balance'], { env: e });
  assert.equal(viaBroken.code, 1);
  assert.match(viaBroken.stderr, /^error: NETWORK_ERROR: /);
  const overridden = await hc(['balance', '--context', 'broken', '-o', 'json'], { env: { ...e, ...env } });
  assert.equal(overridden.code, 0, overridden.stderr);
  assert.equal((await hc(['context', 'use', 'broken'], { env: e })).code, 0);
  assert.equal((await hc(['context', 'current'], { env: e })).stdout, 'broken\n');

  const unknown = await hc(['--context', 'nope', 'balance'], { env: e });
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /no context "nope"/);
  const none = await hc(['balance'], { env: { XDG_CONFIG_HOME: await configHome() } });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /hc context add NAME --url URL --token TOKEN, or set HC_URL and HC_TOKEN/);
  assert.equal((await hc(['context', 'add', 'x', '--url', 'not a url', '--token', 't'], { env: e })).code, 2);
  assert.equal((await hc(['context', 'remove', 'broken'], { env: e })).code, 0);
  assert.deepEqual(Object.keys(JSON.parse(await fs.readFile(file, 'utf8')).contexts), ['local']);
});

test('output: json when piped, tables on a terminal or with -o table (--no-header drops the header), yaml', async () => {
  await hc([...createArgs('out-1.example.com'), '--wait'], { env });
  const piped = await hc(['server', 'list'], { env });
  const servers = JSON.parse(piped.stdout);
  assert.ok(Array.isArray(servers) && servers.some((s: { name: string }) => s.name === 'out-1.example.com'));

  const tty = await hc(['server', 'list'], { env, tty: true });
  const [header, ...rows] = tty.stdout.trimEnd().split('\n');
  assert.match(header!, /^ID\s+NAME\s+STATUS\s+POWER\s+IPV4\s+LOCATION\s+PLAN\s+PRICE$/);
  assert.equal(rows.length, servers.length);
  assert.match(tty.stdout, /srv_\w+\s+out-1\.example\.com\s+active\s+running\s+\d+\.\d+\.\d+\.\d+\s+\w+\s+Cloud S\s+5\.00 USD\/monthly/);
  const bare = await hc(['server', 'list', '-o', 'table', '--no-header'], { env });
  assert.equal(bare.stdout.trimEnd().split('\n').length, servers.length);
  assert.match(bare.stdout, /^srv_/);

  const id = servers.find((s: { name: string }) => s.name === 'out-1.example.com').id;
  const yaml = parseYaml((await hc(['server', 'get', id, '-o', 'yaml'], { env })).stdout);
  assert.equal(yaml.id, id);
  assert.equal(yaml.status, 'active');
  const fields = await hc(['server', 'get', id, '-o', 'table'], { env });
  assert.match(fields.stdout, /^FIELD\s+VALUE\n/);
  assert.match(fields.stdout, /\nspecs\.cpu_cores\s+1\n/);

  const deleted = await hc(['server', 'delete', id, '--yes', '-o', 'json'], { env });
  assert.equal(deleted.code, 0);
  assert.equal(JSON.parse(deleted.stdout).status, 'deleted');
});

test('API errors: field errors and the request id on stderr; with -o json, one JSON object', async () => {
  const bad = await hc(['server', 'create', '--name', 'bad.example.com', '--plan', '1', '--location', '1', '--os', '1', '--password', 'short'], { env });
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /^error: (VALIDATION_FAILED|INVALID_PASSWORD): .+\n {2}password: .+\nrequest id: req_\w+\n$/);
  const asJson = await hc(['server', 'get', 'srv_nope', '-o', 'json'], { env });
  assert.equal(asJson.code, 1);
  const err = JSON.parse(asJson.stderr).error;
  assert.equal(err.code, 'RESOURCE_NOT_FOUND');
  assert.equal(err.status, 404);
  assert.match(err.request_id, /^req_/);
  // Refused before any request: a usage error.
  const noPlan = await hc(['server', 'create', '--name', 'x.example.com', '--location', '1', '--password', PASSWORD], { env });
  assert.equal(noPlan.code, 2);
  assert.match(noPlan.stderr, /give --plan, or --cpu, --ram and --disk/);
  // A mistyped flag is reported as such, before any required option it leaves out.
  const typo = await hc(['server', 'create', '--name', 'x.example.com', '--plann', '1'], { env });
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /^error: unknown option '--plann'\n\(Did you mean --plan\?\)\n/);
  const missing = await hc(['server', 'create', '--name', 'x.example.com', '--plan', '1'], { env });
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /^error: required option '--location <location>' not specified\n\nUsage: hc server create/);
  // Not a number: a name, looked up; none such is a usage error listing the plans.
  const notNumber = await hc(['server', 'create', '--name', 'x', '--plan', 'two', '--location', '1', '--password', 'x'], { env });
  assert.equal(notNumber.code, 2);
  assert.match(notNumber.stderr, /^error: no plan "two" \(hc plan list lists them\)\n\s+1\s+Cloud S\n/);
});

test('domains, web hosting, tickets, the catalog, balance and operations', async () => {
  const c = await createCustomer(t, { deposit: '300.00' });
  const e = { HC_URL: url, HC_TOKEN: c.key };
  const check = JSON.parse((await hc(['domain', 'check', 'hc-cli-test.com'], { env: e })).stdout);
  assert.deepEqual([check.domain, check.available], ['hc-cli-test.com', true]);
  const reg = await hc(['domain', 'register', 'hc-cli-test.com', '--years', '1', '--wait'], { env: e });
  assert.equal(reg.code, 0, reg.stderr);
  const domain = JSON.parse(reg.stdout);
  assert.equal(domain.status, 'active');
  assert.match((await hc(['domain', 'list', '-o', 'table'], { env: e })).stdout, /hc-cli-test\.com\s+active/);
  assert.equal((await hc(['domain', 'renew', domain.id, '--years', '1'], { env: e })).code, 0);

  const pkgs = JSON.parse((await hc(['hosting', 'packages'], { env: e })).stdout);
  const hosting = await hc(['hosting', 'create', '--domain', 'hc-cli-test.com', '--package', String(pkgs[0].id), '--wait'], { env: e });
  assert.equal(hosting.code, 0, hosting.stderr);
  assert.equal(JSON.parse(hosting.stdout).status, 'active');

  const ticket = JSON.parse((await hc(['ticket', 'create', '--subject', 'CLI test', '--message', 'This ticket was opened by the command line test suite.'], { env: e })).stdout);
  assert.equal(ticket.status, 'open');
  assert.equal((await hc(['ticket', 'reply', ticket.id, '--message', 'And this is a reply written from the command line.'], { env: e })).code, 0);
  assert.match((await hc(['ticket', 'get', ticket.id, '-o', 'table'], { env: e })).stdout, /reply written from the command line/);
  assert.equal((await hc(['ticket', 'close', ticket.id], { env: e })).code, 0);
  assert.match((await hc(['ticket', 'close', ticket.id], { env: e })).stderr, /^error: STATE_CONFLICT: /);

  assert.match((await hc(['plan', 'list', '-o', 'table'], { env: e })).stdout, /^ID\s+NAME\s+CPU/);
  assert.match((await hc(['location', 'list', '-o', 'table', '--no-header'], { env: e })).stdout, /^1\s+\S/);
  assert.ok(JSON.parse((await hc(['os', 'list'], { env: e })).stdout).length >= 4);
  const txs = JSON.parse((await hc(['balance', '--transactions'], { env: e })).stdout);
  assert.ok(txs.some((x: { type: string }) => x.type === 'withdraw'));

  const created = JSON.parse((await hc(createArgs('op-1.example.com'), { env: e })).stdout);
  assert.equal(created.status, 'pending');
  const waited = await hc(['operation', 'wait', created.operation.id], { env: e });
  assert.equal(waited.code, 0);
  assert.equal(JSON.parse(waited.stdout).status, 'completed');
  const reboot = await hc(['server', 'reboot', created.id, '--wait'], { env: e });
  assert.equal(reboot.code, 0, reboot.stderr);
  assert.equal(JSON.parse(reboot.stdout).power_state, 'running');
});

test('hc events tail against a stand-in that records its requests: new events as lines, the filter sent on every look, until interrupted', async () => {
  const events: { id: string; type: string; created_at: string; resource: { type: string; id: string }; data: object }[] = [];
  const add = (type: string, id: string) => events.unshift({ id: `evt_${events.length + 1}`, type, created_at: `2026-11-27T10:00:0${events.length}Z`, resource: { type: 'server', id }, data: {} });
  add('server.created', 'srv_a');
  const requested: string[] = [];
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    requested.push(u.search);
    const page = Number(u.searchParams.get('page'));
    const items = events.filter((ev) => !u.searchParams.get('type') || ev.type === u.searchParams.get('type')).slice((page - 1) * 100, page * 100);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: items, meta: { request_id: 'req_1', version: '2.0.0', pagination: { page, per_page: 100, total: items.length, total_pages: 1 } } }));
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const fake = { HC_URL: `http://127.0.0.1:${(server.address() as { port: number }).port}`, HC_TOKEN: 'hc_live_x' };
    const controller = new AbortController();
    let out = '';
    const tail = (async () => {
      let stdout = '';
      const { run } = await import('@hostcloud/cli');
      const code = await run(['events', 'tail', '--interval', '1', '--type', 'operation.completed', '-o', 'json'], {
        stdout: (s) => {
          stdout += s;
          out = stdout;
          if (stdout.split('\n').length > 2) controller.abort(new Error('interrupted'));
        },
        stderr: () => {}, env: fake, stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false,
        readFile: async () => '', prompt: async () => '', readStdin: async () => '', exec: async () => 0, signal: controller.signal,
      });
      return code;
    })();
    // The first look (nothing printed: no backlog) has happened once a request was made.
    while (requested.length === 0) await new Promise((r) => setImmediate(r));
    add('operation.completed', 'srv_a');
    add('server.deleted', 'srv_a');
    add('operation.completed', 'srv_b');
    assert.equal(await tail, 130);
    const lines = out.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines.map((l) => [l.id, l.type, l.resource.id]), [['evt_2', 'operation.completed', 'srv_a'], ['evt_4', 'operation.completed', 'srv_b']]);
    assert.ok(requested.every((q) => q.includes('type=operation.completed')));
  } finally {
    server.closeAllConnections();
    server.close();
  }

});

test('hc events tail against the app, the binary piped: a create\'s server.created as a JSON line, then exit 130 on SIGINT with nothing on stderr', async () => {
  const c = await createCustomer(t, { deposit: '50.00' });
  const e = { HC_URL: url, HC_TOKEN: c.key, XDG_CONFIG_HOME: await configHome() };
  const first = await hc([...createArgs('tail-1.example.com'), '--wait'], { env: e });
  assert.equal(first.code, 0, first.stderr);
  const firstId = JSON.parse(first.stdout).id as string;

  const { HC_URL: _u, HC_TOKEN: _t, HC_CONTEXT: _c, XDG_CONFIG_HOME: _x, ...inherited } = process.env;
  const child = spawn(process.execPath, [...HC_NODE_ARGS, 'events', 'tail', '--type', 'server.created', '--backlog', '1', '--interval', '1'], {
    cwd: ROOT, env: { ...inherited, ...e }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const lines: Record<string, unknown>[] = [];
  const newLine = new EventEmitter();
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    const complete = stdout.split('\n').slice(0, -1);
    while (lines.length < complete.length) {
      lines.push(JSON.parse(complete[lines.length]!));
      newLine.emit('line');
    }
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
  const exited = once(child, 'exit');
  const lineCount = async (n: number) => {
    while (lines.length < n) await Promise.race([once(newLine, 'line'), exited.then(() => { throw new Error(`hc exited early: ${stderr}`); })]);
  };
  try {
    // The backlog line (the first server's event) shows the tail has read the newest page.
    await lineCount(1);
    assert.deepEqual([lines[0]!.type, (lines[0]!.resource as { id: string }).id], ['server.created', firstId]);
    const second = await hc([...createArgs('tail-2.example.com'), '--wait'], { env: e });
    assert.equal(second.code, 0, second.stderr);
    const secondId = JSON.parse(second.stdout).id as string;
    await lineCount(2);
    const ev = lines[1]!;
    assert.equal(ev.type, 'server.created');
    assert.deepEqual(ev.resource, { type: 'server', id: secondId });
    assert.equal((ev.data as { id: string; status: string }).id, secondId);
    assert.match(ev.id as string, /^evt_/);
    child.kill('SIGINT');
    const [code] = await exited;
    assert.equal(code, 130);
    assert.equal(stderr, '');
    // One JSON object a line, nothing else (no operation.completed: filtered by the server).
    assert.equal(stdout.trim().split('\n').length, 2);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
});

test('hc events tail --limit: exits 0 once it printed that many; a type the server does not know exits 1 naming it', async () => {
  const c = await createCustomer(t, { deposit: '50.00' });
  const e = { HC_URL: url, HC_TOKEN: c.key };
  const created = JSON.parse((await hc(createArgs('limit-1.example.com'), { env: e })).stdout);
  // Follows until the create completes: its server.created is the one line.
  const tail = await hc(['events', 'tail', '--type', 'server.created', '--interval', '1', '--limit', '1'], { env: e });
  assert.equal(tail.code, 0, tail.stderr);
  const lines = tail.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.deepEqual(lines.map((l) => [l.type, l.resource.id]), [['server.created', created.id]]);

  const list = await hc(['events', 'list', '--resource-id', created.id], { env: e });
  assert.equal(list.code, 0, list.stderr);
  assert.deepEqual(JSON.parse(list.stdout).map((x: { type: string }) => x.type), ['server.created']);

  const wrong = await hc(['events', 'tail', '--type', 'server.exploded'], { env: e });
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /^error: VALIDATION_FAILED: /);
  assert.match(wrong.stderr, /type/);
});

test('hc webhook create, list, ping --wait (delivered, verified by the receiver), deliveries, delete; a failing endpoint exits 1', async () => {
  const r = await startReceiver();
  const c = await createCustomer(t);
  const e = { HC_URL: url, HC_TOKEN: c.key };
  const created = await hc(['webhook', 'create', '--url', `${r.url}/hook`, '--event', 'server.*', '--event', 'operation.failed', '--description', 'cli'], { env: e });
  assert.equal(created.code, 0, created.stderr);
  const w = JSON.parse(created.stdout);
  assert.match(w.id, /^whk_/);
  assert.match(w.secret, /^whsec_/);
  assert.deepEqual(w.events, ['server.*', 'operation.failed']);
  r.secrets.push(w.secret);

  const table = await hc(['webhook', 'list', '-o', 'table'], { env: e });
  assert.match(table.stdout, new RegExp(`^ID\\s+URL\\s+EVENTS\\s+ENABLED\\s+DESCRIPTION\\n${w.id}\\s+${r.url}/hook\\s+server\\.\\*,operation\\.failed\\s+yes\\s+cli\\n$`));
  assert.ok(!table.stdout.includes(w.secret));

  const ping = await hc(['webhook', 'ping', w.id, '--wait'], { env: e });
  assert.equal(ping.code, 0, ping.stderr);
  const delivery = JSON.parse(ping.stdout);
  assert.deepEqual([delivery.event_type, delivery.status, delivery.attempt, delivery.response_status], ['webhook.ping', 'succeeded', 1, 200]);
  const [got] = await r.until(1);
  assert.equal(got!.id, delivery.event_id);
  assert.deepEqual(got!.verifiedWith, [w.secret]);

  const log = JSON.parse((await hc(['webhook', 'deliveries', w.id, '--status', 'succeeded'], { env: e })).stdout);
  assert.deepEqual(log.map((d: { id: number }) => d.id), [delivery.id]);

  // An endpoint answering 500: the first attempt's outcome, exit 1, the delivery on stdout.
  r.answer = () => 500;
  const failing = await hc(['webhook', 'ping', w.id, '--wait', '-o', 'json'], { env: e });
  assert.equal(failing.code, 1);
  assert.equal(JSON.parse(failing.stdout).response_status, 500);
  assert.match(failing.stderr, /failed its first attempt \(retried later\): .*500/);

  const missing = await hc(['webhook', 'delete', 'whk_doesnotexist'], { env: e });
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /^error: RESOURCE_NOT_FOUND: /);
  const deleted = await hc(['webhook', 'delete', w.id], { env: e });
  assert.equal(deleted.code, 0, deleted.stderr);
  assert.equal(JSON.parse(deleted.stdout).id, w.id);
  assert.deepEqual(JSON.parse((await hc(['webhook', 'list'], { env: e })).stdout), []);
  assert.equal((await hc(['webhook', 'create'], { env: e })).code, 2);
});

test('completion: the candidates, and the bash script driving the real binary', async () => {
  const words = async (...w: string[]) => (await hc(['__complete', ...w])).stdout.trim().split('\n').filter(Boolean);
  assert.deepEqual(await words('ser'), ['server']);
  assert.deepEqual(await words('server', 're'), ['reboot', 'resize']);
  assert.ok((await words('server', 'create', '--pa')).includes('--password'));
  assert.deepEqual(await words('-o', ''), ['table', 'wide', 'json', 'yaml']);
  assert.deepEqual(await words('server', 'list', '--status', 'a'), ['active']);
  assert.deepEqual(await words('completion', ''), ['bash', 'zsh']);
  assert.deepEqual(await words('--context', 'x', 'domain', 'r'), ['register', 'renew']);

  const script = (await hc(['completion', 'bash'])).stdout;
  const zsh = (await hc(['completion', 'zsh'])).stdout;
  assert.match(zsh, /^#compdef hc\n/);
  const run = promisify(execFile);
  // `hc` in that shell is the real binary; the script calls it as a user's shell would on TAB.
  const bash = `hc() { "${process.execPath}" ${HC_NODE_ARGS.map((a) => `'${a}'`).join(' ')} "$@"; }
${script}
COMP_WORDS=(hc server cr); COMP_CWORD=2; _hc_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const out = await run('bash', ['--norc', '--noprofile', '-c', bash], { cwd: ROOT, timeout: 30_000 });
  assert.equal(out.stdout, 'create\n');
  const zshOk = await run('zsh', ['--version']).then(() => true, () => false);
  if (zshOk) await run('zsh', ['-n', '-c', zsh]);
});
