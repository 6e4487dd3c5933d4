// Fault drills against this test file's own database (never another one): load through the
// in-process app, faults through a connection to the server's maintenance database, and the
// checks every drill ends with — nothing charged twice, every operation finished.
import assert from 'node:assert/strict';
import { after } from 'node:test';
import { sql } from 'kysely';
import { type FaultConnection, databaseOf, faultConnection } from '../../scripts/chaos/faults.ts';
import { type Load, type LoadOptions, type Sample, type Send, startLoad } from '../../scripts/chaos/load.ts';
import { ledgerSumCents } from '../../src/db/queries/transactions.ts';
import type { Db } from '../../src/db/connection.ts';
import type { TestApp } from './app.ts';
import { CLOUD_S, FRA, PASSWORD, UBUNTU } from './servers.ts';

export const CREATE_BODY = { location_id: FRA, plan_id: CLOUD_S, os_version_id: UBUNTU, password: PASSWORD };

let faults: FaultConnection | undefined;
// A drill that failed half-way left its load running: its clients looped on the closed app and
// the file's process lived until the run's 15-minute file timeout. Every load ends with its file.
const loads: Load[] = [];
after(async () => {
  for (const l of loads) l.abort();
  await faults?.close();
});

/** startLoad, aborted when the file ends whatever happened (stop() it as the drill says). */
export function startTestLoad(opts: LoadOptions): Load {
  const load = startLoad(opts);
  loads.push(load);
  return load;
}

/** Faults on the test file's database, through the run's maintenance database. */
export function faultsFor(t: TestApp): { db: string; fault: FaultConnection } {
  const adminUrl = process.env.HC_TEST_ADMIN_URL;
  if (!adminUrl) throw new Error('run tests with `npm test`');
  faults ??= faultConnection(adminUrl);
  return { db: databaseOf(t.databaseUrl), fault: faults };
}

/** The in-process app as the load's client (a customer's key). */
export function injectSend(t: TestApp, key: string): Send {
  return async (method, path, o) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url: path,
      remoteAddress: '127.0.0.1',
      headers: { authorization: `Bearer ${key}`, ...o?.headers },
      ...(o?.body !== undefined ? { payload: o.body as object } : {}),
    });
    return { status: res.statusCode, headers: res.headers, body: res.body };
  };
}

/** Every answer was a success or a 503 SERVICE_UNAVAILABLE with Retry-After — never a 500. */
export function assertOnly503s(samples: Sample[]): void {
  const bad = samples.filter((s) => !(s.status >= 200 && s.status < 300) && !(s.status === 503 && s.code === 'SERVICE_UNAVAILABLE' && s.retryAfter));
  assert.deepEqual(bad.slice(0, 5), [], `${bad.length} answers were neither 2xx nor 503 with Retry-After`);
}

/**
 * Each created server was charged exactly once and nothing else moved; the ledger explains the
 * balance to the cent; with `operations`, every create's operation finished and succeeded (one
 * machine each).
 */
export async function assertSettled(db: Db, accountId: string, serverIds: string[], operations: boolean, timeoutMs = 30_000): Promise<void> {
  const ids = [...new Set(serverIds)];
  const deadline = Date.now() + timeoutMs;
  while (operations) {
    const open = ids.length === 0 ? [] : await db.selectFrom('operations').select(['id', 'status', 'detail'])
      .where('resource_id', 'in', ids).where('status', 'in', ['queued', 'running']).execute();
    if (open.length === 0) break;
    assert.ok(Date.now() < deadline, `${open.length} operations still unfinished: ${JSON.stringify(open.slice(0, 3))}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  if (operations && ids.length) {
    const ops = await db.selectFrom('operations').select(['resource_id', 'status', 'detail']).where('resource_id', 'in', ids).execute();
    assert.deepEqual(ops.filter((o) => o.status !== 'completed'), [], 'every operation completed');
    const servers = await db.selectFrom('servers').select(['id', 'status']).where('id', 'in', ids).execute();
    assert.deepEqual(servers.filter((s) => s.status !== 'active'), [], 'every server is active');
    // One machine per create: the operation id is the platform's request token.
    const machines = await sql<{ token: string; n: number }>`
      SELECT request_token AS token, count(*)::int AS n FROM sim_vms
      WHERE request_token IN (SELECT id FROM operations WHERE resource_id IN (${sql.join(ids)})) GROUP BY 1`.execute(db);
    assert.ok(machines.rows.every((r) => r.n === 1), 'one machine per create');
  }
  const rows = await db.selectFrom('transactions').select(['type', 'amount_cents', 'description']).where('account_id', '=', accountId).execute();
  const withdrawals = rows.filter((r) => r.type === 'withdraw');
  assert.equal(withdrawals.length, ids.length, 'one charge per server created, none for a request that answered 503');
  for (const id of ids) assert.equal(withdrawals.filter((r) => r.description.includes(id)).length, 1, `server ${id} charged once`);
  assert.deepEqual(rows.filter((r) => r.type === 'refund'), [], 'nothing refunded: no create failed');
  const account = await db.selectFrom('accounts').select('balance_cents').where('id', '=', accountId).executeTakeFirstOrThrow();
  assert.equal(await ledgerSumCents(db, accountId), account.balance_cents, 'ledger sum == balance');
}
