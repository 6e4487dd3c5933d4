// Ten web-hosting orders at once on the native driver (this machine as the hosting node:
// test/helpers/hosting-node.ts): ten working sites, and nginx's configuration valid at every
// moment while they are made (each account's change is tested before its reload, under a lock).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { type Customer, createCustomer, waitForOperation } from '../helpers/app.ts';
import { hostingSkip } from '../helpers/hosting-node.ts';
import { type NativeHostingApp, fetchSite, startNativeHosting } from '../helpers/hosting-native.ts';
import { orderHosting } from '../helpers/hosting.ts';

let env: NativeHostingApp;
let c: Customer;
const domainOf = () => `p${Math.random().toString(36).slice(2, 10)}.example.org`;

describe('native hosting driver: parallel orders', { skip: hostingSkip, timeout: 600_000 }, () => {
  before(async () => {
    env = await startNativeHosting();
    c = await createCustomer(env.t, { deposit: '500.00' });
  });

  test('ten orders at once → ten working sites; nginx\'s configuration valid throughout', { timeout: 400_000 }, async () => {
    let watching = true;
    let broken = 0;
    const watcher = (async () => {
      while (watching) {
        if (!env.node.nginxOk()) broken++;
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    try {
      const created = await Promise.all(Array.from({ length: 10 }, () => orderHosting(env.t, c, { domain: domainOf() })));
      const ops = await Promise.all(created.map((h) => waitForOperation(env.t, c.key, h.operation.id, 300_000)));
      assert.deepEqual(ops.map((o) => o.status), Array(10).fill('completed'), ops.map((o) => o.detail).join('\n'));
      for (const h of created) {
        const page = await fetchSite(env.node, h.domain);
        assert.equal(page.status, 200);
        assert.ok(page.body.includes(h.domain));
      }
    } finally {
      watching = false;
      await watcher;
    }
    assert.equal(broken, 0);
    assert.ok(env.node.nginxOk());
  });
});
