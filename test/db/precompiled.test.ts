// Precompiled queries (src/db/precompiled.ts): built once, each call's values in their slots,
// the constants of the build kept, run through whatever handle is given (a transaction too).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { type Database, connect } from '../../src/db/connection.ts';
import { dropDatabase, ensureDatabase } from '../../src/db/create-database.ts';
import { precompile } from '../../src/db/precompiled.ts';
import type { Db } from '../../src/db/connection.ts';

const adminUrl = process.env.HC_TEST_ADMIN_URL!;
const name = `${process.env.HC_TEST_PREFIX}_precompiled_${process.pid}`;
let d: Database;

before(async () => {
  await ensureDatabase(adminUrl, name);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  d = connect(u.toString(), { max: 2 });
  await sql`CREATE TABLE things (id int PRIMARY KEY, label text NOT NULL, owner text NOT NULL)`.execute(d.db);
  await sql`INSERT INTO things VALUES (1, 'one', 'a'), (2, 'two', 'a'), (3, 'three', 'b'), (4, 'hidden', 'a')`.execute(d.db);
});

after(async () => {
  await d.close();
  await dropDatabase(adminUrl, name);
});

interface Thing { id: number; label: string; owner: string }

test('each call puts its own values in the slots; the values of the build stay; the query is built once', async () => {
  let builds = 0;
  const q = precompile((db: Db, p: { owner: string; after: number }) => {
    builds++;
    return sql<Thing>`SELECT * FROM things WHERE owner = ${p.owner} AND id > ${p.after} AND label <> ${'hidden'} ORDER BY id LIMIT ${10}`;
  });
  assert.deepEqual((await q.execute(d.db, { owner: 'a', after: 0 })).map((r) => r.id), [1, 2]);
  assert.deepEqual((await q.execute(d.db, { owner: 'a', after: 1 })).map((r) => r.id), [2]);
  assert.deepEqual((await q.execute(d.db, { owner: 'b', after: 0 })).map((r) => r.id), [3]);
  assert.equal(await q.executeTakeFirst(d.db, { owner: 'c', after: 0 }), undefined);
  assert.equal(builds, 1);
});

test('a query builder with a slot used twice and a subquery', async () => {
  const q = precompile((db: Db, p: { id: number }) => db.selectFrom(sql<Thing>`(SELECT * FROM things WHERE id = ${p.id} OFFSET 0)`.as('t'))
    .selectAll().where(sql<boolean>`t.id = ${p.id}`));
  assert.deepEqual(await q.executeTakeFirst(d.db, { id: 2 }), { id: 2, label: 'two', owner: 'a' });
  assert.deepEqual(await q.executeTakeFirst(d.db, { id: 3 }), { id: 3, label: 'three', owner: 'b' });
});

test('runs in the transaction it is given: sees its uncommitted rows', async () => {
  const q = precompile((_db: Db, p: { id: number }) => sql<Thing>`SELECT * FROM things WHERE id = ${p.id}`);
  await d.db.transaction().execute(async (trx) => {
    await sql`INSERT INTO things VALUES (9, 'nine', 'z')`.execute(trx);
    assert.equal((await q.executeTakeFirst(trx, { id: 9 }))?.label, 'nine');
    throw new Error('undo');
  }).catch((e: unknown) => assert.equal((e as Error).message, 'undo'));
  assert.equal(await q.executeTakeFirst(d.db, { id: 9 }), undefined);
});

test('a slot in an identifier\'s place is refused rather than compiled into the text', async () => {
  const q = precompile((_db: Db, p: { column: string }) => sql<Thing>`SELECT ${sql.raw(p.column)} FROM things`);
  await assert.rejects(q.execute(d.db, { column: 'label' }), /slot was compiled into the SQL text/);
});
