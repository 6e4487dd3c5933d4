// Migration 0070 moves address management's tables (and the console's) out of the simulated
// platform's names. An installation that already leased addresses keeps them: the same rows, the
// same cool-down, and leasing works on afterwards through the renamed function and its callers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { connect } from '../../src/db/connection.ts';
import { dropDatabase, ensureDatabase } from '../../src/db/create-database.ts';
import { defaultFirewall } from '../../src/db/default-firewall.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import * as m0070 from '../../src/db/migrations/0070_ip_pools_out_of_sim.ts';
import { setIpCooldown } from '../../src/db/queries/ip-pools.ts';
import { type MachineReservation, reserveMachineStatement } from '../../src/db/queries/machine-reservation.ts';
import { seedDemoCatalog } from '../../src/db/seed.ts';

const OLD = String.raw`\m(sim_ip_pools|sim_ip_leases|sim_console_sessions|sim_lease_addresses)\M`;

test('0070 renames the pools, addresses and console sessions with what they hold; leasing goes on under the new names', async () => {
  const adminUrl = process.env.HC_TEST_ADMIN_URL!;
  const name = `${process.env.HC_TEST_PREFIX}_ipam_${process.pid}`;
  await ensureDatabase(adminUrl, name);
  const fresh = connect(Object.assign(new URL(adminUrl), { pathname: `/${name}` }).toString(), { max: 1 });
  const { db } = fresh;
  try {
    await migrateToLatest(db);
    await seedDemoCatalog(db);
    const { id: location } = await db.selectFrom('ip_pools').select('location_id as id').where('version', '=', 4).orderBy('id').executeTakeFirstOrThrow();
    const machine = (id: string): MachineReservation => ({
      id, token: `op_${id}`, locationId: location, hostname: `${id}.example.com`, cpuCores: 1, ramMb: 1024, storageGb: 20,
      osSlug: null, sshKeys: [], node: null, v4: 1, v6: 0, primaryV6: false, firewall: defaultFirewall(false),
    });
    const untyped = db as unknown as Kysely<unknown>;
    const ipv4Of = async (id: string) => (await sql<{ ip: string }>`SELECT host(ipv4) AS ip FROM sim_vms WHERE id = ${id}`.execute(db)).rows[0]!.ip;

    // The world as it was before 0070: a machine leased an address, gave it back, and it rests.
    await untyped.transaction().execute((trx) => m0070.down(trx));
    await sql`INSERT INTO sim_settings (name, value) VALUES ('ip_cooldown_s', '3600')`.execute(db);
    await reserveMachineStatement(machine('vm-before')).execute(db);
    const released = await ipv4Of('vm-before');
    await sql`UPDATE sim_ip_leases SET vm_id = NULL, leased_at = NULL, released_at = now() WHERE address = ${released}::inet`.execute(db);
    await sql`INSERT INTO sim_console_sessions (token, vm_id, expires_at) VALUES ('ticket-before', 'vm-before', now() + interval '5 minutes')`.execute(db);

    await untyped.transaction().execute((trx) => m0070.up(trx));

    const leftovers = await sql<{ name: string }>`
      SELECT relname AS name FROM pg_class WHERE relname ~ '^sim_(ip_|console_)'
      UNION ALL SELECT conname FROM pg_constraint WHERE conname ~ '^sim_(ip_|console_)'
      UNION ALL SELECT proname FROM pg_proc WHERE proname = 'sim_lease_addresses' OR prosrc ~ ${OLD}`.execute(db);
    assert.deepEqual(leftovers.rows, [], 'nothing is named after the old tables');
    assert.deepEqual(await db.selectFrom('ip_addresses').select(['address', 'vm_id']).execute(), [{ address: released, vm_id: null }]);
    assert.deepEqual(await db.selectFrom('ip_settings').selectAll().execute(), [{ name: 'cooldown_s', value: 3600 }]);
    assert.equal((await db.selectFrom('sim_settings').select('name').where('name', '=', 'ip_cooldown_s').execute()).length, 0);
    assert.equal((await db.selectFrom('console_sessions').select('token').executeTakeFirstOrThrow()).token, 'ticket-before');

    // The released address still rests: the next machine gets a fresh one...
    await reserveMachineStatement(machine('vm-after')).execute(db);
    assert.notEqual(await ipv4Of('vm-after'), released);
    // ...until the rest is over (a process started with IP_COOLDOWN_S=0), and then it is handed out first.
    await setIpCooldown(db, 0);
    await reserveMachineStatement(machine('vm-later')).execute(db);
    assert.equal(await ipv4Of('vm-later'), released);
    const { n } = await db.selectFrom('ip_addresses').select((eb) => eb.fn.countAll<string>().as('n')).where('vm_id', 'is not', null).executeTakeFirstOrThrow();
    assert.equal(Number(n), 2);
  } finally {
    await fresh.close();
    await dropDatabase(adminUrl, name);
  }
});
