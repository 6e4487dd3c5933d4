// Shared by the tests of a server's extras (snapshots, addresses, console, telemetry): the
// simulated platform's fault switch, a server held in `pending`, and exact money checks.
import assert from 'node:assert/strict';
import { findAccount } from '../../src/db/queries/accounts.ts';
import { ledgerSumCents } from '../../src/db/queries/transactions.ts';
import { type Customer, type TestApp, adminCall, call, json } from './app.ts';
import { type Json, createServer } from './servers.ts';

type Res = Awaited<ReturnType<typeof call>>;

export async function setFault(t: TestApp, fault: { mode: string; remaining?: number | null; calls?: string[] }): Promise<void> {
  const res = await adminCall(t, 'PUT', '/admin/v1/provider/fault', fault);
  assert.equal(res.statusCode, 200, res.body);
}

export const clearFault = (t: TestApp) => setFault(t, { mode: 'none' });

/** Runs `fn` while the platform fails `calls` with `mode`; the switch is cleared whatever happens. */
export async function withFault<T>(t: TestApp, mode: string, calls: string[], fn: () => Promise<T>): Promise<T> {
  await setFault(t, { mode, calls, remaining: null });
  try {
    return await fn();
  } finally {
    await clearFault(t);
  }
}

/** A server kept `pending` while `fn` runs: its provisioning fails (and is retried) until the switch is cleared. */
export function withPendingServer<T>(t: TestApp, c: Customer, fn: (server: Json) => Promise<T>): Promise<T> {
  return withFault(t, 'upstream_error', ['create'], async () => {
    const server = await createServer(t, c);
    assert.equal(server.status, 'pending');
    return fn(server);
  });
}

export function assertError(res: Res, status: number, code: string): void {
  assert.equal(res.statusCode, status, res.body);
  const body = json(res);
  assert.equal(body.error.code, code, res.body);
  assert.match(body.error.doc_url, new RegExp(`/v2/docs/errors#${code}$`));
  assert.equal(body.data, undefined);
}

export function assertInvalid(res: Res, fields: string[]): void {
  assertError(res, 422, 'VALIDATION_FAILED');
  assert.deepEqual(json(res).error.errors.map((e: { field: string }) => e.field).sort(), [...fields].sort(), res.body);
}

export async function balanceCents(t: TestApp, c: Customer): Promise<number> {
  return (await findAccount(t.database.db, c.accountId))!.balance_cents;
}

/** The ledger explains the balance to the cent. */
export async function assertLedgerExact(t: TestApp, c: Customer): Promise<void> {
  assert.equal(await ledgerSumCents(t.database.db, c.accountId), await balanceCents(t, c));
}

/** Hours of the server's first cycle and those left within the hour after its creation (what a prorated charge uses). */
export function firstCycleHours(server: Json): { period: number; remaining: number } {
  const period = Math.round((Date.parse(server.billing.next_billing_at) - Date.parse(server.created_at)) / 3_600_000);
  return { period, remaining: Math.floor((Date.parse(server.billing.next_billing_at) - Date.now()) / 3_600_000) };
}
