// Recurring billing fixtures: passes at chosen instants (the core takes `now` from its caller),
// moving a resource's billing dates, and the ledger invariant.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { type BillingSettings, type PassReport, runBillingPass } from '../../src/core/billing/pass.ts';
import type { Db } from '../../src/core/types.ts';
import type { BillingCharge } from '../../src/db/schema.ts';
import { servicesFor } from '../../src/runtime.ts';
import type { TestApp } from './app.ts';
import { ledgerCents } from './domains.ts';

export const DAY = 86_400_000;
export const at = (iso: string) => new Date(iso);
export const plusDays = (d: Date, days: number) => new Date(d.getTime() + days * DAY);

/** A pass for one account (so other tests' resources in this file's database are left alone), or for all. */
export function passer(t: TestApp, settings: Partial<BillingSettings> = {}, db: Db = t.database.db) {
  const deps = { ...servicesFor(t.config, db), db, graceDays: 14, domainRenewDays: 30, ...settings };
  return (now: Date, accountId?: string): Promise<PassReport> => runBillingPass(deps, now, { accountId, onError: (e) => { throw e; } });
}

export async function setServerDates(t: TestApp, id: string, d: { created: Date; start: Date; next: Date }): Promise<void> {
  await sql`UPDATE servers SET created_at = ${d.created}, period_started_at = ${d.start}, next_billing_at = ${d.next} WHERE id = ${id}`.execute(t.database.db);
}

export async function setHostingDates(t: TestApp, id: string, d: { created: Date; start: Date; next: Date }): Promise<void> {
  await sql`UPDATE web_hosting SET created_at = ${d.created}, period_started_at = ${d.start}, next_billing_at = ${d.next} WHERE id = ${id}`.execute(t.database.db);
}

/** Moves a domain's expiry, with us and in the simulated registry alike. */
export async function setDomainExpiry(t: TestApp, id: string, expiresAt: Date): Promise<void> {
  await sql`UPDATE domains SET expires_at = ${expiresAt} WHERE id = ${id}`.execute(t.database.db);
  await sql`UPDATE sim_registry_domains SET expires_at = ${expiresAt} WHERE name = (SELECT name FROM domains WHERE id = ${id})`.execute(t.database.db);
}

export function chargesOf(t: TestApp, id: string): Promise<BillingCharge[]> {
  return t.database.db.selectFrom('billing_charges').selectAll().where('resource_id', '=', id).orderBy('period_start').execute();
}

export async function withdrawalsOf(t: TestApp, accountId: string): Promise<{ amount_cents: number; description: string }[]> {
  return t.database.db.selectFrom('transactions').select(['amount_cents', 'description'])
    .where('account_id', '=', accountId).where('type', '=', 'withdraw').orderBy('id').execute();
}

/** Sum of the ledger = balance, and never negative. */
export async function assertLedger(t: TestApp, accountId: string): Promise<number> {
  const { ledger, balance } = await ledgerCents(t, accountId);
  assert.equal(ledger, balance, 'the ledger sums to the balance');
  assert.ok(balance >= 0);
  return balance;
}

/** Waits until no operation is unfinished on the resource (the embedded worker ran what the pass queued). */
export async function settled(t: TestApp, resourceId: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await t.database.db.selectFrom('operations').select('id')
      .where('resource_id', '=', resourceId).where('status', 'in', ['queued', 'running']).executeTakeFirst();
    if (!open) return;
    if (Date.now() > deadline) throw new Error(`operation ${open.id} on ${resourceId} did not finish`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function noticesOf(t: TestApp, accountId: string): Promise<string[]> {
  const rows = await t.database.db.selectFrom('notifications').select('kind').where('account_id', '=', accountId).orderBy('id').execute();
  return rows.map((r) => r.kind);
}
