// Workers look for jobs fetched but never started (cancelUnclaimedJobs in queries/operations.ts)
// every third of OPERATION_LEASE_S. Active jobs are few, but the operations partition keeps every
// finished job until pg-boss archives it (12 h), so without this index that look would scan them
// all. Built on the partitioned parent, so every queue's partition — later ones too — gets it.
import { type Kysely, sql } from 'kysely';
import { JOB_SCHEMA } from '../names.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX job_active_started ON ${sql.table(`${JOB_SCHEMA}.job`)} (name, started_on) WHERE state = 'active'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX ${sql.table(`${JOB_SCHEMA}.job_active_started`)}`.execute(db);
}
