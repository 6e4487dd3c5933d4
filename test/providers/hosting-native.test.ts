// The native hosting driver on this machine as its hosting node (real sshd, nginx, PHP-FPM and
// MariaDB, started by test/helpers/hosting-node.ts): an order makes a site that serves what its
// owner uploads over SFTP, as its own user; its database works; accounts cannot read each other's
// files; suspend, resume and cancel do what they say, on the node.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { before, describe, test } from 'node:test';
import { type Customer, call, createCustomer, json, waitForOperation } from '../helpers/app.ts';
import { hostingSkip } from '../helpers/hosting-node.ts';
import { type NativeHostingApp, fetchSite, sftpList, sftpLogin, sftpRead, sftpWrite, startNativeHosting } from '../helpers/hosting-native.ts';
import { orderHosting } from '../helpers/hosting.ts';

const INFO_PHP = '<?php echo "user=", posix_getpwuid(posix_geteuid())["name"], "\\n";';

let env: NativeHostingApp;
let c: Customer;

interface Site { id: string; domain: string; ref: string; user: string; password: string }

const domainOf = () => `w${Math.random().toString(36).slice(2, 10)}.example.com`;

async function provisioned(domain = domainOf()): Promise<Site> {
  const created = await orderHosting(env.t, c, { domain });
  const op = await waitForOperation(env.t, c.key, created.operation.id, 90_000);
  assert.equal(op.status, 'completed', `provisioning failed: ${op.detail}`);
  const row = await env.t.database.db.selectFrom('web_hosting').select(['panel_ref', 'username', 'status']).where('id', '=', created.id).executeTakeFirstOrThrow();
  assert.equal(row.status, 'active');
  return { id: created.id, domain, ref: row.panel_ref!, user: row.username!, password: await env.panel.resetSftpPassword(row.panel_ref!) };
}

async function upload(site: Site, file: string, content: string): Promise<void> {
  const s = await sftpLogin(env.node, site.user, site.password);
  try {
    await sftpWrite(s.sftp, `public_html/${file}`, content);
  } finally {
    s.close();
  }
}

function assertGone(user: string): void {
  const cfg = env.node.config;
  assert.ok(!fs.readFileSync('/etc/passwd', 'utf8').split('\n').some((l) => l.startsWith(`${user}:`)), `user ${user} is still there`);
  for (const f of [`${cfg.hosting_root}/${user}`, `${cfg.nginx_sites_dir}/hostcloud-${user}.conf`, `${cfg.php_pool_dir}/hostcloud-${user}.conf`]) assert.ok(!fs.existsSync(f), `${f} is still there`);
  assert.equal(env.node.mysql(`SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name LIKE '${user}\\_%';`).trim(), '0');
  assert.equal(env.node.mysql(`SELECT COUNT(*) FROM mysql.user WHERE User LIKE '${user}\\_%';`).trim(), '0');
  assert.ok(env.node.nginxOk());
}

