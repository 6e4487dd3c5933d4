// The placement policy on nodes already read: most free RAM, then most free vCPUs, then the lowest
// id; only active nodes with room for all three; a vendor and an excluded node for migrations.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fits, pickNode } from '../../src/core/nodes/placement.ts';
import type { Node } from '../../src/db/schema.ts';

const node = (id: number, o: Partial<Node> = {}): Node => ({
  id, location_id: 1, name: `n${id}`, cpu_vendor: 'intel', cpu_cores: 16, ram_mb: 16384, storage_gb: 500, status: 'active',
  used_cpu: 0, used_ram_mb: 0, used_storage_gb: 0, created_at: new Date(0), updated_at: new Date(0), endpoint: null, fingerprint: null, ...o,
});
const small = { cpuCores: 1, ramMb: 1024, storageGb: 25 };

test('most free RAM wins, whatever the order the nodes come in', () => {
  const nodes = [node(1, { used_ram_mb: 8192 }), node(2, { used_ram_mb: 1024 }), node(3, { used_ram_mb: 4096 })];
  assert.equal(pickNode(nodes, small)?.id, 2);
  assert.equal(pickNode([...nodes].reverse(), small)?.id, 2);
});

test('a RAM tie goes to the most free vCPUs, then to the lowest id', () => {
  assert.equal(pickNode([node(1, { used_cpu: 8 }), node(2, { used_cpu: 2 })], small)?.id, 2);
  assert.equal(pickNode([node(5), node(3), node(4)], small)?.id, 3);
});

test('a node without room in any one of vCPU, RAM and disk is passed over; none with room → undefined', () => {
  const nodes = [node(1, { used_cpu: 16 }), node(2, { used_storage_gb: 490 }), node(3, { used_ram_mb: 15360 })];
  assert.equal(pickNode(nodes, small)?.id, 3, 'exactly 1 GB free is room for 1 GB');
  assert.equal(pickNode(nodes, { ...small, ramMb: 2048 }), undefined);
  assert.equal(fits(node(1, { used_storage_gb: 475 }), small), true);
  assert.equal(fits(node(1, { used_storage_gb: 476 }), small), false);
});

test('draining and disabled nodes take nothing; a migration names a vendor and leaves its source out', () => {
  assert.equal(pickNode([node(1, { status: 'draining' }), node(2, { status: 'disabled', used_ram_mb: 0 }), node(3, { used_ram_mb: 9000 })], small)?.id, 3);
  const nodes = [node(1), node(2, { cpu_vendor: 'amd' }), node(3, { used_ram_mb: 2048 })];
  assert.equal(pickNode(nodes, small, { exclude: 1, vendor: 'intel' })?.id, 3);
  assert.equal(pickNode(nodes, small, { exclude: 1 })?.id, 2);
  assert.equal(pickNode([node(1), node(2, { cpu_vendor: 'amd' })], small, { exclude: 1, vendor: 'intel' }), undefined);
});
