// VDC fixtures: pools set through the admin API, VMs created (and provisioned by the file's embedded
// worker) through v2, and the proof that a pool's `used` is the sum over its live VMs.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { type Customer, type TestApp, adminCall, call, json, waitForOperation } from './app.ts';
import { FRA, type Json, PASSWORD, UBUNTU } from './servers.ts';

export const BIG_POOL = { cpu: 64, ram_mb: 262_144, storage_gb: 4000, ipv4: 32, ipv6: 32, bandwidth_mbit: 1000 };

export async function setPool(t: TestApp, accountId: string, body: Record<string, unknown>): Promise<Json> {
  const res = await adminCall(t, 'PUT', `/admin/v1/accounts/${accountId}/vdc-pool`, body);
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data;
}

export function vmBody(overrides: Record<string, unknown> = {}) {
  return {
    name: `vm-${randomBytes(4).toString('hex')}.example.com`, password: PASSWORD,
    cpu_cores: 1, ram_mb: 1024, storage_gb: 10, location_id: FRA, os_version_id: UBUNTU, ...overrides,
  };
}

/** POST /v2/vdc/vms; asserts 201 and returns `data` (VM + operation). */
export async function createVm(t: TestApp, c: Customer, overrides: Record<string, unknown> = {}): Promise<Json> {
  const res = await call(t.app, 'POST', '/v2/vdc/vms', { key: c.key, body: vmBody(overrides) });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data;
}

/** A VM the worker has provisioned (active), as its detail shows it. */
export async function activeVm(t: TestApp, c: Customer, overrides: Record<string, unknown> = {}): Promise<Json> {
  const created = await createVm(t, c, overrides);
  const op = await waitForOperation(t, c.key, created.operation.id);
  assert.equal(op.status, 'completed', `provisioning failed: ${op.detail}`);
  const res = await call(t.app, 'GET', `/v2/vdc/vms/${created.id}`, { key: c.key });
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data;
}

export function vmAction(t: TestApp, key: string, id: string, verb: string, body?: unknown) {
  return call(t.app, 'POST', `/v2/vdc/vms/${id}/actions/${verb}`, { key, ...(body === undefined ? {} : { body }) });
}

export async function resources(t: TestApp, key: string): Promise<Json> {
  const res = await call(t.app, 'GET', '/v2/vdc/resources', { key });
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data;
}

export function vmRow(t: TestApp, id: string) {
  return t.database.db.selectFrom('vdc_vms').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/**
 * The pool's counters are exactly the sum of what its live VMs hold, never more than the total;
 * with no operation running on them, what each holds is its size (and 1 IPv4, 1 IPv6 per IPv6 VM),
 * and a failed VM holds nothing. Returns the used counters.
 */
export async function assertPoolConsistent(t: TestApp, accountId: string, opts: { idle?: boolean } = { idle: true }): Promise<Record<string, number>> {
  const { rows: [row] } = await sql<Record<string, number | null>>`
    SELECT p.cpu_used, p.ram_mb_used, p.storage_gb_used, p.ipv4_used, p.ipv6_used,
           p.cpu_total, p.ram_mb_total, p.storage_gb_total, p.ipv4_total, p.ipv6_total,
           (SELECT coalesce(sum(held_cpu), 0)::int FROM vdc_vms v WHERE v.account_id = p.account_id AND v.deleted_at IS NULL) AS held_cpu,
           (SELECT coalesce(sum(held_ram_mb), 0)::int FROM vdc_vms v WHERE v.account_id = p.account_id AND v.deleted_at IS NULL) AS held_ram_mb,
           (SELECT coalesce(sum(held_storage_gb), 0)::int FROM vdc_vms v WHERE v.account_id = p.account_id AND v.deleted_at IS NULL) AS held_storage_gb,
           (SELECT coalesce(sum(held_ipv4), 0)::int FROM vdc_vms v WHERE v.account_id = p.account_id AND v.deleted_at IS NULL) AS held_ipv4,
           (SELECT coalesce(sum(held_ipv6), 0)::int FROM vdc_vms v WHERE v.account_id = p.account_id AND v.deleted_at IS NULL) AS held_ipv6,
           (SELECT coalesce(sum(cpu_cores), 0)::int FROM vdc_vms v WHERE v.account_id = p.account_id AND v.deleted_at IS NULL AND v.status <> 'failed') AS live_cpu,
           (SELECT coalesce(sum(ram_mb), 0)::int FROM vdc_vms v WHERE v.account_id = p.account_id AND v.deleted_at IS NULL AND v.status <> 'failed') AS live_ram_mb,
           (SELECT coalesce(sum(storage_gb), 0)::int FROM vdc_vms v WHERE v.account_id = p.account_id AND v.deleted_at IS NULL AND v.status <> 'failed') AS live_storage_gb,
           (SELECT count(*)::int FROM vdc_vms v WHERE v.account_id = p.account_id AND v.deleted_at IS NULL AND v.status <> 'failed') AS live_vms
      FROM vdc_pools p WHERE p.account_id = ${accountId}`.execute(t.database.db);
  assert.ok(row, 'the account has a pool');
  const r = row as Record<string, number>;
  for (const b of ['cpu', 'ram_mb', 'storage_gb', 'ipv4', 'ipv6']) {
    assert.equal(r[`${b}_used`], r[`held_${b}`], `${b}: used = Σ held over live VMs`);
    assert.ok(r[`${b}_used`]! <= r[`${b}_total`]!, `${b}: used ≤ total`);
  }
  if (opts.idle !== false) {
    assert.equal(r.cpu_used, r.live_cpu, 'cpu used = Σ vCPUs of live VMs');
    assert.equal(r.ram_mb_used, r.live_ram_mb, 'ram used = Σ RAM of live VMs');
    assert.equal(r.storage_gb_used, r.live_storage_gb, 'storage used = Σ disk of live VMs');
    assert.equal(r.ipv4_used, r.live_vms, 'one IPv4 per live VM');
  }
  // What the customer reads says the same.
  return { cpu: r.cpu_used!, ram_mb: r.ram_mb_used!, storage_gb: r.storage_gb_used!, ipv4: r.ipv4_used!, ipv6: r.ipv6_used! };
}
