// Invoices and credit notes, their numbering, the operator's invoice settings and tax rates, and
// the accounts' billing details.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { AccountBillingDetails, Invoice, InvoiceKind, InvoiceSettings, TaxRate } from '../schema.ts';

/**
 * The next number of a series in a year: the counter row is created or incremented by one statement,
 * whose row lock is held until the transaction ends. Concurrent issuers queue on it; a transaction
 * that rolls back gives its number back with it. So numbers are gapless and never taken twice.
 */
export async function nextInvoiceNumber(db: Db, series: InvoiceKind, year: number): Promise<number> {
  const r = await sql<{ last_number: number }>`
    INSERT INTO invoice_counters (series, year, last_number) VALUES (${series}, ${year}, 1)
    ON CONFLICT (series, year) DO UPDATE SET last_number = invoice_counters.last_number + 1
    RETURNING last_number`.execute(db);
  return Number(r.rows[0]!.last_number);
}

/** Every column given, the parties as objects (insertInvoice stores them as JSON): the row as it will read. */
export type NewInvoice = Invoice;

export function insertInvoice(db: Db, row: NewInvoice): Promise<Invoice> {
  return db.insertInto('invoices').values({ ...row, seller: JSON.stringify(row.seller), buyer: JSON.stringify(row.buyer) }).returningAll().executeTakeFirstOrThrow();
}

export function findInvoice(db: Db, id: string, accountId?: string): Promise<Invoice | undefined> {
  let q = db.selectFrom('invoices').selectAll().where('id', '=', id);
  if (accountId !== undefined) q = q.where('account_id', '=', accountId);
  return q.executeTakeFirst();
}

/** The invoice of a deposit (a paid top-up's). */
export function findInvoiceOfDeposit(db: Db, depositId: number): Promise<Invoice | undefined> {
  return db.selectFrom('invoices').selectAll().where('deposit_id', '=', depositId).where('kind', '=', 'invoice').executeTakeFirst();
}

/** What the credit notes of an invoice add up to so far. */
export async function creditedTotals(db: Db, invoiceId: string): Promise<{ net: number; tax: number }> {
  const r = await db.selectFrom('invoices').where('credited_invoice_id', '=', invoiceId)
    .select((eb) => [eb.fn.coalesce(eb.fn.sum<number>('net_cents'), eb.lit(0)).as('net'), eb.fn.coalesce(eb.fn.sum<number>('tax_cents'), eb.lit(0)).as('tax')])
    .executeTakeFirstOrThrow();
  return { net: Number(r.net), tax: Number(r.tax) };
}

export interface InvoiceFilter {
  accountId?: string;
  kind?: InvoiceKind;
}

export async function listInvoicesPage(db: Db, f: InvoiceFilter, limit: number, offset: number): Promise<{ rows: Invoice[]; total: number }> {
  let q = db.selectFrom('invoices');
  if (f.accountId !== undefined) q = q.where('account_id', '=', f.accountId);
  if (f.kind !== undefined) q = q.where('kind', '=', f.kind);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy('issued_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export function getInvoiceSettingsRow(db: Db): Promise<InvoiceSettings> {
  return db.selectFrom('invoice_settings').selectAll().executeTakeFirstOrThrow();
}

export type InvoiceSettingsPatch = Partial<Pick<InvoiceSettings, 'company_name' | 'address' | 'tax_id' | 'invoice_prefix' | 'footer'>>;

export function updateInvoiceSettingsRow(db: Db, patch: InvoiceSettingsPatch, now: Date): Promise<InvoiceSettings> {
  return db.updateTable('invoice_settings').set({ ...patch, updated_at: now }).returningAll().executeTakeFirstOrThrow();
}

export function listTaxRateRows(db: Db): Promise<TaxRate[]> {
  return db.selectFrom('tax_rates').selectAll().orderBy('country').execute();
}

export function findTaxRate(db: Db, country: string): Promise<TaxRate | undefined> {
  return db.selectFrom('tax_rates').selectAll().where('country', '=', country).executeTakeFirst();
}

export function upsertTaxRate(db: Db, row: { country: string; rate_bp: number; label: string }, now: Date): Promise<TaxRate> {
  return db.insertInto('tax_rates').values({ ...row, updated_at: now })
    .onConflict((oc) => oc.column('country').doUpdateSet({ rate_bp: row.rate_bp, label: row.label, updated_at: now }))
    .returningAll().executeTakeFirstOrThrow();
}

export async function deleteTaxRate(db: Db, country: string): Promise<boolean> {
  const r = await db.deleteFrom('tax_rates').where('country', '=', country).executeTakeFirst();
  return Number(r.numDeletedRows) === 1;
}

export function findBillingDetails(db: Db, accountId: string): Promise<AccountBillingDetails | undefined> {
  return db.selectFrom('account_billing_details').selectAll().where('account_id', '=', accountId).executeTakeFirst();
}

export function upsertBillingDetails(db: Db, accountId: string, patch: { address?: string; tax_id?: string }, now: Date): Promise<AccountBillingDetails> {
  return db.insertInto('account_billing_details').values({ account_id: accountId, address: patch.address ?? '', tax_id: patch.tax_id ?? '', updated_at: now })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...patch, updated_at: now }))
    .returningAll().executeTakeFirstOrThrow();
}
