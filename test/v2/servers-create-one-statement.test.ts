// POST /v2/servers in two round trips (core/servers/create-request.ts): one read, then one
// statement writing the idempotency record, server, charge, operation and job — or nothing, and
// the transaction way answers. The answers and rows must be those of the transaction way.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { type Customer, type TestApp, call, createCustomer, json, startApp } from '../helpers/app.ts';
import { PASSWORD, serverBody } from '../helpers/servers.ts';
import { countStatements, fewestStatements } from '../helpers/statements.ts';
import { pgCode } from '../../src/db/connection.ts';
import { JOB_SCHEMA } from '../../src/db/names.ts';
import { insertOperationJob } from '../../src/db/queries/jobs.ts';
import { writeBillableCreate } from '../../src/db/queries/billable-create.ts';
import { createJobQueue } from '../../src/jobs/queue.ts';

let t: TestApp;
let c: Customer;

before(async () => {
  countStatements();
  t = await startApp();
  c = await createCustomer(t, { deposit: '500.00' });
});

const post = (body: unknown, key = randomUUID()) => call(t.app, 'POST', '/v2/servers', { key: c.key, body, headers: { 'idempotency-key': key } });

test('a create is one read and one write, with no BEGIN or COMMIT', async () => {
  await post(serverBody()); // warm: the key is cached after its first use
  // The least of three, as the bench counts: the key's last_used_at is written now and then.
  const least = await fewestStatements(3, async () => {
    const res = await post(serverBody());
    assert.equal(res.statusCode, 201, res.body);
  });
  assert.equal(least.length, 2, least.join('\n---\n'));
  assert.ok(!least.some((s) => /^\s*(begin|commit)/i.test(s)), 'no transaction statements');
  assert.match(least[1]!, /insert into "servers"/i);
});

test('the answer is the server as read back; the operation and its job are queued', async () => {
  const res = await post(serverBody({ ipv4_count: 2, cpu_cores: 2, ram_mb: 2048, storage_gb: 40, plan_id: undefined }));
  assert.equal(res.statusCode, 201, res.body);
  const created = json(res).data;
  const read = json(await call(t.app, 'GET', `/v2/servers/${created.id}`, { key: c.key })).data;
  const { operation, ...server } = created;
  for (const field of ['id', 'name', 'status', 'os', 'location_id', 'specs', 'network', 'plan', 'billing', 'created_at']) {
    assert.deepEqual(read[field], server[field], field);
  }
  const op = json(await call(t.app, 'GET', `/v2/operations/${operation.id}`, { key: c.key })).data;
  assert.deepEqual({ ...op, updated_at: operation.updated_at }, operation);
  const row = await t.database.db.selectFrom('operations').selectAll().where('id', '=', operation.id).executeTakeFirstOrThrow();
  assert.equal(row.status, 'queued');
  assert.equal(row.params.extra_ipv4, 1);
  assert.equal(row.params.password, PASSWORD);
  const { rows: jobs } = await sql<{ state: string; name: string }>`SELECT state, name FROM ${sql.table(`${JOB_SCHEMA}.job`)} WHERE data->>'operation_id' = ${operation.id}`.execute(t.database.db);
  assert.deepEqual(jobs, [{ state: 'created', name: 'operations' }]);
  // The ledger row names the server and its price, as the transaction way writes it.
  const ledger = await t.database.db.selectFrom('transactions').selectAll().where('account_id', '=', c.accountId).orderBy('id', 'desc').executeTakeFirstOrThrow();
  assert.match(ledger.description, new RegExp(`^Server ${server.name} \\(${server.id}\\): first monthly cycle, \\d+\\.\\d\\d USD$`));
  assert.equal(Number(ledger.amount_cents), Math.round(Number(server.billing.amount) * 100));
});

test('v1\'s create is the same entry point: one read and one write, and its answer is the detail GET /v1/servers/{id} reads', async () => {
  const body = () => ({ package_id: 1, version_id: 1, location_id: 1, server_name: serverBody().name, password: PASSWORD });
  const v1post = () => call(t.app, 'POST', '/v1/servers', { headers: { 'x-api-key': c.key, 'idempotency-key': randomUUID() }, body: body() });
  const least = await fewestStatements(3, async () => {
    const res = await v1post();
    assert.equal(res.statusCode, 200, res.body);
  });
  assert.equal(least.length, 2, least.join('\n---\n'));
  assert.match(least[1]!, /insert into "servers"/i);
  const created = json(await v1post());
  assert.equal(created.message, 'Server is being created');
  const read = json(await call(t.app, 'GET', `/v1/servers/${created.data.server_id}`, { headers: { 'x-api-key': c.key } }));
  assert.deepEqual(created.data, read.data);
  assert.equal(created.data.traffic_usage.upload_limit, 1000, 'the plan\'s allowance, known without a read');
});