describe('native hosting driver', { skip: hostingSkip, timeout: 600_000 }, () => {
  let a: Site;
  before(async () => {
    env = await startNativeHosting();
    c = await createCustomer(env.t, { deposit: '500.00' });
  });

  test('an order serves a default page, then the PHP its owner uploads over SFTP, as its own user', { timeout: 180_000 }, async () => {
    a = await provisioned();
    assert.ok(a.user.startsWith(env.node.prefix));
    const index = await fetchSite(env.node, a.domain);
    assert.equal(index.status, 200);
    assert.ok(index.body.includes(a.domain));
    const s = await sftpLogin(env.node, a.user, a.password);
    try {
      await sftpWrite(s.sftp, 'public_html/info.php', INFO_PHP);
      // The chroot: the account sees its own home as /, nothing above it.
      assert.deepEqual(await sftpList(s.sftp, '/'), ['public_html', 'tmp']);
      assert.deepEqual(await sftpList(s.sftp, '/..'), ['public_html', 'tmp']);
    } finally {
      s.close();
    }
    const info = await fetchSite(env.node, a.domain, '/info.php');
    assert.equal(info.status, 200, info.body);
    assert.equal(info.body.trim(), `user=${a.user}`);
    assert.equal((await fetchSite(env.node, `www.${a.domain}`, '/info.php')).body.trim(), `user=${a.user}`);
    const detail = json(await call(env.t.app, 'GET', `/v2/web-hosting/${a.id}`, { key: c.key }));
    assert.equal(typeof detail.data.disk_usage.used_mb, 'number', JSON.stringify(detail.data));
  });

  test('the database credentials connect and create a table', { timeout: 120_000 }, async () => {
    const db = `${a.user}_main`;
    const dbPassword = await env.panel.resetDatabasePassword(a.ref, db);
    await upload(a, 'db.php', `<?php $m = new mysqli("localhost", ${JSON.stringify(db)}, ${JSON.stringify(dbPassword)}, ${JSON.stringify(db)});
$m->query("CREATE TABLE IF NOT EXISTS t (id int)"); $m->query("INSERT INTO t VALUES (42)");
echo $m->query("SELECT id FROM t")->fetch_row()[0];`);
    assert.equal((await fetchSite(env.node, a.domain, '/db.php')).body.trim(), '42');
    assert.equal(env.node.mysql(`SELECT COUNT(*) FROM \`${db}\`.t;`).trim(), '1');
    // The old password no longer works after a reset; a wrong one never did.
    await upload(a, 'bad.php', `<?php mysqli_report(MYSQLI_REPORT_OFF); $m = @new mysqli("localhost", ${JSON.stringify(db)}, "wrong", ${JSON.stringify(db)}); echo $m->connect_errno ? "refused" : "open";`);
    assert.equal((await fetchSite(env.node, a.domain, '/bad.php')).body.trim(), 'refused');
  });

  test('a second account cannot read the first\'s files, through PHP or SFTP', { timeout: 180_000 }, async () => {
    const b = await provisioned();
    const target = `${env.node.config.hosting_root}/${a.user}/public_html/info.php`;
    await upload(b, 'peek.php', `<?php echo @file_get_contents(${JSON.stringify(target)}) === false ? "blocked" : "read", " ", ini_get("open_basedir");`);
    const peek = await fetchSite(env.node, b.domain, '/peek.php');
    assert.match(peek.body, /^blocked /, peek.body);
    assert.ok(peek.body.includes(`${b.user}/`));
    const s = await sftpLogin(env.node, b.user, b.password);
    try {
      await assert.rejects(sftpRead(s.sftp, target));
      await assert.rejects(sftpRead(s.sftp, `../${a.user}/public_html/info.php`));
    } finally {
      s.close();
    }
    // Outside the chroot too, the directory is closed to other users (mode 2750, group www-data).
    assert.equal(fs.statSync(`${env.node.config.hosting_root}/${a.user}/public_html`).mode & 0o7777, 0o2750);
  });

  test('suspend → 403 "suspended", SFTP refused, pool stopped; resume → served again', { timeout: 120_000 }, async () => {
    await env.panel.suspend(a.ref, 'test', 'suspend-1');
    const suspended = await fetchSite(env.node, a.domain, '/info.php');
    assert.equal(suspended.status, 403);
    assert.equal(suspended.body.trim(), 'suspended');
    await assert.rejects(sftpLogin(env.node, a.user, a.password));
    assert.ok(!fs.existsSync(`${env.node.config.php_pool_dir}/hostcloud-${a.user}.conf`));
    // Twice is fine.
    await env.panel.suspend(a.ref, 'test', 'suspend-2');

    await env.panel.unsuspend(a.ref, 'resume-1');
    assert.equal((await fetchSite(env.node, a.domain, '/info.php')).body.trim(), `user=${a.user}`);
    (await sftpLogin(env.node, a.user, a.password)).close();
  });

  test('cancel → user, files, server block, pool and databases gone', { timeout: 120_000 }, async () => {
    const cancel = await call(env.t.app, 'POST', `/v2/web-hosting/${a.id}/cancel`, { key: c.key, body: {} });
    assert.equal(cancel.statusCode, 200, cancel.body);
    const op = await waitForOperation(env.t, c.key, json(cancel).data.operation.id, 90_000);
    assert.equal(op.status, 'completed', op.detail);
    // nginx's default server closes the connection for a name it does not serve.
    await assert.rejects(fetchSite(env.node, a.domain, '/info.php'));
    assertGone(a.user);
  });
});
