// A hosting node that cannot be reached, answers with another host key, or whose nginx
// configuration fails its test, on the native driver (this machine as the node:
// test/helpers/hosting-node.ts): an unreachable node's order is retried, then fails with its
// charge refunded and nothing made on the node; a changed host key is refused with an error naming
// both keys; an nginx test failure fails that order (refunded, nothing of it left) while the other
// sites keep serving.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { before, describe, test } from 'node:test';
import { type Customer, adminCall, call, createCustomer, json, waitForOperation } from '../helpers/app.ts';
import { assertLedger } from '../helpers/billing.ts';
import { hostingSkip } from '../helpers/hosting-node.ts';
import { type NativeHostingApp, eventually, fetchSite, startNativeHosting } from '../helpers/hosting-native.ts';
import { orderHosting } from '../helpers/hosting.ts';

let env: NativeHostingApp;
let c: Customer;
const domainOf = () => `u${Math.random().toString(36).slice(2, 10)}.example.net`;
const users = () => fs.readFileSync('/etc/passwd', 'utf8').split('\n').map((l) => l.split(':')[0]!).filter((u) => u.startsWith(env.node.prefix));

describe('native hosting driver: unreachable node, changed host key', { skip: hostingSkip, timeout: 600_000 }, () => {
  before(async () => {
    // Two retries, a second apart: the failure path within the file's time.
    env = await startNativeHosting({ config: { jobRetryLimit: 2 } });
    c = await createCustomer(env.t, { deposit: '500.00' });
  });

  test('nginx -t failing: that order fails and is refunded, nothing of it left; the other sites keep serving', { timeout: 180_000 }, async () => {
    const first = await orderHosting(env.t, c, { domain: domainOf() });
    assert.equal((await waitForOperation(env.t, c.key, first.operation.id, 90_000)).status, 'completed');
    const balance = await assertLedger(env.t, c.accountId);
    const broken = `${env.node.config.nginx_sites_dir}/zz-broken.conf`;
    fs.writeFileSync(broken, 'this is not nginx;\n');
    try {
      const domain = domainOf();
      const second = await orderHosting(env.t, c, { domain });
      const op = await waitForOperation(env.t, c.key, second.operation.id, 90_000);
      assert.equal(op.status, 'failed');
      assert.match(op.detail, /nginx -t refused/);
      assert.equal(await assertLedger(env.t, c.accountId), balance);
      assert.equal((await fetchSite(env.node, first.domain)).status, 200);
      await eventually('the failed order\'s account removed', async () => {
        const row = await env.t.database.db.selectFrom('hosting_node_accounts').select('state').where('domain', '=', domain).executeTakeFirst();
        return row?.state === 'terminated';
      }, 60_000);
    } finally {
      fs.rmSync(broken, { force: true });
    }
    assert.ok(env.node.nginxOk());
  });

  test('node unreachable: the order is retried, then fails with its charge refunded and nothing on the node', { timeout: 180_000 }, async () => {
    const balance = await assertLedger(env.t, c.accountId);
    const before = users();
    await env.node.stopSshd();
    try {
      const order = await orderHosting(env.t, c, { domain: domainOf() });
      const op = await waitForOperation(env.t, c.key, order.operation.id, 150_000);
      assert.equal(op.status, 'failed');
      assert.match(op.detail, /unreachable/);
      assert.equal(await assertLedger(env.t, c.accountId), balance);
      const h = json(await call(env.t.app, 'GET', `/v2/web-hosting/${order.id}`, { key: c.key })).data;
      assert.equal(h.status, 'cancelled');
    } finally {
      await env.node.startSshd();
    }
    assert.deepEqual(users(), before);
  });

  test('a changed host key is refused with a clear error: check 502, orders fail and are refunded', { timeout: 180_000 }, async () => {
    await env.node.stopSshd();
    await env.node.startSshd({ newHostKey: true });
    const check = await adminCall(env.t, 'POST', `/admin/v1/hosting-nodes/${env.nodeId}/check`);
    assert.equal(check.statusCode, 502, check.body);
    assert.match(json(check).error.message, /host key changed \(pinned SHA256:.+, offered SHA256:.+\)/);
    const balance = await assertLedger(env.t, c.accountId);
    const order = await orderHosting(env.t, c, { domain: domainOf() });
    const op = await waitForOperation(env.t, c.key, order.operation.id, 90_000);
    assert.equal(op.status, 'failed');
    assert.match(op.detail, /host key changed/);
    assert.equal(await assertLedger(env.t, c.accountId), balance);
  });
});
