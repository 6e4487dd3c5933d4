// A failover or switchover can hand a connection to a standby for a moment: the demoted primary
// accepts connections again before the proxy stops routing to it. A write there fails with 25006
// (read_only_sql_transaction); it must answer 503 (retry), not 500, and the connection must be
// dropped, or it would refuse every write it is given. Here a pool whose sessions are read-only
// stands in for the standby.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { connect } from '../../src/db/connection.ts';
import { classifyDatabaseError } from '../../src/db/failures.ts';
import { toApiError } from '../../src/http/errors.ts';
import { buildApp } from '../../src/http/app.ts';
import { createLogger } from '../../src/http/logger.ts';
import { rateLimiterFor, servicesFor } from '../../src/runtime.ts';
import { createTelemetry } from '../../src/telemetry/index.ts';
import { type TestApp, adminCall, createCustomer, json, startApp } from '../helpers/app.ts';

let t: TestApp;
before(async () => { t = await startApp(); });

function readOnlyUrl(url: string): string {
  const u = new URL(url);
  u.searchParams.set('options', '-c default_transaction_read_only=on');
  return u.toString();
}

test('a write refused as read-only (25006) is "unavailable": 503 with Retry-After, and its connection is dropped', async () => {
  const standby = connect(readOnlyUrl(t.databaseUrl), { max: 2 });
  try {
    const err = await sql`CREATE TEMP TABLE never_made (x int) ON COMMIT DROP`.execute(standby.db).then(() => null, (e: unknown) => e);
    assert.ok(err, 'the write should have been refused');
    assert.equal((err as { code?: string }).code, '25006');
    assert.equal(classifyDatabaseError(err), 'unavailable');
    assert.equal(toApiError(err)?.code, 'SERVICE_UNAVAILABLE');
    // The refused connection leaves the pool; a read on a fresh one still works.
    const deadline = Date.now() + 5_000;
    while (standby.pool.totalCount > 0) {
      assert.ok(Date.now() < deadline, `the read-only connection was kept (${standby.pool.totalCount} open)`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const { rows } = await sql<{ one: number }>`SELECT 1 AS one`.execute(standby.db);
    assert.equal(rows[0]!.one, 1);
  } finally {
    await standby.close();
  }
});

test('an API whose database connections reach a standby answers a write 503, a read 200', async () => {
  const c = await createCustomer(t);
  const standby = connect(readOnlyUrl(t.databaseUrl), { max: 2 });
  const rateLimiter = rateLimiterFor(t.config);
  const app = await buildApp({
    config: t.config, db: standby.db, rateLimiter, adminToken: t.adminToken, telemetry: createTelemetry(createLogger('silent')), services: servicesFor(t.config, standby.db),
  });
  try {
    const read = await adminCall({ ...t, app }, 'GET', `/admin/v1/accounts/${c.accountId}`);
    assert.equal(read.statusCode, 200, read.body);
    const write = await adminCall({ ...t, app }, 'POST', `/admin/v1/accounts/${c.accountId}/deposits`, { amount: '1.00' });
    assert.equal(write.statusCode, 503, write.body);
    assert.equal(json(write).error.code, 'SERVICE_UNAVAILABLE');
    assert.ok(write.headers['retry-after']);
  } finally {
    await app.close();
    await rateLimiter.close();
    await standby.close();
  }
});
