// Migrations land in merge order, not number order: a database migrated before the domains branch
// was merged (0008 and 0009 already run, 0006 not) takes 0006 at its next start instead of refusing
// to start over a "corrupted" migration history.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Migrator, sql } from 'kysely';
import { connect } from '../../src/db/connection.ts';
import { dropDatabase, ensureDatabase } from '../../src/db/create-database.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import * as m0001 from '../../src/db/migrations/0001_initial.ts';
import * as m0002 from '../../src/db/migrations/0002_servers.ts';
import * as m0003 from '../../src/db/migrations/0003_unclaimed_jobs.ts';
import * as m0005 from '../../src/db/migrations/0005_notifications.ts';
import * as m0008 from '../../src/db/migrations/0008_vdc.ts';
import * as m0009 from '../../src/db/migrations/0009_account_extras.ts';

test('a database migrated without 0006 (later numbers already run) takes it at the next migration', async () => {
  const adminUrl = process.env.HC_TEST_ADMIN_URL!;
  const name = `${process.env.HC_TEST_PREFIX}_order_${process.pid}`;
  await ensureDatabase(adminUrl, name);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const fresh = connect(u.toString());
  try {
    const before = new Migrator({
      db: fresh.db,
      provider: {
        getMigrations: async () => ({
          '0001_initial': m0001, '0002_servers': m0002, '0003_unclaimed_jobs': m0003, '0005_notifications': m0005, '0008_vdc': m0008, '0009_account_extras': m0009,
        }),
      },
    });
    assert.equal((await before.migrateToLatest()).error, undefined);
    const ran = await migrateToLatest(fresh.db);
    assert.ok(ran.includes('0006_domains'), ran.join(', '));
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM domains`.execute(fresh.db);
    assert.equal(rows[0]!.n, 0);
    assert.deepEqual(await migrateToLatest(fresh.db), [], 'nothing left to run');
  } finally {
    await fresh.close();
    await dropDatabase(adminUrl, name);
  }
});