test('the job row is the one pg-boss writes for the same job', async () => {
  const queue = createJobQueue(t.database.db, { retryLimit: 4, retryDelayS: 7, timeoutS: 90 });
  await queue.enqueueOperation(t.database.db, 'op_parity_boss');
  await sql`${insertOperationJob(queue.enqueueRow!('op_parity_ours'))}`.execute(t.database.db);
  const { rows } = await sql<Record<string, unknown>>`
    SELECT data->>'operation_id' AS op, name, priority, state, retry_limit, retry_count, retry_delay, retry_backoff, singleton_key, singleton_on,
           expire_in, keep_until - start_after AS kept, dead_letter, policy, start_after <= now() AS due
      FROM ${sql.table(`${JOB_SCHEMA}.job`)} WHERE data->>'operation_id' IN ('op_parity_boss', 'op_parity_ours') ORDER BY 1`.execute(t.database.db);
  assert.equal(rows.length, 2);
  const [boss, ours] = rows.map(({ op: _op, ...rest }) => rest);
  assert.deepEqual(ours, boss);
  assert.equal(boss!.retry_limit, 4);
});

test('a failed check raises HC002 and leaves no row behind', async () => {
  const poor = await createCustomer(t, { deposit: '1.00' });
  const node = await t.database.db.selectFrom('nodes').select('id').where('location_id', '=', 1).where('status', '=', 'active').orderBy('id').executeTakeFirstOrThrow();
  const taken = randomUUID();
  assert.equal((await post(serverBody(), taken)).statusCode, 201);
  const queue = createJobQueue(t.database.db, { retryLimit: 1, retryDelayS: 1, timeoutS: 60 });
  const now = new Date();
  const write = (accountId: string, opts: { key?: string; nodeId?: number; cents?: number }) => {
    const id = `srv_check${randomUUID().slice(0, 8)}`;
    const opId = `op_check${randomUUID().slice(0, 8)}`;
    return writeBillableCreate(t.database.db, {
      record: opts.key ? { key: opts.key, requestHash: 'x', expiresAt: new Date(now.getTime() + 60_000), outcome: 'created', response: {} } : undefined,
      resource: { table: 'servers', row: {
        id, account_id: accountId, name: `${id}.example.com`, location_id: 1, node_id: opts.nodeId ?? node.id, os_version_id: 1, plan_id: 1,
        cpu_cores: 1, ram_mb: 1024, storage_gb: 25, price_cents: 500, period_started_at: now, next_billing_at: now, created_at: now,
      } },
      charge: { accountId, cents: opts.cents ?? 500, description: 'check' },
      operation: { id: opId, account_id: accountId, type: 'server.create', resource_type: 'server', resource_id: id, params: {}, detail: 'Queued', created_at: now, updated_at: now },
      job: queue.enqueueRow!(opId),
    });
  };
  const counts = async () => {
    const { rows } = await sql<Record<string, string>>`SELECT
      (SELECT count(*) FROM servers) AS servers, (SELECT count(*) FROM transactions) AS transactions, (SELECT count(*) FROM operations) AS operations,
      (SELECT count(*) FROM idempotency_keys) AS keys, (SELECT count(*) FROM ${sql.table(`${JOB_SCHEMA}.job`)}) AS jobs,
      (SELECT sum(used_cpu) FROM nodes) AS used_cpu, (SELECT sum(balance_cents) FROM accounts) AS balances`.execute(t.database.db);
    return rows[0];
  };
  const before = await counts();
  const inactive = await t.database.db.insertInto('nodes').values({ name: 'check-off', location_id: 1, cpu_vendor: 'intel', cpu_cores: 8, ram_mb: 8192, storage_gb: 200, status: 'disabled' }).returning('id').executeTakeFirstOrThrow();
  const cases: [string, () => Promise<unknown>][] = [
    ['idempotency key taken', () => write(c.accountId, { key: taken })],
    ['node not active', () => write(c.accountId, { nodeId: inactive.id })],
    ['balance short', () => write(poor.accountId, { cents: 500 })],
  ];
  for (const [reason, attempt] of cases) {
    await assert.rejects(attempt(), (e: Error) => pgCode(e) === 'HC002' && e.message === reason, reason);
  }
  await t.database.db.deleteFrom('nodes').where('id', '=', inactive.id).execute();
  assert.deepEqual(await counts(), before);
  // And the checks pass on their own: the same write with nothing wrong commits.
  await write(c.accountId, {});
  assert.equal(Number((await counts())!.servers), Number(before!.servers) + 1);
});

test('what the one statement cannot be sure of, the transaction way answers exactly', async () => {
  const poor = await createCustomer(t, { deposit: '4.00' });
  const short = await call(t.app, 'POST', '/v2/servers', { key: poor.key, body: serverBody(), headers: { 'idempotency-key': randomUUID() } });
  assert.equal(short.statusCode, 422, short.body);
  assert.equal(json(short).error.code, 'INSUFFICIENT_BALANCE');
  assert.match(json(short).error.message, /^Balance 4\.00 USD is less than the 5\.00 USD this costs$/);
  const name = `twin-${randomUUID().slice(0, 6)}.example.com`;
  assert.equal((await post(serverBody({ name }))).statusCode, 201);
  const twin = await post(serverBody({ name: name.toUpperCase() }));
  assert.equal(twin.statusCode, 409);
  assert.equal(json(twin).error.code, 'HOSTNAME_IN_USE');
  assert.equal(await t.database.db.selectFrom('idempotency_keys').select('key').where('account_id', '=', poor.accountId).executeTakeFirst(), undefined, 'no record of a refused create');
});
