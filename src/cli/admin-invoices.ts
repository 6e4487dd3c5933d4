// `hostcloud admin invoices|invoice-settings|tax-rates|payments|refund|statement|billing-details`:
// the operator's side of top-up and invoicing, over the admin API. PDFs are written to a file
// (--output; default the invoice number, or statement-ACCOUNT-MONTH).
import fs from 'node:fs/promises';
import { type Out, pageQuery, parse, positionals, refuse } from './admin-args.ts';
import { type Column, listing, record } from './admin-format.ts';
import { type Conn, type Json, call, download, worded } from './admin-http.ts';

const amount = (m: unknown) => { const x = m as { amount: string; currency: string } | null; return x ? `${x.amount} ${x.currency}` : ''; };

/**
 * What a terminal of 120 columns holds: the ids to act on, the number, kind, date and amounts
 * (every field, seller and buyer included, is in `invoices get ID` and --json).
 */
const INVOICE_COLUMNS: Column[] = [
  { header: 'ID', get: (r) => r.id }, { header: 'NUMBER', get: (r) => r.number }, { header: 'KIND', get: (r) => r.kind },
  { header: 'ACCOUNT', get: (r) => r.account_id }, { header: 'ISSUED', get: (r) => String(r.issued_at).slice(0, 10) },
  { header: 'NET', get: (r) => amount(r.net) }, { header: 'TAX', get: (r) => amount(r.tax) }, { header: 'GROSS', get: (r) => amount(r.gross) },
];

export const INVOICE_USAGE = {
  list: 'hostcloud admin invoices list [--account ACCOUNT_ID] [--kind invoice|credit_note] [--page N] [--per-page N]',
  get: 'hostcloud admin invoices get INVOICE_ID',
  pdf: 'hostcloud admin invoices pdf INVOICE_ID [--output FILE]',
  settingsSet: 'hostcloud admin invoice-settings set [--company-name TEXT] [--address TEXT] [--tax-id TEXT] [--prefix PREFIX] [--footer TEXT]',
  taxSet: 'hostcloud admin tax-rates set COUNTRY RATE [--label LABEL]',
  taxDelete: 'hostcloud admin tax-rates delete COUNTRY',
  payments: 'hostcloud admin payments list [--account ACCOUNT_ID] [--status STATUS] [--page N] [--per-page N]',
  refresh: 'hostcloud admin payments refresh PAYMENT_ID',
  refund: 'hostcloud admin refund DEPOSIT_ID [--amount AMOUNT] [--reason TEXT] [--idempotency-key UUID]',
  statement: 'hostcloud admin statement ACCOUNT_ID MONTH [--pdf] [--output FILE]',
  details: 'hostcloud admin billing-details ACCOUNT_ID [--address TEXT] [--tax-id TEXT]',
};

const one = (title: string) => (a: Json) => `${title}\n${record(a.data as Record<string, unknown>)}`;
const page = { page: { type: 'string' as const }, 'per-page': { type: 'string' as const } };

async function save(out: Out, file: string, bytes: Buffer): Promise<void> {
  await fs.writeFile(file, bytes);
  out.show({ data: { file, bytes: bytes.length } }, () => `Wrote ${file} (${bytes.length} bytes)`);
}

