// The native hosting driver when things go wrong, on this machine as its hosting node (real sshd,
// nginx, PHP-FPM, MariaDB; test/helpers/hosting-node.ts): hostile names never become shell words;
// a dropped connection or a killed attempt is finished by the retry with one account. And the
// operator's side: the hosting-nodes admin API and `hostcloud admin hosting-nodes`.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { before, describe, test } from 'node:test';
import { type Customer, adminCall, call, createCustomer, json } from '../helpers/app.ts';
import { adminCli } from '../helpers/admin-cli.ts';
import { hostingSkip } from '../helpers/hosting-node.ts';
import { type NativeHostingApp, fetchSite, startNativeHosting } from '../helpers/hosting-native.ts';
import { createNativePanel } from '../../src/providers/hosting/native/index.ts';
import { q } from '../../src/providers/hosting/native/shell.ts';
import { connect } from '../../src/providers/hosting/native/ssh.ts';
import { HostingPanelError } from '../../src/providers/hosting/types.ts';

let env: NativeHostingApp;
let c: Customer;

const domainOf = () => `f${Math.random().toString(36).slice(2, 10)}.example.net`;
const users = () => fs.readFileSync('/etc/passwd', 'utf8').split('\n').map((l) => l.split(':')[0]!).filter((u) => u.startsWith(env.node.prefix));
const pkg = { name: 'Web Starter', quotaMb: 1024, maxDomains: 1 };
const noProgress = async () => undefined;

describe('native hosting driver: faults and the operator', { skip: hostingSkip, timeout: 600_000 }, () => {
  before(async () => {
    env = await startNativeHosting();
    c = await createCustomer(env.t, { deposit: '500.00' });
    await env.t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  test('hostcloud admin hosting-nodes: list, get, check, disable (orders refused), enable; an unreachable node is a clear error', { timeout: 120_000 }, async () => {
    const url = `http://127.0.0.1:${(env.t.app.server.address() as { port: number }).port}`;
    const list = await adminCli(env.t, url, ['hosting-nodes', 'list']);
    assert.equal(list.code, 0, list.stderr);
    assert.match(list.stdout, new RegExp(`${env.node.prefix}\\.node\\.test`));
    const get = await adminCli(env.t, url, ['hosting-nodes', 'get', String(env.nodeId)]);
    assert.equal(get.code, 0, get.stderr);
    assert.match(get.stdout, /host_key/);
    const check = await adminCli(env.t, url, ['--json', 'hosting-nodes', 'check', String(env.nodeId)]);
    assert.equal(check.code, 0, check.stderr);
    assert.deepEqual(JSON.parse(check.stdout).data.missing, []);

    assert.equal((await adminCli(env.t, url, ['hosting-nodes', 'disable', String(env.nodeId)])).code, 0);
    const refused = await call(env.t.app, 'POST', '/v2/web-hosting', { key: c.key, body: { domain: domainOf(), package_id: 1 } });
    assert.equal(refused.statusCode, 503, refused.body);
    assert.equal((await adminCli(env.t, url, ['hosting-nodes', 'enable', String(env.nodeId)])).code, 0);

    // Nothing listens there: refused, saying so, after printing the key to authorise.
    const add = await adminCli(env.t, url, ['hosting-nodes', 'add', '--name', 'nowhere.test', '--host', '127.0.0.1', '--port', '1']);
    assert.notEqual(add.code, 0);
    assert.match(add.stderr, /ssh-ed25519 /);
    assert.match(add.stderr, /unreachable/);
    const missing = await adminCall(env.t, 'GET', '/admin/v1/hosting-nodes/999999');
    assert.equal(missing.statusCode, 404);
    const badConfig = await adminCall(env.t, 'POST', '/admin/v1/hosting-nodes', { name: 'bad.test', host: '127.0.0.1', config: { hosting_root: '/srv/$(id)' } });
    assert.equal(badConfig.statusCode, 422, badConfig.body);
    assert.equal(json(badConfig).error.errors[0].field, 'config');
  });

  test('hostile names: every value is one shell word; a hostile domain is refused before anything is made', { timeout: 60_000 }, async () => {
    const ssh = await connect({ name: 'test', host: '127.0.0.1', port: env.node.sshPort, user: 'root', hostKey: null }, fs.readFileSync(env.node.keyFile, 'utf8'));
    try {
      for (const s of ["a'b", '$(touch /tmp/hc-pwned)', '`id`', '; rm -rf /nonexistent', 'x\ny', '\\', '*', '-n', '"quoted"', "'''", '$HOME', '']) {
        const r = await ssh.exec(`printf %s ${q(s)}`);
        assert.equal(r.stdout, s);
      }
    } finally {
      ssh.close();
    }
    assert.ok(!fs.existsSync('/tmp/hc-pwned'));
    const before = users().length;
    for (const domain of ['x.com;touch${IFS}/tmp/hc-pwned', 'a.com\nb', '$(id).com', 'x.com server_name', '../../etc']) {
      await assert.rejects(env.panel.createAccount({ token: `hostile-${domain}`, domain, package: pkg, contactEmail: '' }, noProgress),
        (e: unknown) => e instanceof HostingPanelError && !e.retryable && /Refused domain/.test(e.message));
    }
    assert.equal(users().length, before);
    assert.equal(await env.t.database.db.selectFrom('hosting_node_accounts').select('id').where('request_token', 'like', 'hostile-%').executeTakeFirst(), undefined);
  });

  test('SSH dropped mid-provisioning, or the attempt killed: the retry finishes with one account', { timeout: 180_000 }, async () => {
    for (const [step, how] of [['site', 'drop'], ['database', 'kill']] as const) {
      let failed = false;
      const panel = createNativePanel({
        db: env.t.database.db, keyFile: env.node.keyFile, publicUrl: 'http://api.test',
        beforeStep: (name, ssh) => {
          if (name !== step || failed) return;
          failed = true;
          if (how === 'drop') ssh.close();
          else throw new Error('the worker died here');
        },
      });
      const domain = domainOf();
      const req = { token: `retry-${how}`, domain, package: pkg, contactEmail: '' };
      await assert.rejects(panel.createAccount(req, noProgress), (e: unknown) => how === 'kill' || (e instanceof HostingPanelError && e.retryable));
      const before = users();
      const account = await panel.createAccount(req, noProgress);
      assert.deepEqual(users(), before, 'the retry made no second user');
      const rows = await env.t.database.db.selectFrom('hosting_node_accounts').selectAll().where('domain', '=', domain).execute();
      assert.equal(rows.length, 1);
      assert.equal(rows[0]!.state, 'active');
      assert.equal(account.ref, rows[0]!.id);
      assert.equal((await fetchSite(env.node, domain)).status, 200);
      assert.equal(env.node.mysql(`SHOW DATABASES LIKE '${account.username}\\_main';`).trim(), `${account.username}_main`);
      await panel.terminate(account.ref, 'cleanup');
    }
  });
});
