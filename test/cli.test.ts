// `hostcloud admin …` as an operator runs it, against the app on a real port. A few commands run
// the real binary (exit codes, streams); the rest run in-process through runAdmin, because each
// spawn costs one to two seconds of start-up.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { adminCommands, runAdmin } from '../src/cli/admin.ts';
import { adminCall, call, json, startApp } from './helpers/app.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const t = await startApp();
await t.app.listen({ port: 0, host: '127.0.0.1' });
const { port } = t.app.server.address() as { port: number };
const url = `http://127.0.0.1:${port}`;

interface Run { code: number; stdout: string; stderr: string }

/** `node bin/hostcloud.js admin --url … --token … ARGS`, with no ADMIN_TOKEN/HOSTCLOUD_URL/DATA_DIR inherited. */
function spawnCli(args: string[], opts: { token?: string } = {}): Promise<Run> {
  const { ADMIN_TOKEN: _a, HOSTCLOUD_URL: _h, DATA_DIR: _d, ...env } = process.env;
  const argv = [path.join(root, 'bin/hostcloud.js'), 'admin', '--url', url, '--token', opts.token ?? t.adminToken, ...args];
  return new Promise((resolve) => {
    // A backstop for a hung process: three started at once took over 30 s on a busy machine.
    execFile(process.execPath, argv, { cwd: root, env, timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr: err?.killed ? `${stderr}(killed after 120 s)` : stderr });
    });
  });
}

/** The same command in-process. */
async function cli(args: string[], opts: { token?: string; url?: string } = {}): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin(['--url', opts.url ?? url, '--token', opts.token ?? t.adminToken, ...args], {
    stdout: (text) => { stdout += text; },
    stderr: (text) => { stderr += text; },
  });
  return { code, stdout, stderr };
}

/** The JSON document a command printed with --json. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function printed(r: Run): any {
  return JSON.parse(r.stdout);
}

/** The same command with --json. */
const cliJson = (args: string[], opts: { token?: string; url?: string } = {}) => cli([...args, '--json'], opts);

function secretOf(r: Run): string {
  const m = /API key \(shown once, store it now\): (\S+)/.exec(r.stdout);
  assert.ok(m, r.stdout);
  return m[1]!;
}

test('the binary: exit codes and streams of a success and two failures', async () => {
  const [created, bad, wrongToken] = await Promise.all([
    spawnCli(['accounts', 'create', '--email', 'bin@example.com', '--name', 'Bin', '--deposit', '100', '--key', '127.0.0.1/32']),
    spawnCli(['accounts', 'frobnicate']),
    spawnCli(['plans', 'list'], { token: 'not-the-token' }),
  ]);
  assert.equal(created.code, 0, created.stderr);
  assert.equal(created.stderr, '');
  const key = secretOf(created);
  assert.match(key, /^hc_live_[0-9A-Za-z]{40}$/);
  // Human output: the account as it stands after the deposit, the deposit, the key, the secret once.
  assert.match(created.stdout, /^Account acc_\w+ opened\n/);
  assert.match(created.stdout, /\n {2}email +bin@example\.com\n/);
  assert.match(created.stdout, /\n {2}balance +100\.00 USD\n/);
  assert.match(created.stdout, /\nDeposit: 100\.00 USD \(transaction \d+, "Initial deposit"\)\n/);
  assert.match(created.stdout, /\nAPI key: key_\w+ "default" \(live, active\) · allows 127\.0\.0\.1\/32 · every scope\n/);
  assert.equal(created.stdout.split(key).length, 2, 'the secret is printed once');
  const bal = await call(t.app, 'GET', '/v2/billing/balance', { key });
  assert.equal(bal.statusCode, 200, bal.body);
  assert.equal(json(bal).data.balance.amount, '100.00');

  assert.notEqual(bad.code, 0);
  assert.equal(bad.stdout, '');
  assert.match(bad.stderr, /^hostcloud admin: unknown admin command "accounts frobnicate"/);
  assert.notEqual(wrongToken.code, 0);
  assert.equal(wrongToken.stdout, '');
  assert.match(wrongToken.stderr, /401 AUTH_INVALID/);
});

