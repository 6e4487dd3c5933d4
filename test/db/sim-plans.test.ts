// The simulated platform's create (sim_create_vm, hc_lease_addresses) runs under its location's
// address-pool locks, with plans PL/pgSQL keeps for the connection's life. Planned on nearly empty
// tables (a fresh database, or autovacuum off) they were sequential scans, and stayed so as the
// tables grew: every create read every lease and machine with the pools locked (migration 0020).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { startApp } from '../helpers/app.ts';
import { connect } from '../../src/db/connection.ts';
import { createVm } from '../../src/db/queries/sim.ts';

const CREATES = 40;

test('creates on a platform analyzed while empty read leases and machines by index, on the worker\'s generic plans', async () => {
  const t = await startApp();
  const worker = connect(t.databaseUrl, { max: 1, genericPlans: true });
  try {
    await sql`ANALYZE sim_vms, ip_addresses, ip_pools`.execute(worker.db);
    const scans = await worker.db.transaction().execute(async (trx) => {
      for (let i = 0; i < CREATES; i++) {
        const made = await createVm(trx, {
          id: `vm_plans_${i}`, request_token: `plans-${i}`, location_id: 1, hostname: `p${i}.example.com`,
          power: 'provisioning', cpu_cores: 1, ram_mb: 1024, storage_gb: 25, os_slug: null,
        }, [], { v4: 1, v6: 1, primaryV6: true });
        assert.ok('vm' in made && made.vm !== undefined, JSON.stringify(made));
      }
      // This transaction's own counters (pg_stat_xact_*): exact, not waiting for a stats flush.
      const r = await sql<{ relname: string; seq_scan: string; idx_scan: string; idx_tup_fetch: string }>`
        SELECT relname, seq_scan::text, coalesce(idx_scan, 0)::text AS idx_scan, coalesce(idx_tup_fetch, 0)::text AS idx_tup_fetch
        FROM pg_stat_xact_user_tables WHERE relname IN ('sim_vms', 'ip_addresses') ORDER BY relname`.execute(trx);
      return Object.fromEntries(r.rows.map((row) => [row.relname, { seq: Number(row.seq_scan), idx: Number(row.idx_scan), fetched: Number(row.idx_tup_fetch) }]));
    });
    assert.deepEqual({ leases: scans.ip_addresses?.seq, vms: scans.sim_vms?.seq }, { leases: 0, vms: 0 }, JSON.stringify(scans));
    assert.ok(scans.ip_addresses!.idx >= CREATES * 2, `lease lookups by index: ${JSON.stringify(scans)}`);
    // …and by the right index: a walk of the primary key in address order that filters for free
    // ones would also avoid a sequential scan while reading every lease made so far.
    assert.ok(scans.ip_addresses!.fetched <= CREATES * 6, `lease rows read by index: ${JSON.stringify(scans)}`);
  } finally {
    await worker.close();
  }
});
