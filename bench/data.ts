// Bench fixtures, made through the core where it matters (accounts, keys, deposits, one really
// provisioned server) and in bulk SQL where only volume matters (10,000 listed servers).
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { createAccount } from '../src/core/accounts/service.ts';
import { createApiKey } from '../src/core/api-keys/service.ts';
import { addIpPool } from '../src/core/compute-admin/service.ts';
import { deposit } from '../src/core/billing/ledger.ts';
import { executeOperation } from '../src/core/operations/execute.ts';
import { createServer } from '../src/core/servers/create.ts';
import type { Db } from '../src/core/types.ts';
import { inTransaction } from '../src/db/transaction.ts';
import { createJobQueue } from '../src/jobs/queue.ts';
import type { ComputeProvider } from '../src/providers/compute/types.ts';
import { noopPanel } from '../src/providers/hosting/noop.ts';
import { noopRegistrar } from '../src/providers/registrar/noop.ts';

const LISTED = 10_000;
const PAYING_ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 20);

async function customer(db: Db, cents: number): Promise<{ accountId: string; key: string }> {
  const account = await createAccount(db, { email: `bench-${randomBytes(6).toString('hex')}@example.com`, name: 'Bench' });
  await inTransaction(db, (trx) => deposit(trx, account.id, cents, 'Bench deposit'));
  const { secret } = await createApiKey(db, account.id, { name: 'bench', ipAllowlist: ['127.0.0.1', '::1'] });
  return { accountId: account.id, key: secret };
}

export async function seedBenchData(db: Db, compute: ComputeProvider) {
  // The demo /24s hold 253 addresses each; the worker run provisions thousands, spread over the
  // three primary locations (each location's pools are allocated under one lock).
  for (const location of [1, 2, 3]) {
    await addIpPool(db, location, { version: 4, cidr: `172.${15 + location}.0.0/16`, gateway: `172.${15 + location}.0.1` });
  }
  const listed = await customer(db, 1_000_000);
  const jobs = createJobQueue(db, { retryLimit: 0, retryDelayS: 1, timeoutS: 60 });
  const ctx = { db, accountId: listed.accountId, sandbox: false, now: new Date(), compute, hosting: noopPanel, registrar: noopRegistrar, jobs, providerTimeoutMs: 2000 };
  const { server, operation } = await inTransaction(db, (trx) => createServer(ctx, trx, {
    name: 'detail.example.com', location_id: 1, plan_id: 1, os_version_id: 1, password: 'Str0ng!Passw0rd',
  }));
  await executeOperation({ db, compute, hosting: noopPanel }, operation.id, true);

  await sql`
    INSERT INTO servers (id, account_id, name, status, power_state, location_id, os_version_id, plan_id, cpu_cores, ram_mb, storage_gb,
                         price_cents, period_started_at, next_billing_at, created_at)
    SELECT 'srv_bench' || lpad(g::text, 11, '0'), ${listed.accountId}, 'bulk-' || g || '.example.com', 'active', 'running', 1, 1, 1, 1, 1024, 25,
           500, now(), now() + interval '1 month', now() - g * interval '1 second'
      FROM generate_series(1, ${LISTED - 1}) g`.execute(db);
  // What autovacuum would have done by the time an account has 10,000 servers.
  await sql`VACUUM ANALYZE servers`.execute(db);

  const customers: string[] = [];
  for (let i = 0; i < PAYING_ACCOUNTS; i++) customers.push((await customer(db, 100_000_000)).key);
  return { listKey: listed.key, detailServer: server.id, listServers: LISTED, customers };
}