test('the operator workflow: create a funded account with a key, then manage it', async () => {
  const created = await cliJson(['accounts', 'create', '--email', 'cli@example.com', '--name', 'CLI Customer', '--country', 'nl', '--deposit', '100', '--ip', '127.0.0.1/32']);
  assert.equal(created.code, 0, created.stderr);
  assert.equal(created.stderr, '');
  // --json: the API's answer only (the secret is in it), nothing else on stdout.
  const out = printed(created).data;
  const key: string = out.api_key.key;
  assert.match(key, /^hc_live_[0-9A-Za-z]{40}$/);
  const accountId: string = out.id;
  assert.match(accountId, /^acc_/);
  assert.equal(out.email, 'cli@example.com');
  assert.equal(out.country, 'NL');
  assert.equal(out.balance.amount, '100.00');
  assert.equal(out.deposit.amount.amount, '100.00');
  assert.deepEqual(out.api_key.ip_allowlist, ['127.0.0.1/32']);

  // The printed key works against the customer API and sees the deposit.
  const bal = await call(t.app, 'GET', '/v2/billing/balance', { key });
  assert.equal(bal.statusCode, 200, bal.body);
  assert.equal(json(bal).data.balance.amount, '100.00');

  const [got, dep, keyed] = await Promise.all([
    cliJson(['accounts', 'get', accountId]),
    cliJson(['deposit', accountId, '5.00', '--description', 'Cheque 12']),
    cliJson(['keys', 'create', accountId, '--ip', '::1', '--name', 'ipv6 only']),
  ]);
  assert.equal(got.code, 0, got.stderr);
  assert.equal(printed(got).data.id, accountId);
  assert.equal(printed(got).data.name, 'CLI Customer');
  assert.equal(dep.code, 0, dep.stderr);
  assert.equal(printed(dep).data.type, 'deposit');
  assert.equal(printed(dep).data.amount.amount, '5.00');
  assert.equal(printed(dep).data.description, 'Cheque 12');
  assert.equal(keyed.code, 0, keyed.stderr);
  const key2: string = printed(keyed).data.key;
  const key2Id: string = printed(keyed).data.id;
  assert.deepEqual(printed(keyed).data.ip_allowlist, ['::1/128']);
  assert.equal(printed(keyed).data.name, 'ipv6 only');
  const bal2 = await call(t.app, 'GET', '/v2/billing/balance', { key: key2, ip: '::1' });
  assert.equal(bal2.statusCode, 200, bal2.body);
  assert.equal(json(bal2).data.balance.amount, '105.00');
  // ::1 only: the IPv4 loopback is refused.
  assert.equal((await call(t.app, 'GET', '/v2/billing/balance', { key: key2, ip: '127.0.0.1' })).statusCode, 403);

  const [revoked, suspended] = await Promise.all([
    cliJson(['keys', 'revoke', key2Id]),
    cliJson(['accounts', 'update', accountId, '--status', 'suspended', '--phone', '5550100']),
  ]);
  assert.equal(revoked.code, 0, revoked.stderr);
  assert.equal(printed(revoked).data.status, 'revoked');
  const after = await call(t.app, 'GET', '/v2/billing/balance', { key: key2, ip: '::1' });
  assert.equal(after.statusCode, 401);
  assert.equal(json(after).error.code, 'AUTH_INVALID');
  // A phone number that looks like a number stays a string.
  assert.equal(suspended.code, 0, suspended.stderr);
  assert.equal(printed(suspended).data.status, 'suspended');
  assert.equal(printed(suspended).data.phone, '5550100');
  assert.equal(json(await call(t.app, 'GET', '/v2/billing/balance', { key })).error.code, 'ACCOUNT_INACTIVE');
});

