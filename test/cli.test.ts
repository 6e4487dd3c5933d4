// `hostcloud admin …` as an operator runs it, against the app on a real port. A few commands run
// the real binary (exit codes, streams); the rest run in-process through runAdmin, because each
// spawn costs one to two seconds of start-up.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runAdmin } from '../src/cli/admin.ts';
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
    execFile(process.execPath, argv, { cwd: root, env, timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
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

/** The JSON document a command printed (everything before the "API key" line, if any). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function printed(r: Run): any {
  return JSON.parse(r.stdout.split('\nAPI key (shown once')[0]!);
}

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
  assert.match(printed(created).account.id, /^acc_/);
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
  const created = await cli(['accounts', 'create', '--email', 'cli@example.com', '--name', 'CLI Customer', '--country', 'nl', '--deposit', '100', '--key', '127.0.0.1/32']);
  assert.equal(created.code, 0, created.stderr);
  assert.equal(created.stderr, '');
  assert.match(created.stdout, /API key \(shown once/);
  const key = secretOf(created);
  assert.match(key, /^hc_live_[0-9A-Za-z]{40}$/);
  const out = printed(created);
  const accountId: string = out.account.id;
  assert.match(accountId, /^acc_/);
  assert.equal(out.account.email, 'cli@example.com');
  assert.equal(out.account.country, 'NL');
  assert.equal(out.deposit.amount.amount, '100.00');
  assert.deepEqual(out.api_key.ip_allowlist, ['127.0.0.1/32']);
  assert.equal(out.api_key.key, key);

  // The printed key works against the customer API and sees the deposit.
  const bal = await call(t.app, 'GET', '/v2/billing/balance', { key });
  assert.equal(bal.statusCode, 200, bal.body);
  assert.equal(json(bal).data.balance.amount, '100.00');

  const [got, dep, keyed] = await Promise.all([
    cli(['accounts', 'get', accountId]),
    cli(['deposit', accountId, '5.00', '--description', 'Cheque 12']),
    cli(['keys', 'create', accountId, '--ip', '::1', '--name', 'ipv6 only']),
  ]);
  assert.equal(got.code, 0, got.stderr);
  assert.equal(printed(got).data.id, accountId);
  assert.equal(printed(got).data.name, 'CLI Customer');
  assert.equal(dep.code, 0, dep.stderr);
  assert.equal(printed(dep).data.type, 'deposit');
  assert.equal(printed(dep).data.amount.amount, '5.00');
  assert.equal(printed(dep).data.description, 'Cheque 12');
  assert.equal(keyed.code, 0, keyed.stderr);
  const key2 = secretOf(keyed);
  const key2Id: string = printed(keyed).data.id;
  assert.deepEqual(printed(keyed).data.ip_allowlist, ['::1/128']);
  assert.equal(printed(keyed).data.name, 'ipv6 only');
  const bal2 = await call(t.app, 'GET', '/v2/billing/balance', { key: key2, ip: '::1' });
  assert.equal(bal2.statusCode, 200, bal2.body);
  assert.equal(json(bal2).data.balance.amount, '105.00');
  // ::1 only: the IPv4 loopback is refused.
  assert.equal((await call(t.app, 'GET', '/v2/billing/balance', { key: key2, ip: '127.0.0.1' })).statusCode, 403);

  const [revoked, suspended] = await Promise.all([
    cli(['keys', 'revoke', key2Id]),
    cli(['accounts', 'update', accountId, '--status', 'suspended', '--phone', '5550100']),
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
  const created = await cli(['plans', 'create', '--name', 'CLI plan', '--cpu_cores', '2', '--ram_mb', '2048', '--storage_gb', '40', '--bandwidth_gb', '1000', '--price', '9.99']);
  assert.equal(created.code, 0, created.stderr);
  const plan = printed(created).data;
  assert.deepEqual({ ...plan, id: 0 }, { id: 0, name: 'CLI plan', cpu_cores: 2, ram_mb: 2048, storage_gb: 40, bandwidth_gb: 1000, price: '9.99', available: true });

  // Tiers form a ladder: close the seeded open-ended top tier (100+) before adding one above it.
  const tiers = printed(await cli(['reseller-tiers', 'list'])).data as { id: number; min_servers: number }[];
  const top = tiers.find((x) => x.min_servers === 100)!;
  assert.equal((await cli(['reseller-tiers', 'update', String(top.id), '--max_servers', '999'])).code, 0);

  const [list, os, tld, tier] = await Promise.all([
    cli(['plans', 'list']),
    // "13" is an OS version, not a number.
    cli(['operating-systems', 'create', '--family', 'Debian', '--version', '13', '--slug', 'debian-13']),
    cli(['tld-prices', 'create', '--json', '{"tld":"cli","register":"1.00","renewal":"2.00","transfer":"3.00"}']),
    cli(['reseller-tiers', 'create', '--min_servers', '1000', '--max_servers', 'null', '--discount_percentage', '22.5']),
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
    cli(['plans', 'update', String(plan.id), '--price=12.50', '--available', 'false']),
    cli(['tld-prices', 'get', 'CLI']),
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
  const mail = await cli(['email-packages', 'create', '--name', 'Mail CLI', '--disk_quota_mb', '2048', '--max_accounts', '3', '--monthly_price', '1.50']);
  assert.equal(mail.code, 0, mail.stderr);
  assert.equal(printed(mail).data.monthly_price, '1.50');
  const set = await cli(['unit-prices', 'set', 'cpu_core', '4.25']);
  assert.equal(set.code, 0, set.stderr);
  const got = await cli(['unit-prices', 'get', 'cpu_core']);
  assert.equal(printed(got).data.price, '4.25');
  const unknown = await cli(['unit-prices', 'set', 'gpu', '1.00']);
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
    [invalid, /422 VALIDATION_FAILED[\s\S]*cpu_cores: is required[\s\S]*price: /],
    [missing, /404 RESOURCE_NOT_FOUND/],
    [noKey, /--email is required/],
    [badJson, /JSON/],
    [badFlag, /colour/],
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

test('accounts create whose key step fails says which account it made', async () => {
  const r = await cli(['accounts', 'create', '--email', 'half@example.com', '--deposit', '7', '--key', '999.0.0.1']);
  assert.equal(r.code, 2);
  const made = printed(r);
  assert.match(made.account.id, /^acc_/);
  assert.equal(made.deposit.amount.amount, '7.00');
  assert.match(r.stderr, new RegExp(`account ${made.account.id} was created, but 422 VALIDATION_FAILED`));
  assert.match(r.stderr, /ip_allowlist\[0\]/);
  assert.match(r.stderr, new RegExp(`finish with: hostcloud admin keys create ${made.account.id}`));
  // It is really there, with its deposit, and the name defaulted to the email's local part.
  const acc = json(await adminCall(t, 'GET', `/admin/v1/accounts/${made.account.id}`)).data;
  assert.equal(acc.name, 'half');
  assert.equal(acc.balance.amount, '7.00');
});

test('an unreachable server is a clear error; --url=… and --token=… forms work', async () => {
  let stderr = '';
  const code = await runAdmin(['--url=http://127.0.0.1:1', '--token=x', 'plans', 'list'], { stdout: () => {}, stderr: (text) => { stderr += text; } });
  assert.notEqual(code, 0);
  assert.match(stderr, /cannot reach http:\/\/127\.0\.0\.1:1/);
  const ok = await runAdmin([`--url=${url}`, `--token=${t.adminToken}`, 'plans', 'get', '1'], { stdout: () => {}, stderr: (text) => { stderr += text; } });
  assert.equal(ok, 0, stderr);
});
