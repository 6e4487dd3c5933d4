// src/db/refusals.ts names the constraints whose refusal the core turns into its own answers; a
// migration that renamed one would silently turn "name taken" into a 500. Every name it lists must
// be in the schema: a constraint, a unique index, or raised under that name by one of our functions.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { NAMED_CONSTRAINTS, isCheckViolation, isUniqueViolation, poolRefusal } from '../../src/db/refusals.ts';
import { type TestApp, createCustomer, startApp } from '../helpers/app.ts';
import { createVm, setPool } from '../helpers/vdc.ts';

let t: TestApp;
before(async () => { t = await startApp(); });

test('every constraint the core tells apart exists in the migrated schema', async () => {
  for (const name of NAMED_CONSTRAINTS) {
    const { rows } = await sql<{ found: boolean }>`
      SELECT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = ${name})
          OR EXISTS (SELECT 1 FROM pg_indexes WHERE schemaname = 'public' AND indexname = ${name})
          OR EXISTS (SELECT 1 FROM pg_proc WHERE prosrc LIKE ${`%CONSTRAINT = '${name}'%`}) AS found`.execute(t.database.db);
    assert.ok(rows[0]!.found, `${name} is not in the schema`);
  }
});

test('a pool bucket over its total, a unique index and a CHECK are recognised by name', async () => {
  const c = await createCustomer(t);
  await setPool(t, c.accountId, { cpu: 2, ram_mb: 2048, storage_gb: 20, ipv4: 1, ipv6: 1, bandwidth_mbit: 100 });
  await createVm(t, c, { cpu_cores: 1, ram_mb: 1024, storage_gb: 10 });
  const over = await t.database.db.updateTable('vdc_pools').set({ cpu_total: 0 }).where('account_id', '=', c.accountId).execute().catch((e: unknown) => e);
  assert.deepEqual(poolRefusal(over), { kind: 'over_total', bucket: 'cpu' });
  assert.ok(isCheckViolation(over) && !isCheckViolation(over, 'node_full'), String(over));
  const negative = await t.database.db.insertInto('transactions').values({ account_id: c.accountId, type: 'withdraw', amount_cents: 100, description: 'more than the balance' })
    .execute().catch((e: unknown) => e);
  assert.ok(isCheckViolation(negative, 'balance_short'), String(negative));
  assert.equal(poolRefusal(negative), undefined);
  const email = (await t.database.db.selectFrom('accounts').select('email').where('id', '=', c.accountId).executeTakeFirstOrThrow()).email;
  const other = await createCustomer(t);
  const taken = await t.database.db.updateTable('accounts').set({ email }).where('id', '=', other.accountId).execute().catch((e: unknown) => e);
  assert.ok(isUniqueViolation(taken) && !isUniqueViolation(taken, 'hostname_taken'), String(taken));
});