test('catalog commands: create from flags (money stays a string), list, get, update', async () => {
  const created = await cliJson(['plans', 'create', '--name', 'CLI plan', '--cpu_cores', '2', '--ram_mb', '2048', '--storage_gb', '40', '--bandwidth_gb', '1000', '--price', '9.99']);
  assert.equal(created.code, 0, created.stderr);
  const plan = printed(created).data;
  assert.deepEqual({ ...plan, id: 0 }, { id: 0, name: 'CLI plan', cpu_cores: 2, ram_mb: 2048, storage_gb: 40, bandwidth_gb: 1000, price: '9.99', available: true });

  // Tiers form a ladder: close the seeded open-ended top tier (100+) before adding one above it.
  const tiers = printed(await cliJson(['reseller-tiers', 'list'])).data as { id: number; min_servers: number }[];
  const top = tiers.find((x) => x.min_servers === 100)!;
  assert.equal((await cliJson(['reseller-tiers', 'update', String(top.id), '--max_servers', '999'])).code, 0);

  const [list, os, tld, tier] = await Promise.all([
    cliJson(['plans', 'list']),
    // "13" is an OS version, not a number.
    cliJson(['operating-systems', 'create', '--family', 'Debian', '--version', '13', '--slug', 'debian-13']),
    cliJson(['tld-prices', 'create', '--json', '{"tld":"cli","register":"1.00","renewal":"2.00","transfer":"3.00"}']),
    cliJson(['reseller-tiers', 'create', '--min_servers', '1000', '--max_servers', 'null', '--discount_percentage', '22.5']),
  ]);
  assert.equal(list.code, 0, list.stderr);
  const plans = printed(list);
  assert.equal(plans.meta.pagination.total, 7);
  assert.ok(plans.data.some((p: { id: number; name: string }) => p.id === plan.id && p.name === 'CLI plan'));
  assert.equal(os.code, 0, os.stderr);
  assert.equal(printed(os).data.version, '13');
  assert.equal(tld.code, 0, tld.stderr);
  assert.equal(printed(tld).data.tld, '.cli');
  assert.equal(tier.code, 0, tier.stderr);
  assert.equal(printed(tier).data.max_servers, null);
  assert.equal(printed(tier).data.discount_percentage, 22.5);

  const [updated, got] = await Promise.all([
    cliJson(['plans', 'update', String(plan.id), '--price=12.50', '--available', 'false']),
    cliJson(['tld-prices', 'get', 'CLI']),
  ]);
  assert.equal(updated.code, 0, updated.stderr);
  assert.equal(printed(updated).data.price, '12.50');
  assert.equal(printed(updated).data.available, false);
  assert.equal(got.code, 0, got.stderr);
  assert.equal(printed(got).data.transfer, '3.00');
  const row = json(await adminCall(t, 'GET', `/admin/v1/plans/${plan.id}`)).data;
  assert.equal(row.price, '12.50');
});

test('v1 package families and unit prices from the terminal', async () => {
  const mail = await cliJson(['email-packages', 'create', '--name', 'Mail CLI', '--disk_quota_mb', '2048', '--max_accounts', '3', '--monthly_price', '1.50']);
  assert.equal(mail.code, 0, mail.stderr);
  assert.equal(printed(mail).data.monthly_price, '1.50');
  const set = await cliJson(['unit-prices', 'set', 'cpu_core', '4.25']);
  assert.equal(set.code, 0, set.stderr);
  const got = await cliJson(['unit-prices', 'get', 'cpu_core']);
  assert.equal(printed(got).data.price, '4.25');
  const unknown = await cliJson(['unit-prices', 'set', 'gpu', '1.00']);
  assert.notEqual(unknown.code, 0);
  assert.match(unknown.stderr, /RESOURCE_NOT_FOUND/);
});

test('errors: non-zero exit, message on stderr, nothing on stdout', async () => {
  const [bad, unknownTable, wrongToken, invalid, missing, noKey, badJson, badFlag, help] = await Promise.all([
    cli(['accounts', 'frobnicate']),
    cli(['widgets', 'list']),
    cli(['plans', 'list'], { token: 'not-the-token' }),
    cli(['plans', 'create', '--name', 'Half', '--price', '-1']),
    cli(['accounts', 'get', 'acc_nobody']),
    cli(['accounts', 'create', '--name', 'No Email']),
    cli(['plans', 'create', '--json', '{oops']),
    cli(['accounts', 'create', '--email', 'x@example.com', '--colour', 'red']),
    cli(['help']),
  ]);
  for (const [r, pattern] of [
    [bad, /unknown admin command "accounts frobnicate"/],
    [unknownTable, /unknown admin command "widgets list"/],
    [wrongToken, /401 AUTH_INVALID/],
    [invalid, /the server refused it \(422 VALIDATION_FAILED\):\n {2}--cpu_cores is required\n[\s\S]*\n {2}--price must be an amount like 4\.00/],
    [missing, /404 RESOURCE_NOT_FOUND/],
    [noKey, /--email is required/],
    [badJson, /JSON/],
    [badFlag, /unknown option --colour\nusage: hostcloud admin accounts create --email EMAIL \[--name NAME\]/],
  ] as const) {
    assert.notEqual(r.code, 0, r.stdout);
    assert.match(r.stderr, /^hostcloud admin: /);
    assert.match(r.stderr, pattern);
    assert.equal(r.stdout, '');
  }
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage: hostcloud admin/);
  // The refused plan was not created.
  const plans = json(await adminCall(t, 'GET', '/admin/v1/plans?per_page=100')).data;
  assert.equal(plans.some((p: { name: string }) => p.name === 'Half'), false);
});

