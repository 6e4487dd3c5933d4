// Helpers for the tests of server actions, delete, rename and upgrade: calls, the provider's fault
// switch, money checks, and a way to hold a server busy without racing the worker.
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { newId } from '../../src/core/ids.ts';
import { ledgerSumCents } from '../../src/db/queries/transactions.ts';
import { finishOperation, insertOperation } from '../../src/db/queries/operations.ts';
import { type TestApp, adminCall, call, json } from './app.ts';

export function action(t: TestApp, key: string, id: string, verb: string, body?: unknown) {
  return call(t.app, 'POST', `/v2/servers/${id}/actions/${verb}`, { key, ...(body === undefined ? {} : { body }) });
}

export async function balanceCents(t: TestApp, accountId: string): Promise<number> {
  const row = await t.database.db.selectFrom('accounts').select('balance_cents').where('id', '=', accountId).executeTakeFirstOrThrow();
  return row.balance_cents;
}

/** The balance equals the sum of the ledger, to the cent. */
export async function assertLedger(t: TestApp, accountId: string): Promise<void> {
  assert.equal(await ledgerSumCents(t.database.db, accountId), await balanceCents(t, accountId), 'ledger sum == balance');
}

export function assertError(res: LightMyRequestResponse, status: number, code: string, field?: string): void {
  assert.equal(res.statusCode, status, res.body);
  const e = json(res).error;
  assert.equal(e.code, code, res.body);
  if (field !== undefined) assert.ok(e.errors.some((x: { field: string }) => x.field === field), `errors[] names ${field}: ${res.body}`);
}

export async function setFault(t: TestApp, fault: { mode: string; remaining?: number | null; calls?: string[] }): Promise<void> {
  const res = await adminCall(t, 'PUT', '/admin/v1/provider/fault', fault);
  assert.equal(res.statusCode, 200, res.body);
}

export const clearFault = (t: TestApp) => setFault(t, { mode: 'none' });

/**
 * An unfinished operation on the server, written directly: "another operation is running" without
 * racing the worker to observe it. Call the returned function to finish it.
 */
export async function holdBusy(t: TestApp, accountId: string, serverId: string): Promise<(() => Promise<void>) & { operationId: string }> {
  const op = await insertOperation(t.database.db, {
    id: newId('op'), account_id: accountId, type: 'server.test_hold', resource_type: 'server', resource_id: serverId, params: {}, detail: 'Held by a test',
  });
  return Object.assign(async () => {
    await finishOperation(t.database.db, op.id, 'completed', 'Released by a test');
  }, { operationId: op.id });
}

export function serverRow(t: TestApp, id: string) {
  return t.database.db.selectFrom('servers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** Withdraw and refund rows of the account whose description mentions `text`, oldest first. */
export function ledgerRows(t: TestApp, accountId: string, text: string) {
  return t.database.db.selectFrom('transactions').select(['type', 'amount_cents', 'description'])
    .where('account_id', '=', accountId).where('description', 'like', `%${text}%`).orderBy('id').execute();
}
