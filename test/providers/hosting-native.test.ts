// The native hosting driver on this machine as its hosting node (real sshd, nginx, PHP-FPM and
// MariaDB, started by test/helpers/hosting-node.ts): an order makes a site that serves what its
// owner uploads over SFTP, as its own user; its database works; suspend, resume and cancel do
// what they say, on the node.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { type Customer, call, createCustomer, json, waitForOperation } from '../helpers/app.ts';
import { hostingSkip } from '../helpers/hosting-node.ts';
import { type NativeHostingApp, fetchSite, sftpList, sftpLogin, sftpWrite, startNativeHosting } from '../helpers/hosting-native.ts';
import { orderHosting } from '../helpers/hosting.ts';

const INFO_PHP = '<?php echo "user=", posix_getpwuid(posix_geteuid())["name"], "\\n";';

function assertGone(user: string): void {
  const c = env.node.config;
  assert.ok(!fs.readFileSync('/etc/passwd', 'utf8').split('\n').some((l) => l.startsWith(`${user}:`)), `user ${user} is still there`);
  for (const f of [`${c.hosting_root}/${user}`, `${c.nginx_sites_dir}/hostcloud-${user}.conf`, `${c.php_pool_dir}/hostcloud-${user}.conf`]) assert.ok(!fs.existsSync(f), `${f} is still there`);
  assert.equal(env.node.mysql(`SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name LIKE '${user}\\_%';`).trim(), '0');
  assert.equal(env.node.mysql(`SELECT COUNT(*) FROM mysql.user WHERE User LIKE '${user}\\_%';`).trim(), '0');
  assert.ok(env.node.nginxOk());
}

let env: NativeHostingApp;

describe('native hosting driver', { skip: hostingSkip, timeout: 300_000 }, () => {
  let c: Customer;
  before(async () => {
    env = await startNativeHosting();
    c = await createCustomer(env.t, { deposit: '500.00' });
  });
  after(() => undefined);

  const domainOf = () => `w${Math.random().toString(36).slice(2, 8)}.example.com`;

  async function provisioned(domain = domainOf()) {
    const created = await orderHosting(env.t, c, { domain });
    const op = await waitForOperation(env.t, c.key, created.operation.id, 60_000);
    assert.equal(op.status, 'completed', `provisioning failed: ${op.detail}`);
    const res = await call(env.t.app, 'GET', `/v2/web-hosting/${created.id}`, { key: c.key });
    const h = json(res).data;
    const row = await env.t.database.db.selectFrom('web_hosting').select(['panel_ref', 'username']).where('id', '=', created.id).executeTakeFirstOrThrow();
    return { id: created.id as string, domain, ref: row.panel_ref!, user: row.username!, view: h };
  }

  test('an order serves its owner\'s PHP as its own user; the database works; suspend, resume, cancel', async () => {
    const a = await provisioned();
    assert.equal(a.view.status, 'active');
    assert.ok(a.user.startsWith(env.node.prefix));
    // The default page, before anything is uploaded.
    const index = await fetchSite(env.node, a.domain);
    assert.equal(index.status, 200);
    assert.match(index.body, new RegExp(a.domain.replace(/\./g, '\\.')));

    const password = await env.panel.resetSftpPassword(a.ref);
    const s = await sftpLogin(env.node, a.user, password);
    try {
      await sftpWrite(s.sftp, 'public_html/info.php', INFO_PHP);
      assert.deepEqual(await sftpList(s.sftp, '/'), ['public_html', 'tmp']);
    } finally {
      s.close();
    }
    const info = await fetchSite(env.node, a.domain, '/info.php');
    assert.equal(info.status, 200, info.body);
    assert.equal(info.body.trim(), `user=${a.user}`);
    assert.equal((await fetchSite(env.node, `www.${a.domain}`, '/info.php')).body.trim(), `user=${a.user}`);

    // The main database: its credentials connect (from the site's PHP, as a customer's app would) and create a table.
    const db = `${a.user}_main`;
    const dbPassword = await env.panel.resetDatabasePassword(a.ref, db);
    const dbPhp = `<?php $m = new mysqli("localhost", ${JSON.stringify(db)}, ${JSON.stringify(dbPassword)}, ${JSON.stringify(db)});
$m->query("CREATE TABLE IF NOT EXISTS t (id int)"); $m->query("INSERT INTO t VALUES (42)");
echo $m->query("SELECT id FROM t")->fetch_row()[0];`;
    const s2 = await sftpLogin(env.node, a.user, password);
    await sftpWrite(s2.sftp, 'public_html/db.php', dbPhp);
    s2.close();
    assert.equal((await fetchSite(env.node, a.domain, '/db.php')).body.trim(), '42');
    assert.equal(env.node.mysql(`SELECT COUNT(*) FROM \`${db}\`.t;`).trim(), '1');

    // Disk usage is measured (this filesystem has no quotas) and shown.
    const detail = json(await call(env.t.app, 'GET', `/v2/web-hosting/${a.id}`, { key: c.key, }));
    assert.equal(typeof detail.data.disk_usage?.used_mb, 'number', JSON.stringify(detail.data));

    await env.panel.suspend(a.ref, 'test', 'suspend-1');
    const suspended = await fetchSite(env.node, a.domain, '/info.php');
    assert.equal(suspended.status, 403);
    assert.match(suspended.body, /suspended/);
    await assert.rejects(sftpLogin(env.node, a.user, password));
    assert.ok(!fs.existsSync(`${env.node.config.php_pool_dir}/hostcloud-${a.user}.conf`));

    await env.panel.unsuspend(a.ref, 'resume-1');
    assert.equal((await fetchSite(env.node, a.domain, '/info.php')).body.trim(), `user=${a.user}`);
    (await sftpLogin(env.node, a.user, password)).close();

    const cancel = await call(env.t.app, 'POST', `/v2/web-hosting/${a.id}/cancel`, { key: c.key, body: {} });
    assert.equal(cancel.statusCode, 200, cancel.body);
    const op = await waitForOperation(env.t, c.key, json(cancel).data.operation.id, 60_000);
    assert.equal(op.status, 'completed', op.detail);
    // Everything is gone: the site (nginx's default server closes the connection), user, files, pool, database.
    await assert.rejects(fetchSite(env.node, a.domain, '/info.php'));
    assertGone(a.user);
  });
});
