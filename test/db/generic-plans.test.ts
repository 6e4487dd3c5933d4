// The worker's pool runs its named statements on generic plans (PoolOptions.genericPlans): the
// setting reaches every connection; the API's pools keep PostgreSQL's own choice.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { type TestApp, startApp } from '../helpers/app.ts';
import { type Db, connect } from '../../src/db/connection.ts';
import { loadConfig } from '../../src/config.ts';
import { openStore } from '../../src/runtime.ts';

let t: TestApp;
before(async () => { t = await startApp(); });

const modeOf = async (db: Db) =>
  (await sql<{ plan_cache_mode: string }>`SHOW plan_cache_mode`.execute(db)).rows[0]!.plan_cache_mode;

test('a pool with genericPlans plans every named statement once, generically; others are left to PostgreSQL', async () => {
  const generic = connect(t.databaseUrl, { max: 2, genericPlans: true });
  const plain = connect(t.databaseUrl, { max: 2 });
  try {
    assert.equal(await modeOf(generic.db), 'force_generic_plan');
    assert.equal(await modeOf(plain.db), 'auto');
    // Every connection of the pool, not only the first.
    const both = await Promise.all([1, 2].map(() => generic.db.connection().execute((c) => modeOf(c))));
    assert.deepEqual(both, ['force_generic_plan', 'force_generic_plan']);
  } finally {
    await generic.close();
    await plain.close();
  }
});

test('`hostcloud worker` opens its store with generic plans; `serve` (requests, with or without its worker) does not', async () => {
  const config = { ...loadConfig({}), databaseUrl: t.databaseUrl };
  for (const [opts, expected] of [
    [{ runsWorker: true, servesRequests: false }, 'force_generic_plan'],
    [{ runsWorker: true }, 'auto'],
    [{}, 'auto'],
  ] as const) {
    const store = await openStore(config, undefined, opts);
    try {
      assert.equal(await modeOf(store.database.db), expected, JSON.stringify(opts));
    } finally {
      await store.close();
    }
  }
});