/** Runs one of these commands; false when `group action` is not one. */
export async function invoiceCommand(conn: Conn, out: Out, group: string, action: string | undefined, args: string[]): Promise<boolean> {
  if (group === 'invoices' && action === 'list') {
    const { values, positionals: pos } = parse(args, { account: { type: 'string' }, kind: { type: 'string' }, ...page }, INVOICE_USAGE.list);
    positionals(pos, [], INVOICE_USAGE.list);
    const q = pageQuery(values, { account_id: values.account, kind: values.kind, per_page: values['per-page'] ? undefined : '100' });
    out.show(await call(conn, 'GET', `/invoices${q}`), (a) => listing(a as never, INVOICE_COLUMNS, 'invoices'));
  } else if (group === 'invoices' && action === 'get') {
    const [id] = positionals(parse(args, {}, INVOICE_USAGE.get).positionals, ['INVOICE_ID'], INVOICE_USAGE.get);
    out.show(await call(conn, 'GET', `/invoices/${encodeURIComponent(id!)}`), one(`invoice ${id}`));
  } else if (group === 'invoices' && action === 'pdf') {
    const { values, positionals: pos } = parse(args, { output: { type: 'string' } }, INVOICE_USAGE.pdf);
    const [id] = positionals(pos, ['INVOICE_ID'], INVOICE_USAGE.pdf);
    const number = values.output ? undefined : ((await call(conn, 'GET', `/invoices/${encodeURIComponent(id!)}`)).data as { number: string }).number;
    await save(out, values.output ?? `${number}.pdf`, await download(conn, `/invoices/${encodeURIComponent(id!)}/pdf`));
  } else if (group === 'invoice-settings' && action === 'get') {
    out.show(await call(conn, 'GET', '/invoice-settings'), one('invoice settings'));
  } else if (group === 'invoice-settings' && action === 'set') {
    const { values, positionals: pos } = parse(args, {
      'company-name': { type: 'string' }, address: { type: 'string' }, 'tax-id': { type: 'string' }, prefix: { type: 'string' }, footer: { type: 'string' },
    }, INVOICE_USAGE.settingsSet);
    positionals(pos, [], INVOICE_USAGE.settingsSet);
    const body: Record<string, string> = {};
    for (const [flag, field] of [['company-name', 'company_name'], ['address', 'address'], ['tax-id', 'tax_id'], ['prefix', 'invoice_prefix'], ['footer', 'footer']] as const) {
      // "\n" typed in a shell argument is a line break on the invoice.
      if (values[flag] !== undefined) body[field] = values[flag]!.replace(/\\n/g, '\n');
    }
    if (Object.keys(body).length === 0) refuse([`nothing to set\nusage: ${INVOICE_USAGE.settingsSet}`]);
    const flags: Record<string, string> = { company_name: '--company-name', address: '--address', tax_id: '--tax-id', invoice_prefix: '--prefix', footer: '--footer' };
    out.show(await worded((f) => ({ name: flags[f] ?? f }), () => call(conn, 'POST', '/invoice-settings', body)), one('invoice settings: set'));
  } else if (group === 'tax-rates' && action === 'list') {
    out.show(await call(conn, 'GET', '/tax-rates'), (a) => (a.data as unknown[]).length === 0 ? 'No tax rates: customers pay no tax' : listing({ ...a, meta: { pagination: { page: 1, total_pages: 1, total: (a.data as unknown[]).length } } } as never, 'all', 'tax rates'));
  } else if (group === 'tax-rates' && action === 'set') {
    const { values, positionals: pos } = parse(args, { label: { type: 'string' } }, INVOICE_USAGE.taxSet);
    const [country, rate] = positionals(pos, ['COUNTRY', 'RATE'], INVOICE_USAGE.taxSet);
    const answer = await worded((f) => ({ name: f === 'rate' ? 'RATE' : f === 'country' ? 'COUNTRY' : `--${f}` }),
      () => call(conn, 'PUT', `/tax-rates/${encodeURIComponent(country!)}`, { rate, ...(values.label !== undefined ? { label: values.label } : {}) }));
    out.show(answer, one(`tax rate ${country!.toUpperCase()}: set`));
  } else if (group === 'tax-rates' && action === 'delete') {
    const [country] = positionals(parse(args, {}, INVOICE_USAGE.taxDelete).positionals, ['COUNTRY'], INVOICE_USAGE.taxDelete);
    out.show(await call(conn, 'DELETE', `/tax-rates/${encodeURIComponent(country!)}`), one(`tax rate ${country!.toUpperCase()}: deleted`));
  } else if (group === 'payments' && action === 'list') {
    const { values, positionals: pos } = parse(args, { account: { type: 'string' }, status: { type: 'string' }, ...page }, INVOICE_USAGE.payments);
    positionals(pos, [], INVOICE_USAGE.payments);
    const q = pageQuery(values, { account_id: values.account, status: values.status, per_page: values['per-page'] ? undefined : '100' });
    out.show(await call(conn, 'GET', `/payments${q}`), (a) => listing(a as never, 'all', 'payments'));
  } else if (group === 'payments' && action === 'refresh') {
    const [id] = positionals(parse(args, {}, INVOICE_USAGE.refresh).positionals, ['PAYMENT_ID'], INVOICE_USAGE.refresh);
    out.show(await call(conn, 'POST', `/payments/${encodeURIComponent(id!)}/refresh`), one(`payment ${id}`));
  } else if (group === 'refund') {
    const all = action === undefined ? args : [action, ...args];
    const { values, positionals: pos } = parse(all, { amount: { type: 'string' }, reason: { type: 'string' }, 'idempotency-key': { type: 'string' } }, INVOICE_USAGE.refund);
    const [id] = positionals(pos, ['DEPOSIT_ID'], INVOICE_USAGE.refund);
    if (!/^\d+$/.test(id!)) refuse([`DEPOSIT_ID must be the deposit's transaction id (a number), got "${id}"\nusage: ${INVOICE_USAGE.refund}`]);
    const body = { ...(values.amount !== undefined ? { amount: values.amount } : {}), ...(values.reason !== undefined ? { reason: values.reason } : {}) };
    // The same key again (the answer was lost) answers the same refund rather than making another.
    const key = values['idempotency-key'];
    const headers: Record<string, string> = key === undefined ? {} : { 'idempotency-key': key };
    const answer = await worded((f) => ({ name: /^idempotency-key$/i.test(f) ? '--idempotency-key' : `--${f}`, hint: f === 'amount' ? 'must be an amount like 25.00' : undefined }),
      () => call(conn, 'POST', `/deposits/${id}/refunds`, body, headers));
    out.show(answer, one('credit note issued'));
  } else if (group === 'statement') {
    const all = action === undefined ? args : [action, ...args];
    const { values, positionals: pos } = parse(all, { pdf: { type: 'boolean' }, output: { type: 'string' } }, INVOICE_USAGE.statement);
    const [account, month] = positionals(pos, ['ACCOUNT_ID', 'MONTH'], INVOICE_USAGE.statement);
    const url = `/accounts/${encodeURIComponent(account!)}/statements/${encodeURIComponent(month!)}`;
    if (values.pdf || values.output) await save(out, values.output ?? `statement-${account}-${month}.pdf`, await download(conn, `${url}/pdf`));
    else {
      out.show(await call(conn, 'GET', url), (a) => {
        const { transactions, ...head } = a.data as Record<string, unknown> & { transactions: unknown[] };
        return `Statement ${month} of ${account}\n${record(head)}\n  transactions    ${transactions.length}`;
      });
    }
  } else if (group === 'billing-details') {
    const all = action === undefined ? args : [action, ...args];
    const { values, positionals: pos } = parse(all, { address: { type: 'string' }, 'tax-id': { type: 'string' } }, INVOICE_USAGE.details);
    const [account] = positionals(pos, ['ACCOUNT_ID'], INVOICE_USAGE.details);
    const url = `/accounts/${encodeURIComponent(account!)}/billing-details`;
    const body = { ...(values.address !== undefined ? { address: values.address.replace(/\\n/g, '\n') } : {}), ...(values['tax-id'] !== undefined ? { tax_id: values['tax-id'] } : {}) };
    out.show(Object.keys(body).length ? await call(conn, 'PUT', url, body) : await call(conn, 'GET', url), one(`billing details of ${account}`));
  } else return false;
  return true;
}
