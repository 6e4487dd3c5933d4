import { sql } from 'kysely';
import type { Db } from '../connection.ts';

export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}
