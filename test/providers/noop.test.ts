// The sandbox's provider answers every call at once, from documentation address ranges, and never fails.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import ipaddr from 'ipaddr.js';
import { noopCompute } from '../../src/providers/compute/noop.ts';

const inRange = (address: string, cidr: string) => ipaddr.parse(address).match(ipaddr.parseCIDR(cidr));

test('noopCompute: plausible answers for every call, documentation addresses only', async () => {
  const progress = async () => { throw new Error('the no-op provider reports no progress'); };
  const m = await noopCompute.create({
    token: 't', hostname: 'h.example.com', locationId: 1, osSlug: 'debian-12', password: 'x', fromSnapshotRef: null,
    cpuCores: 1, ramMb: 1024, storageGb: 10, extraIpv4: 2, extraIpv6: 1, ipv6: true,
  }, progress);
  assert.ok(inRange(m.network.ipv4!.address, '192.0.2.0/24'));
  assert.ok(inRange(m.network.ipv6!.address, '2001:db8::/32'));
  assert.deepEqual(m.extraIps.map((e) => e.version), [4, 4, 6]);
  for (const e of m.extraIps) assert.ok(inRange(e.address, e.version === 4 ? '192.0.2.0/24' : '2001:db8::/32'));

  assert.equal(await noopCompute.power(m.ref, 'stop', 't', progress), 'stopped');
  assert.equal(await noopCompute.power(m.ref, 'reboot', 't', progress), 'running');
  await noopCompute.resetPassword(m.ref, 'x', 't', progress);
  await noopCompute.reinstall(m.ref, 'debian-12', null, 't', progress);
  await noopCompute.resize(m.ref, { cpuCores: 2, ramMb: 2048, storageGb: 20 }, 't', progress);
  const snap = await noopCompute.snapshot(m.ref, 't', progress);
  assert.ok(snap.sizeGb > 0);
  await noopCompute.restoreSnapshot(m.ref, snap.ref, 't', progress);
  await noopCompute.deleteSnapshot(snap.ref);
  assert.equal((await noopCompute.status(m.ref, 1)).power, 'running');
  assert.ok(inRange((await noopCompute.attachIp(m.ref, 6, 't')).address, '2001:db8::/32'));
  await noopCompute.releaseIp(m.ref, '192.0.2.9');
  await noopCompute.destroy(m.ref, 't');
  assert.equal((await noopCompute.firewallRules(m.ref)).at(-1)?.action, 'drop');
  const c = await noopCompute.openConsole(m.ref, 60);
  assert.ok(c.ticket.length >= 32 && c.expiresAt.getTime() > Date.now());
  assert.notEqual((await noopCompute.openConsole(m.ref, 60)).ticket, c.ticket);
  assert.equal(await noopCompute.redeemConsole(c.ticket), true);
  assert.ok((await noopCompute.metrics(m.ref)).cpu_pct >= 0);
  assert.equal((await noopCompute.traffic(m.ref, '2030-01')).month, '2030-01');

  const no6 = await noopCompute.create({
    token: 'u', hostname: 'i.example.com', locationId: 1, osSlug: null, password: 'x', fromSnapshotRef: null,
    cpuCores: 1, ramMb: 1024, storageGb: 10, extraIpv4: 0, extraIpv6: 0, ipv6: false,
  }, progress);
  assert.equal(no6.network.ipv6, null);
});
