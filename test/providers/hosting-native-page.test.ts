// The hosting page's API on a real hosting node (this machine: sshd, nginx, PHP-FPM, MariaDB, as
// test/helpers/hosting-node.ts starts them), through the login link's page session as a browser
// would use it: the site shows the node's real paths and SFTP port; a new SFTP password logs in
// over SFTP (and the previous one no longer does); a database created from the page takes its
// password, a reset one takes only the new one, a dropped one is gone from MariaDB.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type Customer, call, createCustomer, json, waitForOperation } from '../helpers/app.ts';
import { hostingSkip } from '../helpers/hosting-node.ts';
import { type NativeHostingApp, fetchSite, sftpLogin, sftpWrite, startNativeHosting } from '../helpers/hosting-native.ts';
import { BUSINESS, orderHosting } from '../helpers/hosting.ts';
import { PanelClient } from '../helpers/panel.ts';

let env: NativeHostingApp;
let c: Customer;

const phpConnect = (db: string, password: string) => `<?php mysqli_report(MYSQLI_REPORT_OFF);
$m = @new mysqli("localhost", ${JSON.stringify(db)}, ${JSON.stringify(password)}, ${JSON.stringify(db)});
if ($m->connect_errno) { echo "refused"; exit; }
$m->query("CREATE TABLE IF NOT EXISTS t (id int)"); $m->query("INSERT INTO t VALUES (7)");
echo "rows=", $m->query("SELECT COUNT(*) FROM t")->fetch_row()[0];`;

describe('the hosting page on a native node', { skip: hostingSkip, timeout: 600_000 }, () => {
  before(async () => {
    env = await startNativeHosting();
    c = await createCustomer(env.t, { deposit: '200.00' });
  });

  test('SFTP password and databases from the page work on the node', { timeout: 300_000 }, async () => {
    const domain = `p${Math.random().toString(36).slice(2, 10)}.example.com`;
    const created = await orderHosting(env.t, c, { domain, package_id: BUSINESS });
    const op = await waitForOperation(env.t, c.key, created.operation.id, 120_000);
    assert.equal(op.status, 'completed', `provisioning failed: ${op.detail}`);
    const user = (await env.t.database.db.selectFrom('web_hosting').select('username').where('id', '=', created.id).executeTakeFirstOrThrow()).username!;

    // The login link opens the page's session, as in a browser.
    const link = new URL(json(await call(env.t.app, 'GET', `/v2/web-hosting/${created.id}/login`, { key: c.key })).data.login_url);
    const b = new PanelClient(env.t);
    assert.equal((await b.request('GET', link.pathname + link.search)).statusCode, 302);
    const ps = await b.request('GET', `/panel/api/hosting-page/${created.id}`);
    assert.equal(ps.statusCode, 200, ps.body);
    b.csrf = json(ps).data.csrf_token;
    const page = (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => b.request(method, `/v2/web-hosting/${created.id}${path}`, body);

    const siteRes = await page('GET', '/site');
    assert.equal(siteRes.statusCode, 200, siteRes.body);
    const site = json(siteRes).data;
    assert.equal(site.document_root, `${env.node.config.hosting_root}/${user}/public_html`);
    assert.deepEqual(site.sftp, { host: '127.0.0.1', port: env.node.sshPort, username: user });
    assert.equal(site.site_url, `http://${domain}:${env.node.httpPort}/`);
    assert.deepEqual(site.databases.map((d: { name: string }) => d.name), [`${user}_main`]);
    assert.equal(site.database_limit, 10);

    // A new SFTP password logs in; after another reset, only the newest does.
    const first = json(await page('POST', '/sftp-password', {})).data.password as string;
    const s = await sftpLogin(env.node, user, first);
    try {
      await sftpWrite(s.sftp, 'public_html/hello.txt', 'hello from sftp');
    } finally {
      s.close();
    }
    assert.equal((await fetchSite(env.node, domain, '/hello.txt')).body, 'hello from sftp');
    const second = json(await page('POST', '/sftp-password', {})).data.password as string;
    assert.notEqual(second, first);
    await assert.rejects(sftpLogin(env.node, user, first), 'the previous password is refused');
    const upload = async (file: string, content: string) => {
      const c2 = await sftpLogin(env.node, user, second);
      try {
        await sftpWrite(c2.sftp, `public_html/${file}`, content);
      } finally {
        c2.close();
      }
    };

    // A database made from the page: its password connects.
    const made = await page('POST', '/databases', { name: 'shop' });
    assert.equal(made.statusCode, 200, made.body);
    const db = json(made).data;
    assert.equal(db.name, `${user}_shop`);
    await upload('db.php', phpConnect(db.name, db.password));
    assert.equal((await fetchSite(env.node, domain, '/db.php')).body.trim(), 'rows=1');
    assert.equal(env.node.mysql(`SELECT COUNT(*) FROM \`${db.name}\`.t;`).trim(), '1');
    const listed = json(await page('GET', '/site')).data.databases.map((d: { name: string }) => d.name);
    assert.deepEqual(listed, [`${user}_main`, `${user}_shop`]);

    // Its password reset: the old one is refused, the new one connects.
    const reset = json(await page('POST', `/databases/${db.name}/password`, {})).data.password as string;
    await upload('old.php', phpConnect(db.name, db.password));
    assert.equal((await fetchSite(env.node, domain, '/old.php')).body.trim(), 'refused');
    await upload('new.php', phpConnect(db.name, reset));
    assert.equal((await fetchSite(env.node, domain, '/new.php')).body.trim(), 'rows=2');

    // Dropped: the database and its user are gone from MariaDB.
    const dropped = await page('DELETE', `/databases/${db.name}`);
    assert.equal(dropped.statusCode, 200, dropped.body);
    assert.equal(env.node.mysql(`SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = '${db.name}';`).trim(), '0');
    assert.equal(env.node.mysql(`SELECT COUNT(*) FROM mysql.user WHERE User = '${db.name}';`).trim(), '0');
    assert.equal((await page('DELETE', `/databases/${db.name}`)).statusCode, 404);

    // Cancelled, the account is removed from the node (its main database with it).
    const cancelled = await call(env.t.app, 'POST', `/v2/web-hosting/${created.id}/cancel`, { key: c.key, body: {} });
    assert.equal(cancelled.statusCode, 200, cancelled.body);
    assert.equal((await waitForOperation(env.t, c.key, json(cancelled).data.operation.id, 120_000)).status, 'completed');
    assert.equal(env.node.mysql(`SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name LIKE '${user}\\_%';`).trim(), '0');
  });
});