test("accounts create checks every input before it sends anything, in the command's own words", async () => {
  const r = await cli(['accounts', 'create', '--email', 'not-an-email', '--deposit', '1,50', '--ip', '127.0.0.1', '--key', '999.0.0.1', '--scope', 'servers:fly']);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, [
    'hostcloud admin: nothing was created:',
    '  --email must be an email address like you@example.com',
    '  --deposit must be an amount like 150.00',
    '  --key "999.0.0.1" is not an IP address or CIDR range',
    '  --scope "servers:fly" is not a known scope',
    '',
  ].join('\n'));
  assert.doesNotMatch(r.stderr, /\/body|\^|pattern|ip_allowlist/, 'no validator paths or regexes');
  const none = json(await adminCall(t, 'GET', '/admin/v1/accounts?email=not-an-email'));
  assert.equal(none.meta.pagination.total, 0);
  // One problem is one line; key details without an address say --ip is what is missing.
  const one = await cli(['accounts', 'create', '--email', 'one@example.com', '--deposit', 'abc']);
  assert.equal(one.stderr, 'hostcloud admin: --deposit must be an amount like 150.00\n');
  const noIp = await cli(['accounts', 'create', '--email', 'noip@example.com', '--test-key']);
  assert.match(noIp.stderr, /^hostcloud admin: --ip is required for an API key/);
  const zero = await cli(['accounts', 'create', '--email', 'zero@example.com', '--deposit', '0']);
  assert.equal(zero.stderr, 'hostcloud admin: --deposit must be positive: a deposit adds money, like 150.00 (0 adds nothing)\n');
  assert.equal(json(await adminCall(t, 'GET', '/admin/v1/accounts?email=@example.com&per_page=100')).data.some((a: { email: string }) => ['one@example.com', 'noip@example.com', 'zero@example.com'].includes(a.email)), false);
  // What only the server can know (a taken email) comes back in flag terms too, and nothing was made.
  await cli(['accounts', 'create', '--email', 'taken@example.com']);
  const taken = await cli(['accounts', 'create', '--email', 'TAKEN@example.com', '--deposit', '5', '--ip', '::1']);
  assert.equal(taken.stderr, 'hostcloud admin: the server refused it (422 VALIDATION_FAILED):\n  --email: an account with this email already exists\n');
  const accounts = json(await adminCall(t, 'GET', '/admin/v1/accounts?email=taken@example.com')).data;
  assert.equal(accounts.length, 1);
  assert.equal(accounts[0].balance.amount, '0.00');
});

