// Secrets shared by every API process (app_secrets). The first process to need one creates it;
// the insert loses quietly to a concurrent creator and everyone reads the winner.
import type { Db } from '../connection.ts';

export async function findOrCreateSecret(db: Db, name: string, candidate: string): Promise<string> {
  await db.insertInto('app_secrets').values({ name, value: candidate }).onConflict((oc) => oc.column('name').doNothing()).execute();
  const row = await db.selectFrom('app_secrets').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}

/** Removes a secret, only while it is still `value` (a claim given back). */
export async function forgetSecret(db: Db, name: string, value: string): Promise<void> {
  await db.deleteFrom('app_secrets').where('name', '=', name).where('value', '=', value).execute();
}
