// The operator's side of invoicing: the company details every invoice prints, the invoice number
// prefix, the tax rate of each country; and the billing details of an account (address, tax id)
// that its invoices print beside its name, company, email and country.
import { findAccount } from '../../db/queries/accounts.ts';
import {
  type InvoiceSettingsPatch, deleteTaxRate, findBillingDetails, findTaxRate, getInvoiceSettingsRow, listTaxRateRows, updateInvoiceSettingsRow,
  upsertBillingDetails, upsertTaxRate,
} from '../../db/queries/invoices.ts';
import { DEMO_SELLER } from '../../db/seed.ts';
import type { AccountBillingDetails, InvoiceSettings, TaxRate } from '../../db/schema.ts';
import { invalid, notFound } from '../errors.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Db } from '../types.ts';
import { parseRate } from './tax.ts';

export type { InvoiceSettings, TaxRate, AccountBillingDetails };

export const PREFIX_PATTERN = /^[A-Z0-9]{1,12}$/;

export function getInvoiceSettings(db: Db): Promise<InvoiceSettings> {
  return getInvoiceSettingsRow(db);
}

/**
 * Changes the fields given; the others keep their value. Invoices already issued keep the details
 * they were issued with. The company name and address cannot be blanked: every invoice prints them.
 */
export function updateInvoiceSettings(db: Db, patch: InvoiceSettingsPatch, now: Date): Promise<InvoiceSettings> {
  if (patch.invoice_prefix !== undefined && !PREFIX_PATTERN.test(patch.invoice_prefix)) {
    throw invalid('invoice_prefix', 'must be 1 to 12 capital letters or digits, such as INV');
  }
  if (patch.company_name !== undefined && patch.company_name.trim() === '') throw invalid('company_name', 'must not be blank: every invoice names the seller');
  if (patch.address !== undefined && patch.address.trim() === '') throw invalid('address', "must not be blank: every invoice prints the seller's address");
  return inTransaction(db, (trx) => updateInvoiceSettingsRow(trx, patch, now));
}

/** The seller is still the demo one a new database starts with (db/seed.ts). */
export function isDemoSeller(s: Pick<InvoiceSettings, 'company_name' | 'address'>): boolean {
  return s.company_name === DEMO_SELLER.name || s.address === DEMO_SELLER.address;
}

/**
 * Why top-ups through `provider` cannot be invoiced now, or null when they can: the seller's
 * company name or address is blank, or — for a provider that takes real money — still the demo seller's.
 */
export function sellerProblem(s: Pick<InvoiceSettings, 'company_name' | 'address'>, provider: string): string | null {
  if (s.company_name.trim() === '' || s.address.trim() === '') return 'the company name and address that invoices print are not set';
  if (provider !== 'simulated' && isDemoSeller(s)) return "the company name and address that invoices print are still the demo seller's, which serves simulated payments only";
  return null;
}

/**
 * Whether customers can top up through PAYMENTS now (`off`: null), for `hostcloud serve` to say at
 * start: `problem` is why every top-up would be refused, null when they are taken.
 */
export async function paymentsReadiness(db: Db, payments: string): Promise<{ problem: string | null; seller: string; demo: boolean } | null> {
  if (payments === 'off') return null;
  const s = await getInvoiceSettingsRow(db);
  return { problem: sellerProblem(s, payments), seller: s.company_name, demo: isDemoSeller(s) };
}

export function listTaxRates(db: Db): Promise<TaxRate[]> {
  return listTaxRateRows(db);
}

function countryOf(text: string): string {
  const c = text.toUpperCase();
  if (!/^[A-Z]{2}$/.test(c)) throw invalid('country', 'must be a two-letter country code such as DE');
  return c;
}

/** The rate of a country ("19.00" percent), made or changed. */
export function setTaxRate(db: Db, country: string, input: { rate: string; label?: string }, now: Date): Promise<TaxRate> {
  const rateBp = parseRate(input.rate);
  if (rateBp === null) throw invalid('rate', 'must be a percentage from 0 to 100 with at most two decimals, such as "19.00"');
  const row = { country: countryOf(country), rate_bp: rateBp, label: input.label ?? 'Tax' };
  return inTransaction(db, (trx) => upsertTaxRate(trx, row, now));
}

export async function removeTaxRate(db: Db, country: string): Promise<void> {
  const code = countryOf(country);
  await inTransaction(db, async (trx) => {
    if (!(await deleteTaxRate(trx, code))) throw notFound('Tax rate');
  });
}

/** The rate a customer of `country` pays: the table's, or none. */
export async function rateFor(db: Db, country: string | null): Promise<{ rateBp: number; label: string }> {
  const row = country ? await findTaxRate(db, country.toUpperCase()) : undefined;
  return row ? { rateBp: row.rate_bp, label: row.label } : { rateBp: 0, label: 'Tax' };
}

export async function getBillingDetails(db: Db, accountId: string): Promise<{ address: string; tax_id: string }> {
  if (!(await findAccount(db, accountId))) throw notFound('Account');
  const row = await findBillingDetails(db, accountId);
  return { address: row?.address ?? '', tax_id: row?.tax_id ?? '' };
}

export async function setBillingDetails(db: Db, accountId: string, patch: { address?: string; tax_id?: string }, now: Date): Promise<{ address: string; tax_id: string }> {
  if (!(await findAccount(db, accountId))) throw notFound('Account');
  const row = await inTransaction(db, (trx) => upsertBillingDetails(trx, accountId, patch, now));
  return { address: row.address, tax_id: row.tax_id };
}