test('deposit, keys create and the argument checks of other commands', async () => {
  const made = printed(await cliJson(['accounts', 'create', '--email', 'args@example.com'])).data;
  for (const [args, message] of [
    [['deposit', made.id], 'AMOUNT is missing\nusage: hostcloud admin deposit ACCOUNT_ID AMOUNT [--description TEXT]'],
    [['deposit'], 'ACCOUNT_ID is missing\nusage: hostcloud admin deposit ACCOUNT_ID AMOUNT [--description TEXT]'],
    [['deposit', made.id, '12.345'], 'AMOUNT must be an amount like 150.00'],
    [['deposit', made.id, '-5'], 'AMOUNT must be positive: a deposit adds money, like 150.00'],
    [['deposit', made.id, '0'], 'AMOUNT must be positive: a deposit adds money, like 150.00 (0 adds nothing)'],
    [['deposit', made.id, '0.00'], 'AMOUNT must be positive: a deposit adds money, like 150.00 (0 adds nothing)'],
    [['keys', 'create', made.id], '--ip is required (one or more IP addresses or CIDR ranges the key may be used from)\nusage: hostcloud admin keys create ACCOUNT_ID --ip IP_OR_CIDR [--ip IP_OR_CIDR]... [--name NAME] [--test] [--scope SCOPE]... [--sub-user SUB_USER_ID]'],
    [['keys', 'create', made.id, '--ip', '10.0.0.0/33'], '--ip "10.0.0.0/33" is not an IP address or CIDR range'],
    [['keys', 'list'], 'ACCOUNT_ID is missing\nusage: hostcloud admin keys list ACCOUNT_ID [--page N] [--per-page N]'],
    [['accounts', 'get'], 'ACCOUNT_ID is missing\nusage: hostcloud admin accounts get ACCOUNT_ID'],
    [['accounts', 'list', '--status', 'gone'], '--status must be one of active, suspended, closed'],
    [['accounts', 'list', '--page', '0'], '--page must be a whole number from 1 to 10000000'],
    [['accounts', 'update', made.id, '--country', 'Netherlands'], '--country must be a two-letter country code like NL'],
    [['accounts', 'create', '--email'], '--email needs a value (write --email=VALUE for a value starting with "-")\nusage: ' + 'hostcloud admin accounts create --email EMAIL [--name NAME] [--company TEXT] [--phone PHONE] [--country CC] [--deposit AMOUNT] [--ip IP_OR_CIDR]... [--key-name NAME] [--test-key] [--scope SCOPE]...'],
  ] as const) {
    const r = await cli([...args]);
    assert.equal(r.stderr, `hostcloud admin: ${message}\n`, args.join(' '));
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
  }
  assert.equal(json(await adminCall(t, 'GET', `/admin/v1/accounts/${made.id}/transactions`)).meta.pagination.total, 0, 'no deposit was made');
  // A good deposit says what the balance is now.
  const dep = await cli(['deposit', made.id, '12.5']);
  assert.equal(dep.code, 0, dep.stderr);
  assert.match(dep.stdout, new RegExp(`^Deposited 12\\.50 USD to ${made.id} \\(transaction \\d+, "Deposit"\\); balance now 12\\.50 USD\\n$`));
});

test('lists: accounts (search, status, pages), keys and transactions as tables, or JSON', async () => {
  const a = printed(await cliJson(['accounts', 'create', '--email', 'table-one@example.com', '--name', 'Table One', '--deposit', '30', '--ip', '127.0.0.1'])).data;
  await cli(['accounts', 'create', '--email', 'table-two@example.com', '--name', 'Table Two']);
  await cli(['keys', 'create', a.id, '--ip', '::1', '--name', 'second', '--test', '--scope', 'servers:read']);
  await cli(['deposit', a.id, '2.00', '--description', 'Top-up']);

  const listed = await cli(['accounts', 'list', '--email', 'TABLE-', '--per-page', '1']);
  assert.equal(listed.code, 0, listed.stderr);
  const lines = listed.stdout.trimEnd().split('\n');
  assert.match(lines[0]!, /^ID +EMAIL +NAME +STATUS +BALANCE +CREATED_AT$/);
  assert.match(lines[1]!, /^acc_\w+ +table-two@example\.com +Table Two +active +0\.00 USD +\d{4}-/);
  assert.equal(lines[2], 'page 1 of 2 (2 accounts); next: --page 2');
  const page2 = await cli(['accounts', 'list', '--email', 'table-', '--per-page', '1', '--page', '2']);
  assert.match(page2.stdout, /table-one@example\.com +Table One +active +32\.00 USD/);
  assert.match(page2.stdout, /\npage 2 of 2 \(2 accounts\)\n$/);
  assert.equal((await cli(['accounts', 'list', '--email', 'table-', '--status', 'suspended'])).stdout, 'no accounts\n');
  const asJson = printed(await cliJson(['accounts', 'list', '--email', 'table-']));
  assert.deepEqual(asJson.data.map((x: { email: string }) => x.email), ['table-two@example.com', 'table-one@example.com']);
  assert.equal(asJson.meta.pagination.total, 2);

  const keys = await cli(['keys', 'list', a.id]);
  assert.equal(keys.code, 0, keys.stderr);
  const k = keys.stdout.trimEnd().split('\n');
  assert.match(k[0]!, /^ID +NAME +PREFIX +KIND +STATUS +IP_ALLOWLIST +SCOPES +SUB_USER +LAST_USED_AT +CREATED_AT$/);
  assert.match(k[1]!, /^key_\w+ +default +hc_live_\w+ +live +active +127\.0\.0\.1\/32 +all +- +- +\d{4}-/);
  assert.match(k[2]!, /^key_\w+ +second +hc_test_\w+ +test +active +::1\/128 +servers:read +- +- +\d{4}-/);
  assert.equal(k[3], 'page 1 of 1 (2 keys)');
  assert.doesNotMatch(keys.stdout, /hc_live_[0-9A-Za-z]{40}/, 'no secret');

  const txs = await cli(['transactions', a.id]);
  assert.equal(txs.code, 0, txs.stderr);
  const tx = txs.stdout.trimEnd().split('\n');
  assert.match(tx[0]!, /^ID +CREATED_AT +TYPE +AMOUNT +DESCRIPTION$/);
  assert.match(tx[1]!, /^\d+ +\d{4}-\S+ +deposit +2\.00 USD +Top-up$/);
  assert.match(tx[2]!, /^\d+ +\d{4}-\S+ +deposit +30\.00 USD +Initial deposit$/);
  assert.equal((await cli(['transactions', a.id, '--type', 'refund'])).stdout, 'no transactions\n');
  const missing = await cli(['transactions', 'acc_nobody']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /404 RESOURCE_NOT_FOUND: Account not found/);
});

