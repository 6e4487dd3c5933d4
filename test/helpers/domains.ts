// Domain fixtures: names registered through the API (and, with startApp({ worker: 'embedded' }),
// by the file's worker), names the operator seeds at "another registrar", and money checks.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { type Customer, type TestApp, adminCall, call, json, waitForOperation } from './app.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** A fresh name under `tld` nobody holds (`t` for uniqueness across a file's tests). */
export function freshName(tld = 'com', prefix = 'shop'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}.${tld}`;
}

export const CONTACT = {
  first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '+49.301234567',
  address: 'Unter den Linden 1', city: 'Berlin', postal_code: '10117', country: 'DE',
};

/** POST /v2/domains; asserts 201 and returns `data` (domain + operation). */
export async function registerDomain(t: TestApp, c: Customer, body: Record<string, unknown>): Promise<Json> {
  const res = await call(t.app, 'POST', '/v2/domains', { key: c.key, body: { years: 1, ...body } });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data;
}

/** A domain the worker has registered (status active). */
export async function activeDomain(t: TestApp, c: Customer, body: Record<string, unknown> = {}): Promise<Json> {
  const created = await registerDomain(t, c, { domain: freshName(), ...body });
  const op = await waitForOperation(t, c.key, created.operation.id);
  assert.equal(op.status, 'completed', `registration failed: ${op.detail}`);
  const res = await call(t.app, 'GET', `/v2/domains/${created.id}`, { key: c.key });
  assert.equal(res.statusCode, 200, res.body);
  return json(res).data;
}

/** The operator seeds a name "registered at another registrar" with its auth code. */
export async function seedElsewhere(t: TestApp, domain: string, authCode = 'Secret-Auth-1', extra: Record<string, unknown> = {}): Promise<Json> {
  const res = await adminCall(t, 'POST', '/admin/v1/registrar/domains', { domain, auth_code: authCode, ...extra });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).data;
}

export async function balanceOf(t: TestApp, c: Customer): Promise<string> {
  return json(await call(t.app, 'GET', '/v2/billing/balance', { key: c.key })).data.balance.amount;
}

/** The account's ledger, summed (deposits and refunds minus withdrawals), in cents. */
export async function ledgerCents(t: TestApp, accountId: string): Promise<{ ledger: number; balance: number }> {
  const { rows: [r] } = await sql<{ ledger: number; balance: number }>`
    SELECT coalesce(sum(CASE WHEN t.type = 'withdraw' THEN -t.amount_cents ELSE t.amount_cents END), 0)::bigint AS ledger,
           (SELECT balance_cents FROM accounts WHERE id = ${accountId}) AS balance
      FROM transactions t WHERE t.account_id = ${accountId}`.execute(t.database.db);
  return { ledger: Number(r!.ledger), balance: Number(r!.balance) };
}

export async function setRegistrarFault(t: TestApp, fault: Record<string, unknown>): Promise<void> {
  const res = await adminCall(t, 'PUT', '/admin/v1/providers/registrar/fault', fault);
  assert.equal(res.statusCode, 200, res.body);
}

export function assertError(res: { statusCode: number; body: string }, status: number, code: string, fields?: string[]): Json {
  assert.equal(res.statusCode, status, res.body);
  const { error } = json(res as never);
  assert.equal(error.code, code, res.body);
  if (fields) assert.deepEqual((error.errors as { field: string }[]).map((e) => e.field).sort(), [...fields].sort(), res.body);
  return error;
}

/** Waits until no operation of the file's database is queued or running (before a fault meant for one). */
export async function settleOperations(t: TestApp, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await t.database.db.selectFrom('operations').select('id').where('status', 'in', ['queued', 'running']).execute();
    if (open.length === 0) return;
    if (Date.now() > deadline) throw new Error(`operations still unfinished: ${open.map((o) => o.id).join(', ')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
