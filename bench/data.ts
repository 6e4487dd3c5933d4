// Bench fixtures, made through the core where it matters (accounts, keys, deposits, one really
// provisioned server, the worker's backlog) and in bulk SQL where only volume matters (the
// 1,000,000 listed servers: BENCH_LIST_ACCOUNTS × BENCH_LIST_PER_ACCOUNT).
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { createAccount } from '../src/core/accounts/service.ts';
import { createApiKey } from '../src/core/api-keys/service.ts';
import { addIpPool } from '../src/core/ip-pools/admin.ts';
import { deposit } from '../src/core/billing/ledger.ts';
import { executeOperation } from '../src/core/operations/execute.ts';
import { createServer } from '../src/core/servers/create.ts';
import type { Db } from '../src/core/types.ts';
import { insertNode } from '../src/db/queries/nodes.ts';
import { inTransaction } from '../src/db/transaction.ts';
import { createJobQueue } from '../src/jobs/queue.ts';
import type { ComputeProvider } from '../src/providers/compute/types.ts';
import { noopPanel } from '../src/providers/hosting/noop.ts';
import { noopRegistrar } from '../src/providers/registrar/noop.ts';

const PAYING_ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 20);

export interface Customer { accountId: string; key: string }

async function customer(db: Db, cents: number): Promise<Customer> {
  const account = await createAccount(db, { email: `bench-${randomBytes(6).toString('hex')}@example.com`, name: 'Bench' });
  await inTransaction(db, (trx) => deposit(trx, account.id, cents, 'Bench deposit'));
  const { secret } = await createApiKey(db, account.id, { name: 'bench', ipAllowlist: ['127.0.0.1', '::1'] });
  return { accountId: account.id, key: secret };
}

export interface Volume { accounts: number; perAccount: number }

export async function seedBenchData(db: Db, compute: ComputeProvider, volume: Volume) {
  // The demo /24s hold 253 addresses each; the bench provisions thousands, spread over the
  // three primary locations (each location's pools are allocated under one lock).
  for (const location of [1, 2, 3]) {
    await addIpPool(db, location, { version: 4, cidr: `172.${15 + location}.0.0/16`, gateway: `172.${15 + location}.0.1` });
    // And a host with room for them all (the demo nodes hold a few hundred small servers).
    await insertNode(db, { location_id: location, name: `bench-${location}-kvm`, cpu_vendor: 'intel', cpu_cores: 20_000, ram_mb: 20_480_000, storage_gb: 500_000 });
  }
  const listed = await customer(db, 1_000_000);
  const ctx = benchCtx(db, compute, listed.accountId);
  const { server, operation } = await inTransaction(db, (trx) => createServer(ctx, trx, {
    name: 'detail.example.com', location_id: 1, plan_id: 1, os_version_id: 1, password: 'Str0ng!Passw0rd',
  }));
  await executeOperation({ db, compute, hosting: noopPanel }, operation.id, true);

  // The listed account is the first of `accounts`; the others are bare accounts of the same size.
  const owners = [listed.accountId];
  for (let i = 1; i < volume.accounts; i++) {
    owners.push((await createAccount(db, { email: `bulk-${i}-${randomBytes(4).toString('hex')}@example.com`, name: 'Bulk' })).id);
  }
  const t0 = Date.now();
  // In chunks of accounts, so one statement's WAL and sort stay modest.
  for (let i = 0; i < owners.length; i += 10) {
    const chunk = owners.slice(i, i + 10);
    await sql`
      INSERT INTO servers (id, account_id, name, status, power_state, location_id, os_version_id, plan_id, cpu_cores, ram_mb, storage_gb,
                           price_cents, period_started_at, next_billing_at, created_at)
      SELECT 'srv_b' || lpad(x.n::text, 3, '0') || lpad(g::text, 12, '0'), a.id, 'bulk-' || g || '.example.com', 'active', 'running', 1, 1, 1, 1, 1024, 25,
             500, now(), now() + interval '1 month', now() - g * interval '1 second'
        FROM unnest(${sql.val(chunk)}::text[]) WITH ORDINALITY AS a(id, n0)
        CROSS JOIN LATERAL (SELECT ${i} + a.n0 AS n) x
        CROSS JOIN generate_series(1, ${volume.perAccount} - CASE WHEN a.id = ${listed.accountId} THEN 1 ELSE 0 END) g`.execute(db);
  }
  // What autovacuum would have done by the time the table holds this many servers.
  await sql`VACUUM ANALYZE servers`.execute(db);
  // And what the checkpointer would have: without it, the bulk insert's dirty pages were written
  // out by a checkpoint that came due during the first runs (db1's), costing them CPU and disk.
  await sql`CHECKPOINT`.execute(db).catch((e: Error) => process.stderr.write(`bench: no CHECKPOINT (${e.message}); the first runs may pay for the bulk insert's writes\n`));
  const bulkS = (Date.now() - t0) / 1000;

  const customers: Customer[] = [];
  for (let i = 0; i < PAYING_ACCOUNTS; i++) customers.push(await customer(db, 100_000_000));
  return { listKey: listed.key, listAccount: listed.accountId, detailServer: server.id, customers, bulkS };
}

export function benchCtx(db: Db, compute: ComputeProvider, accountId: string) {
  const jobs = createJobQueue(db, { retryLimit: 0, retryDelayS: 1, timeoutS: 60 });
  return { db, accountId, sandbox: false, now: new Date(), compute, hosting: noopPanel, registrar: noopRegistrar, jobs, providerTimeoutMs: 2000 };
}

/** `n` queued server creates (through the core, as the API makes them), for a worker run to drain. */
export async function makeBacklog(db: Db, compute: ComputeProvider, customers: Customer[], n: number, tag: string): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < n) {
      const i = next++;
      const c = customers[i % customers.length]!;
      await inTransaction(db, (trx) => createServer(benchCtx(db, compute, c.accountId), trx, {
        name: `w${tag}-${i}.example.com`, location_id: 1 + (i % 3), plan_id: 1, os_version_id: 1, password: 'Str0ng!Passw0rd',
      }));
    }
  }));
}
