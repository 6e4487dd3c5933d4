// deploy/ is checked by the tools that will read it: the systemd units by `systemd-analyze verify`,
// the alerting rules by `promtool check rules` and their unit tests by `promtool test rules`, the
// Prometheus example by `promtool check config`, the nginx example by `nginx -t` (with a throw-away
// certificate). A tool that is missing skips its test with one line, unless DEPLOY_TESTS=required
// (.ci/run installs them). Every Hostcloud metric the rules and the dashboard name must be one the
// code registers, so a renamed metric cannot silently blind an alert.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Db } from '../../src/core/types.ts';
import { Metrics } from '../../src/telemetry/metrics.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DEPLOY = path.join(ROOT, 'deploy');

function tool(name: string): string | false {
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  if (found) return false;
  const why = `${name} is not installed`;
  if (process.env.DEPLOY_TESTS === 'required') throw new Error(`DEPLOY_TESTS=required but ${why}`);
  return why;
}

function run(cmd: string, args: string[], cwd?: string): { code: number; out: string } {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status ?? -1, out: `${r.stdout}${r.stderr}`.trim() };
}

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'hostcloud-deploy-'));
}

test('the systemd units pass systemd-analyze verify, instances included, and carry the hardening', { skip: tool('systemd-analyze') }, () => {
  const dir = tempDir();
  try {
    const units = fs.readdirSync(path.join(DEPLOY, 'systemd')).filter((f) => /\.(service|target)$/.test(f));
    for (const f of units) {
      // verify checks that ExecStart's program exists: point it at this machine's node.
      const text = fs.readFileSync(path.join(DEPLOY, 'systemd', f), 'utf8').replaceAll('/usr/local/bin/node', process.execPath);
      fs.writeFileSync(path.join(dir, f), text);
    }
    fs.symlinkSync('hostcloud-serve@.service', path.join(dir, 'hostcloud-serve@8081.service'));
    fs.symlinkSync('hostcloud-worker@.service', path.join(dir, 'hostcloud-worker@9101.service'));
    const r = run('systemd-analyze', ['verify', '--man=no', ...['hostcloud-serve@8081.service', 'hostcloud-worker@9101.service', 'hostcloud-migrate.service', 'hostcloud.target'].map((u) => path.join(dir, u))]);
    // verify exits 0 on unknown keys and bad values; it only prints them. Any line is a problem.
    assert.equal(r.code, 0, r.out);
    assert.equal(r.out, '', r.out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  for (const unit of ['hostcloud-serve@.service', 'hostcloud-worker@.service']) {
    const text = fs.readFileSync(path.join(DEPLOY, 'systemd', unit), 'utf8');
    for (const line of ['User=hostcloud', 'ProtectSystem=strict', 'NoNewPrivileges=yes', 'PrivateTmp=yes', 'ReadWritePaths=/var/lib/hostcloud', 'EnvironmentFile=/etc/hostcloud/hostcloud.env', 'Requires=hostcloud-migrate.service']) {
      assert.ok(text.split('\n').includes(line), `${unit} lacks ${line}`);
    }
  }
});

test('the alerting rules pass promtool check rules and their unit tests; the Prometheus example is valid', { skip: tool('promtool') }, () => {
  const dir = path.join(DEPLOY, 'prometheus');
  let r = run('promtool', ['check', 'rules', 'hostcloud-alerts.yml'], dir);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /SUCCESS: \d+ rules found/);
  r = run('promtool', ['test', 'rules', 'hostcloud-alerts.test.yml'], dir);
  assert.equal(r.code, 0, r.out);
  r = run('promtool', ['check', 'config', '--syntax-only', 'prometheus-example.yml'], dir);
  assert.equal(r.code, 0, r.out);
});

test('the nginx example passes nginx -t', { skip: tool('nginx') || tool('openssl') }, () => {
  const dir = tempDir();
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=cloud.example.com'], { stdio: 'ignore' });
    const site = fs.readFileSync(path.join(DEPLOY, 'nginx/hostcloud.conf'), 'utf8')
      .replace('/etc/letsencrypt/live/cloud.example.com/fullchain.pem', path.join(dir, 'cert.pem'))
      .replace('/etc/letsencrypt/live/cloud.example.com/privkey.pem', path.join(dir, 'key.pem'));
    fs.writeFileSync(path.join(dir, 'site.conf'), site);
    fs.writeFileSync(path.join(dir, 'nginx.conf'), `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  access_log off;\n  include ${dir}/site.conf;\n}\n`);
    const r = run('nginx', ['-t', '-p', dir, '-c', path.join(dir, 'nginx.conf')]);
    assert.equal(r.code, 0, r.out);
    assert.match(site, /proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('every Hostcloud metric the rules and the dashboard name is one the code registers', () => {
  const metrics = new Metrics();
  // Registers the scrape-time gauges (queue, pools, outbox); nothing is read until a scrape.
  metrics.watchDatabase({} as Db, []);
  const registered = new Set(metrics.registry.getMetricsAsArray().map((m) => (m as unknown as { name: string }).name));
  const dashboard = JSON.parse(fs.readFileSync(path.join(DEPLOY, 'grafana/hostcloud-dashboard.json'), 'utf8')) as { panels: { title: string; targets: { expr: string }[] }[] };
  assert.ok(dashboard.panels.length >= 10);
  const exprs = [
    fs.readFileSync(path.join(DEPLOY, 'prometheus/hostcloud-alerts.yml'), 'utf8'),
    ...dashboard.panels.flatMap((p) => { assert.ok(p.targets.length > 0, p.title); return p.targets.map((t) => t.expr); }),
  ];
  const used = new Set(exprs.flatMap((e) => [...e.matchAll(/\bhostcloud_[a-z_]+/g)].map((m) => m[0].replace(/_(bucket|sum|count)$/, ''))));
  for (const name of ['hostcloud_http_requests_total', 'hostcloud_queue_oldest_job_age_seconds', 'hostcloud_operations_total', 'hostcloud_webhook_oldest_due_age_seconds', 'hostcloud_payment_sweeps_total']) {
    assert.ok(used.has(name), `the alerts and dashboard should use ${name}`);
  }
  const unknown = [...used].filter((n) => !registered.has(n));
  assert.deepEqual(unknown, [], 'names no Hostcloud process exports');
});

