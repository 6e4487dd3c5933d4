// An app on the LXD driver (COMPUTE_DRIVER=lxd, containers, this file's LXD project), with a
// location of its own whose nodes are the test daemons and whose address pools are a random /24
// and /64 of documentation-like ranges (LXD routes each address to its instance on this host, so
// files running side by side must not share one).
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after } from 'node:test';
import type { Config } from '../../src/config.ts';
import { type TestApp, adminCall, json, startApp } from './app.ts';
import { lxd, prepareLxdProject } from './lxd.ts';
import { UBUNTU } from './servers.ts';

export interface LxdApp {
  t: TestApp;
  locationId: number;
  /** Node ids: the default daemon (unix socket) and, when asked, the second one (https) and the cluster (https, one node). */
  nodes: { first: number; second?: number; cluster?: number };
  /** The pools' prefixes, e.g. "198.18.7." and "2001:db8:1c7::". */
  v4Prefix: string;
  v6Prefix: string;
}

const netDir = path.join(process.env.LXD_TEST_DIR ?? '/var/lib/hostcloud-lxd-test', 'nets');
const claims: string[] = [];
// At import (the file's root context): an `after` registered inside a `before` would run right after it.
after(() => {
  for (const c of claims) fs.rmSync(c, { force: true });
});

/**
 * A /24 (and /64) number no other test file running now holds: LXD routes each address to its
 * instance on this host, so two files must never hand out one address. Claimed by creating a
 * file exclusively; released when the file ends (scripts/lxd-setup.sh clears stale claims).
 */
function claimNet(): number {
  fs.mkdirSync(netDir, { recursive: true });
  for (let tries = 0; tries < 1000; tries++) {
    const n = randomInt(0, 510);
    const claim = path.join(netDir, String(n));
    try {
      fs.closeSync(fs.openSync(claim, 'wx'));
    } catch {
      continue;
    }
    claims.push(claim);
    return n;
  }
  throw new Error(`no free test network under ${netDir}`);
}

export async function startLxdApp(opts: { second?: boolean; cluster?: boolean; v4Size?: number; config?: Partial<Config> } = {}): Promise<LxdApp> {
  const env = lxd!;
  await prepareLxdProject({ cluster: opts.cluster });
  const t = await startApp({
    worker: 'embedded', computeDriver: 'lxd', lxdProject: env.project, lxdInstanceType: 'container', lxdStoragePool: 'default',
    lxdClientCert: env.certFile, lxdClientKey: env.keyFile, ...opts.config,
  });
  const n = claimNet();
  const v4Net = `198.${18 + (n >> 8)}.${n & 255}.0`;
  const v4Prefix = v4Net.slice(0, -1);
  const v6Prefix = `2001:db8:${(0x1000 + n).toString(16)}::`;
  const code = `lxd-${n}`;
  const loc = await adminCall(t, 'POST', '/admin/v1/locations', { name: `LXD ${n}`, code, country: 'DE', provider: 'primary' });
  assert.equal(loc.statusCode, 201, loc.body);
  const locationId = json(loc).data.id as number;
  // A /24 has 253 usable addresses besides the gateway; a smaller pool for capacity tests.
  const v4Cidr = opts.v4Size ? `${v4Net}/${32 - Math.ceil(Math.log2(opts.v4Size + 3))}` : `${v4Net}/24`;
  for (const pool of [{ version: 4, cidr: v4Cidr, gateway: `${v4Prefix}1` }, { version: 6, cidr: `${v6Prefix}/64`, gateway: `${v6Prefix}1` }]) {
    const p = await adminCall(t, 'POST', `/admin/v1/locations/${locationId}/ip-pools`, pool);
    assert.equal(p.statusCode, 201, p.body);
  }
  const first = await adminCall(t, 'POST', '/admin/v1/nodes', { location_id: locationId, name: `${code}-a`, endpoint: env.first });
  assert.equal(first.statusCode, 201, first.body);
  const nodes: LxdApp['nodes'] = { first: json(first).data.id };
  if (opts.second) {
    const second = await adminCall(t, 'POST', '/admin/v1/nodes', { location_id: locationId, name: `${code}-b`, endpoint: env.second });
    assert.equal(second.statusCode, 201, second.body);
    nodes.second = json(second).data.id;
  }
  if (opts.cluster) {
    // The whole cluster is one node, added by its address like any https server.
    const cluster = await adminCall(t, 'POST', '/admin/v1/nodes', { location_id: locationId, name: `${code}-cluster`, endpoint: env.cluster!.endpoint });
    assert.equal(cluster.statusCode, 201, cluster.body);
    nodes.cluster = json(cluster).data.id;
  }
  const os = await adminCall(t, 'PATCH', `/admin/v1/operating-systems/${UBUNTU}`, { image: env.image });
  assert.equal(os.statusCode, 200, os.body);
  return { t, locationId, nodes, v4Prefix, v6Prefix };
}