test('help marks optional flags and lists every command', async () => {
  const help = await cli(['help']);
  for (const line of [
    'accounts create --email EMAIL [--name NAME] [--company TEXT] [--phone PHONE] [--country CC]',
    '[--deposit AMOUNT] [--ip IP_OR_CIDR]... [--key-name NAME] [--test-key] [--scope SCOPE]...',
    'accounts list [--email TEXT] [--status active|suspended|closed] [--page N] [--per-page N]',
    'transactions ACCOUNT_ID [--type deposit|withdraw|refund] [--page N] [--per-page N]',
    'keys list ACCOUNT_ID [--page N] [--per-page N]',
    'keys create ACCOUNT_ID --ip IP_OR_CIDR [--ip IP_OR_CIDR]... [--name NAME] [--test] [--scope SCOPE]...',
    '--json           print the API\'s JSON answer (for scripts) instead of a table',
  ]) assert.ok(help.stdout.includes(line), line);
});

test('an unreachable server is a clear error; --url=… and --token=… forms work', async () => {
  let stderr = '';
  const code = await runAdmin(['--url=http://127.0.0.1:1', '--token=x', 'plans', 'list'], { stdout: () => {}, stderr: (text) => { stderr += text; } });
  assert.notEqual(code, 0);
  assert.match(stderr, /cannot reach http:\/\/127\.0\.0\.1:1/);
  const ok = await runAdmin([`--url=${url}`, `--token=${t.adminToken}`, 'plans', 'get', '1'], { stdout: () => {}, stderr: (text) => { stderr += text; } });
  assert.equal(ok, 0, stderr);
});

test('--help: every command and group prints its usage, what it does and examples, exit 0, and sends nothing', async () => {
  const commands = adminCommands();
  assert.ok(commands.length > 40);
  for (const { command } of commands) {
    for (const flag of ['--help', '-h']) {
      const r = await cli([...command.split(' '), flag], { url: 'http://127.0.0.1:1' });
      assert.equal(r.code, 0, `${command} ${flag}: ${r.stderr}`);
      assert.ok(r.stdout.startsWith(`Usage: hostcloud admin ${command}`), `${command}: ${r.stdout}`);
      assert.match(r.stdout, new RegExp(`\nExamples:\n {2}hostcloud admin ${command.split(' ')[0]} `), command);
      assert.equal(r.stderr, '');
    }
  }
  const create = await cli(['accounts', 'create', '--help']);
  assert.match(create.stdout, /^Usage: hostcloud admin accounts create --email EMAIL .*\n\n {2}opens the account in one step/);
  assert.match(create.stdout, /hostcloud admin accounts create --email ada@example\.com --name "Ada Lovelace" --deposit 100 --ip 203\.0\.113\.7/);
  // Arguments before --help do not matter; a group lists its commands; `help CMD` is the same.
  assert.equal((await cli(['deposit', 'acc_x', '5', '--help'])).stdout, (await cli(['help', 'deposit'])).stdout);
  const group = await cli(['tickets', '--help']);
  assert.equal(group.code, 0);
  for (const sub of ['list', 'show', 'reply', 'note', 'status', 'delete']) assert.match(group.stdout, new RegExp(`^ {2}hostcloud admin tickets ${sub}\\b`, 'm'));
  const unknown = await cli(['frobnicate', '--help']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown admin command "frobnicate"/);
});

test('--json: errors are one JSON object on stderr too (usage, refusals in flag terms, the server not reached)', async () => {
  const usage = await cliJson(['accounts', 'frobnicate']);
  assert.equal(usage.code, 2);
  assert.equal(usage.stdout, '');
  assert.deepEqual(JSON.parse(usage.stderr), { error: { code: 'USAGE_ERROR', message: 'unknown admin command "accounts frobnicate"; see hostcloud admin help' } });
  const missing = JSON.parse((await cliJson(['accounts', 'get', 'acc_doesnotexist00000'])).stderr);
  assert.equal(missing.error.code, 'RESOURCE_NOT_FOUND');
  assert.equal(missing.error.status, 404);
  await cli(['accounts', 'create', '--email', 'json-taken@example.com']);
  const taken = await cliJson(['accounts', 'create', '--email', 'json-taken@example.com']);
  assert.equal(taken.code, 2);
  assert.deepEqual(JSON.parse(taken.stderr).error.errors, [{ field: '--email', message: '--email: an account with this email already exists' }]);
  assert.equal(JSON.parse(taken.stderr).error.code, 'VALIDATION_FAILED');
  const zero = JSON.parse((await cliJson(['deposit', 'acc_x', '0'])).stderr);
  assert.equal(zero.error.code, 'USAGE_ERROR');
  assert.match(zero.error.message, /must be positive/);
  const away = await cliJson(['plans', 'list'], { url: 'http://127.0.0.1:1' });
  assert.equal(JSON.parse(away.stderr).error.code, 'UNREACHABLE');
  // Every line of stderr is that one object.
  assert.equal(away.stderr.trim().split('\n').length, 1);
});

test('hostcloud serve|worker|migrate --help: usage and examples, exit 0, nothing started', async () => {
  const { ADMIN_TOKEN: _a, DATABASE_URL: _d, ...env } = process.env;
  const run = (args: string[]) => new Promise<Run>((resolve) => {
    // A backstop for a hung process, as in spawnCli: three at once took over 30 s on a busy machine.
    execFile(process.execPath, [path.join(root, 'bin/hostcloud.js'), ...args], { cwd: root, env, timeout: 120_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr: err?.killed ? `${stderr}(killed after 120 s)` : stderr }));
  });
  const results = await Promise.all([['serve', '--help'], ['worker', '-h'], ['migrate', '--help']].map(run));
  for (const [i, name] of ['serve', 'worker', 'migrate'].entries()) {
    const r = results[i]!;
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`^Usage: hostcloud ${name}\n`));
    assert.match(r.stdout, /\nExamples:\n/);
    assert.doesNotMatch(r.stdout, /listening|migrations applied/);
  }
});

test('accounts invite: prints the owner\'s single-use panel link (and with --json, the API\'s answer); an unknown account is an error', async () => {
  const created = json(await adminCall(t, 'POST', '/admin/v1/accounts', { email: 'invitee@example.com', name: 'Invitee' })).data;
  const r = await cli(['accounts', 'invite', created.id]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Panel invitation for invitee@example\.com \(works once, until .+; also queued as an email\):\nhttp:\/\/api\.test\/panel\/invitation\/[A-Za-z0-9_-]{43}\n?$/);
  const j = await cliJson(['accounts', 'invite', created.id]);
  assert.equal(j.code, 0);
  assert.equal(printed(j).data.email, 'invitee@example.com');
  const missing = await cli(['accounts', 'invite', 'acc_nothing']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /not found/i);
  const help = await cli(['accounts', 'invite', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage: hostcloud admin accounts invite ACCOUNT_ID/);
});
