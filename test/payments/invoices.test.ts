// Invoicing as the operator runs it: company details and prefix (admin API and CLI), the tax-rate
// table, invoices listed and downloaded (the PDF's text read back with poppler's pdftotext /
// pdftoppm: number, totals, tax), invoices immutable in the database, refunds of a deposit with
// credit notes (partial, full, too much, a balance that no longer holds it, a provider that
// errs or refuses — which uses no number), and monthly statements whose balances agree with the ledger.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { before, test } from 'node:test';
import { sql } from 'kysely';
import { runAdmin } from '../../src/cli/admin.ts';
import { type TestApp, adminCall, createCustomer, json, startApp } from '../helpers/app.ts';
import { assertLedger } from '../helpers/billing.ts';
import { clickCheckout, customerCall, instance, sessionOf, startTopUp } from '../helpers/payments.ts';
import type { App } from '../../src/http/app.ts';

let t: TestApp;
let app: App;
let url: string;
before(async () => {
  t = await startApp();
  app = await instance(t);
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});

const year = new Date().getUTCFullYear();

function run(cmd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => execFile(cmd, args, { timeout: 30_000 }, (err, stdout, stderr) =>
    resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout: String(stdout), stderr: String(stderr) })));
}

async function have(cmd: string): Promise<boolean> {
  return (await run('sh', ['-c', `command -v ${cmd}`])).code === 0;
}

/** The text of a PDF, read by poppler. */
async function pdfText(bytes: Buffer): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hc-pdf-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    await fs.writeFile(file, bytes);
    const r = await run('pdftotext', ['-layout', file, '-']);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runAdmin([`--url=${url}`, `--token=${t.adminToken}`, ...args], { stdout: (s) => { stdout += s; }, stderr: (s) => { stderr += s; } });
  return { code, stdout, stderr };
}

/** A paid top-up of `amount`: its payment, deposit id and invoice. */
async function paidTopUp(accountId: string, amount: string) {
  const started = await startTopUp(app, accountId, amount);
  assert.equal((await clickCheckout(app, sessionOf(started.checkout_url), 'pay')).statusCode, 303);
  const p = json(await customerCall(app, accountId, 'GET', `/top-ups/${started.id}`)).data;
  return { payment: p, depositId: p.deposit_id as number, invoice: json(await adminCall(t, 'GET', `/admin/v1/invoices/${p.invoice_id}`)).data };
}

test('invoice settings: read, set part by part, bad prefix refused; the CLI too', async () => {
  const first = json(await adminCall(t, 'GET', '/admin/v1/invoice-settings')).data;
  assert.equal(first.invoice_prefix, 'INV');
  const set = await adminCall(t, 'POST', '/admin/v1/invoice-settings', { company_name: 'Example Hosting GmbH', address: 'Hauptstr. 1\n10115 Berlin', tax_id: 'DE123456789' });
  assert.equal(set.statusCode, 200, set.body);
  assert.equal(json(set).data.invoice_prefix, 'INV', 'fields left out keep their value');
  for (const body of [{ invoice_prefix: 'inv' }, { invoice_prefix: 'A-B' }, { invoice_prefix: '' }, {}, { colour: 'red' }, { company_name: 'x'.repeat(201) }]) {
    const res = await adminCall(t, 'POST', '/admin/v1/invoice-settings', body);
    assert.equal(res.statusCode, 422, `${JSON.stringify(body)}: ${res.body}`);
  }
  const viaCli = await cli(['invoice-settings', 'set', '--prefix', 'EH', '--footer', 'Thank you for your business.']);
  assert.equal(viaCli.code, 0, viaCli.stderr);
  assert.match(viaCli.stdout, /invoice_prefix +EH/);
  const bad = await cli(['invoice-settings', 'set', '--prefix', 'e-h']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--prefix/);
  assert.equal((await cli(['invoice-settings', 'get'])).code, 0);
});

test('tax rates: set, list, change, delete; bad rates and countries refused; the CLI too', async () => {
  assert.equal(json(await adminCall(t, 'PUT', '/admin/v1/tax-rates/at', { rate: '20', label: 'USt' })).data.rate, '20.00');
  assert.equal(json(await adminCall(t, 'PUT', '/admin/v1/tax-rates/CH', { rate: '8.1' })).data.rate, '8.10');
  const list = json(await adminCall(t, 'GET', '/admin/v1/tax-rates')).data;
  assert.deepEqual(list.map((r: { country: string; rate: string; label: string }) => [r.country, r.rate, r.label]), [['AT', '20.00', 'USt'], ['CH', '8.10', 'Tax']]);
  for (const [country, rate] of [['AT', '101'], ['AT', '-1'], ['AT', '19.001'], ['AT', 'abc'], ['AUT', '5'], ['1X', '5']]) {
    const res = await adminCall(t, 'PUT', `/admin/v1/tax-rates/${country}`, { rate });
    assert.equal(res.statusCode, 422, `${country} ${rate}: ${res.body}`);
  }
  assert.equal((await adminCall(t, 'DELETE', '/admin/v1/tax-rates/CH')).statusCode, 200);
  assert.equal((await adminCall(t, 'DELETE', '/admin/v1/tax-rates/CH')).statusCode, 404);
  const viaCli = await cli(['tax-rates', 'set', 'fr', '20.00', '--label', 'TVA']);
  assert.equal(viaCli.code, 0, viaCli.stderr);
  assert.match((await cli(['tax-rates', 'list'])).stdout, /FR/);
  assert.equal((await cli(['tax-rates', 'delete', 'FR'])).code, 0);
});

test('an invoice PDF: number, the parties, net, tax and gross, readable by poppler; the operator and the customer download it', async (ctx) => {
  await adminCall(t, 'POST', '/admin/v1/invoice-settings', { company_name: 'Example Hosting GmbH', invoice_prefix: 'EH', footer: 'Registered in Berlin HRB 1234' });
  await adminCall(t, 'PUT', '/admin/v1/tax-rates/DE', { rate: '19', label: 'VAT' });
  const c = await createCustomer(t);
  await adminCall(t, 'PATCH', `/admin/v1/accounts/${c.accountId}`, { country: 'DE', company: 'Lovelace Analytics' });
  await adminCall(t, 'PUT', `/admin/v1/accounts/${c.accountId}/billing-details`, { address: '12 Engine Road\nLondon', tax_id: 'GB987654321' });
  const { invoice } = await paidTopUp(c.accountId, '100.00');
  assert.match(invoice.number, new RegExp(`^EH-${year}-\\d{6}$`));
  assert.deepEqual([invoice.net.amount, invoice.tax.amount, invoice.gross.amount, invoice.tax_rate], ['100.00', '19.00', '119.00', '19.00']);
  assert.equal(invoice.buyer.tax_id, 'GB987654321');
  assert.equal(invoice.seller.name, 'Example Hosting GmbH');

  const list = json(await adminCall(t, 'GET', `/admin/v1/invoices?account_id=${c.accountId}`));
  assert.deepEqual(Object.keys(list.data[0]).filter((k) => ['id', 'number', 'account_id', 'issued_at', 'net', 'tax', 'gross', 'kind', 'deposit_id'].includes(k)).length, 9);
  const pdf = await adminCall(t, 'GET', `/admin/v1/invoices/${invoice.id}/pdf`);
  assert.equal(pdf.statusCode, 200);
  assert.equal(pdf.headers['content-type'], 'application/pdf');
  assert.match(pdf.headers['content-disposition'] as string, new RegExp(`filename="${invoice.number}\\.pdf"`));
  const customer = await customerCall(app, c.accountId, 'GET', `/invoices/${invoice.id}/pdf`);
  assert.deepEqual(customer.rawPayload, pdf.rawPayload, 'the same document, every time');

  if (!(await have('pdftotext'))) {
    ctx.skip('poppler-utils (pdftotext) is not installed');
    return;
  }
  const text = await pdfText(pdf.rawPayload);
  for (const expected of [
    'INVOICE', `Number: ${invoice.number}`, 'Example Hosting GmbH', 'Lovelace Analytics', '12 Engine Road', 'Tax ID: GB987654321', 'Country: DE',
    /Net +100\.00 USD/, /VAT \(19\.00%\) +19\.00 USD/, /Total paid +119\.00 USD/, 'Registered in Berlin HRB 1234',
  ]) {
    if (typeof expected === 'string') assert.ok(text.includes(expected), `${expected} in:\n${text}`);
    else assert.match(text, expected);
  }
  if (await have('pdftoppm')) {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hc-ppm-'));
    await fs.writeFile(path.join(dir, 'i.pdf'), pdf.rawPayload);
    const r = await run('pdftoppm', ['-png', '-r', '50', path.join(dir, 'i.pdf'), path.join(dir, 'page')]);
    assert.equal(r.code, 0, r.stderr);
    const pages = (await fs.readdir(dir)).filter((f) => f.endsWith('.png'));
    assert.equal(pages.length, 1, 'one page');
    assert.ok((await fs.stat(path.join(dir, pages[0]!))).size > 1000, 'a page with something on it');
    await fs.rm(dir, { recursive: true, force: true });
  }

  // The CLI writes the same PDF.
  const out = path.join(os.tmpdir(), `hc-inv-${process.pid}.pdf`);
  const viaCli = await cli(['invoices', 'pdf', invoice.id, '--output', out]);
  assert.equal(viaCli.code, 0, viaCli.stderr);
  assert.deepEqual(await fs.readFile(out), pdf.rawPayload);
  await fs.rm(out, { force: true });
  const listed = (await cli(['invoices', 'list'])).stdout;
  assert.match(listed, new RegExp(invoice.number));
  assert.match(listed, /^ID +NUMBER +KIND +ACCOUNT +ISSUED +NET +TAX +GROSS\n/);
  for (const line of listed.split('\n')) assert.ok(line.length <= 120, `fits 120 columns (${line.length}): ${line}`);

  // Issued details do not follow later changes.
  await adminCall(t, 'POST', '/admin/v1/invoice-settings', { company_name: 'Renamed Ltd' });
  assert.equal(json(await adminCall(t, 'GET', `/admin/v1/invoices/${invoice.id}`)).data.seller.name, 'Example Hosting GmbH');
  await adminCall(t, 'POST', '/admin/v1/invoice-settings', { company_name: 'Example Hosting GmbH', invoice_prefix: 'INV' });
});

test('an issued invoice cannot be changed or deleted, not even with SQL', async () => {
  const c = await createCustomer(t);
  const { invoice } = await paidTopUp(c.accountId, '5.00');
  await assert.rejects(sql`UPDATE invoices SET gross_cents = 1 WHERE id = ${invoice.id}`.execute(t.database.db), /immutable/);
  await assert.rejects(sql`DELETE FROM invoices WHERE id = ${invoice.id}`.execute(t.database.db), /immutable/);
  const row = await t.database.db.selectFrom('invoices').select('gross_cents').where('id', '=', invoice.id).executeTakeFirstOrThrow();
  assert.equal(row.gross_cents, 500);
  assert.equal((await adminCall(t, 'PATCH', `/admin/v1/invoices/${invoice.id}`, { net: '1.00' })).statusCode, 405);
  assert.equal((await adminCall(t, 'GET', '/admin/v1/invoices/inv_nope')).statusCode, 404);
});

test('refund of a deposit: credit notes referring to the invoice, partial then the rest; too much, twice, an operator deposit, a short balance refused', async (ctx) => {
  await adminCall(t, 'PUT', '/admin/v1/tax-rates/DE', { rate: '19', label: 'VAT' });
  const c = await createCustomer(t);
  await adminCall(t, 'PATCH', `/admin/v1/accounts/${c.accountId}`, { country: 'DE' });
  const { depositId, invoice, payment } = await paidTopUp(c.accountId, '50.00');
  const sim = () => t.database.db.selectFrom('sim_payments').select('refunded_cents').where('reference', '=', payment.id).executeTakeFirstOrThrow();

  const tooMuch = await adminCall(t, 'POST', `/admin/v1/deposits/${depositId}/refunds`, { amount: '50.01' });
  assert.equal(tooMuch.statusCode, 422, tooMuch.body);
  assert.equal(json(tooMuch).error.errors[0].field, 'amount');

  const part = await adminCall(t, 'POST', `/admin/v1/deposits/${depositId}/refunds`, { amount: '20.00', reason: 'Partly unused' });
  assert.equal(part.statusCode, 201, part.body);
  const note = json(part).data;
  assert.equal(note.kind, 'credit_note');
  assert.match(note.number, new RegExp(`^INV-CN-${year}-000001$`));
  assert.equal(note.credited_invoice_id, invoice.id);
  assert.equal(note.deposit_id, depositId);
  assert.deepEqual([note.net.amount, note.tax.amount, note.gross.amount], ['20.00', '3.80', '23.80']);
  assert.equal(await assertLedger(t, c.accountId), 3000);
  assert.equal((await sim()).refunded_cents, 2380, 'the gross went back through the provider');

  // The rest: exactly the tax that is left, so the credit notes add up to the invoice.
  const rest = json(await adminCall(t, 'POST', `/admin/v1/deposits/${depositId}/refunds`, { reason: 'Closing the account' })).data;
  assert.deepEqual([rest.net.amount, rest.tax.amount, rest.gross.amount], ['30.00', '5.70', '35.70']);
  assert.equal(rest.number, `INV-CN-${year}-000002`);
  assert.equal((await sim()).refunded_cents, 5950);
  assert.equal(await assertLedger(t, c.accountId), 0);
  const again = await adminCall(t, 'POST', `/admin/v1/deposits/${depositId}/refunds`, {});
  assert.equal(again.statusCode, 409);
  assert.match(json(again).error.message, /refunded in full/);

  // The customer sees and downloads the credit note, which names the invoice.
  const own = json(await customerCall(app, c.accountId, 'GET', '/invoices')).data;
  assert.deepEqual(own.map((i: { kind: string }) => i.kind).sort(), ['credit_note', 'credit_note', 'invoice']);
  if (await have('pdftotext')) {
    const text = await pdfText((await customerCall(app, c.accountId, 'GET', `/invoices/${note.id}/pdf`)).rawPayload);
    assert.match(text, /CREDIT NOTE/);
    assert.ok(text.includes(`Refers to invoice ${invoice.number}`), text);
    assert.match(text, /Total credited +23\.80 USD/);
  } else ctx.diagnostic('pdftotext missing: the credit note PDF text is not checked');

  // A balance that no longer holds the refund: refused, nothing written, no number used.
  const d = await paidTopUp(c.accountId, '10.00');
  await adminCall(t, 'POST', `/admin/v1/accounts/${c.accountId}/deposits`, { amount: '1.00' });
  await sql`INSERT INTO transactions (account_id, type, amount_cents, description) VALUES (${c.accountId}, 'withdraw', 1050, 'spent')`.execute(t.database.db);
  const short = await adminCall(t, 'POST', `/admin/v1/deposits/${d.depositId}/refunds`, {});
  assert.equal(short.statusCode, 422, short.body);
  assert.equal(json(short).error.code, 'INSUFFICIENT_BALANCE');

  // An operator's deposit has no invoice to credit; an unknown deposit is not found.
  const op = await t.database.db.selectFrom('transactions').select('id').where('account_id', '=', c.accountId).where('description', '=', 'Deposit').executeTakeFirstOrThrow();
  assert.equal((await adminCall(t, 'POST', `/admin/v1/deposits/${op.id}/refunds`, {})).statusCode, 409);
  assert.equal((await adminCall(t, 'POST', '/admin/v1/deposits/999999999/refunds', {})).statusCode, 404);
  assert.equal((await adminCall(t, 'POST', '/admin/v1/deposits/abc/refunds', {})).statusCode, 422);
});

test('gapless under failures: a refund the provider errs on stays pending (amount reserved, no credit note, no number) and the next try finishes it; one it refuses gives the amount back', async () => {
  const c = await createCustomer(t);
  const { depositId } = await paidTopUp(c.accountId, '8.00');
  const before = await t.database.db.selectFrom('invoice_counters').select('last_number').where('series', '=', 'credit_note').where('year', '=', year).executeTakeFirst();
  await adminCall(t, 'PUT', '/admin/v1/providers/payments/fault', { mode: 'upstream_error', remaining: 1, calls: ['refund'] });
  const erred = await adminCall(t, 'POST', `/admin/v1/deposits/${depositId}/refunds`, {});
  assert.equal(erred.statusCode, 502, erred.body);
  assert.match(json(erred).error.message, /pending as rfd_/);
  assert.equal(await assertLedger(t, c.accountId), 0, 'the amount is reserved while the refund is pending');
  const after = await t.database.db.selectFrom('invoice_counters').select('last_number').where('series', '=', 'credit_note').where('year', '=', year).executeTakeFirst();
  assert.equal(after?.last_number, before?.last_number, 'no credit note number used');
  const ok = json(await adminCall(t, 'POST', `/admin/v1/deposits/${depositId}/refunds`, {})).data;
  assert.equal(ok.number, `INV-CN-${year}-${String((before?.last_number ?? 0) + 1).padStart(6, '0')}`);
  assert.equal(await assertLedger(t, c.accountId), 0);

  const d = await paidTopUp(c.accountId, '6.00');
  await adminCall(t, 'PUT', '/admin/v1/providers/payments/fault', { mode: 'capacity_unavailable', remaining: 1, calls: ['refund'] });
  const refused = await adminCall(t, 'POST', `/admin/v1/deposits/${d.depositId}/refunds`, {});
  assert.equal(refused.statusCode, 502, refused.body);
  assert.match(json(refused).error.message, /refused/);
  assert.equal(await assertLedger(t, c.accountId), 600, 'the amount is back on the balance');
  // Every number of both series, 1..n, each once.
  for (const series of ['invoice', 'credit_note'] as const) {
    const seqs = (await t.database.db.selectFrom('invoices').select('seq').where('kind', '=', series).where('year', '=', year).orderBy('seq').execute()).map((r) => r.seq);
    assert.deepEqual(seqs, Array.from({ length: seqs.length }, (_, i) => i + 1), series);
  }
});

test('monthly statement: opening and closing balances agree with the ledger; JSON, PDF, CLI; bad months refused', async (ctx) => {
  const c = await createCustomer(t, { deposit: '40.00' });
  await paidTopUp(c.accountId, '10.00');
  // A charge and a refund earlier this month would come from services; written directly here, in last month too.
  const now = new Date();
  const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15));
  await sql`INSERT INTO transactions (account_id, type, amount_cents, description, created_at) VALUES (${c.accountId}, 'deposit', 700, 'Old deposit', ${lastMonth})`.execute(t.database.db);
  await sql`INSERT INTO transactions (account_id, type, amount_cents, description) VALUES (${c.accountId}, 'withdraw', 1250, 'Server web-1: monthly cycle')`.execute(t.database.db);
  await sql`INSERT INTO transactions (account_id, type, amount_cents, description) VALUES (${c.accountId}, 'refund', 300, 'Refund: server deleted')`.execute(t.database.db);
  const month = now.toISOString().slice(0, 7);
  const prev = lastMonth.toISOString().slice(0, 7);
  const s = json(await adminCall(t, 'GET', `/admin/v1/accounts/${c.accountId}/statements/${month}`)).data;
  const p = json(await adminCall(t, 'GET', `/admin/v1/accounts/${c.accountId}/statements/${prev}`)).data;
  assert.equal(p.opening_balance.amount, '0.00');
  assert.equal(p.closing_balance.amount, '7.00');
  assert.equal(s.opening_balance.amount, p.closing_balance.amount, 'a month opens on what the last one closed on');
  assert.equal(s.closing_balance.amount, '47.50', '7.00 + 40.00 + 10.00 − 12.50 + 3.00');
  assert.equal(Math.round(Number(s.closing_balance.amount) * 100), await assertLedger(t, c.accountId), 'the current month closes on the balance');
  assert.deepEqual([s.deposits.amount, s.refunds.amount, s.charges.amount], ['50.00', '3.00', '12.50']);
  assert.equal(s.transactions.length, 4);
  assert.equal(s.transactions.at(-1).balance.amount, '47.50');
  const mine = json(await customerCall(app, c.accountId, 'GET', `/statements/${month}`)).data;
  assert.deepEqual(mine, s, 'the customer sees the same statement');

  for (const bad of ['2026-13', '26-01', 'march', '2999-01']) {
    const res = await adminCall(t, 'GET', `/admin/v1/accounts/${c.accountId}/statements/${bad}`);
    assert.equal(res.statusCode, 422, `${bad}: ${res.body}`);
  }
  assert.equal((await adminCall(t, 'GET', `/admin/v1/accounts/acc_nope/statements/${month}`)).statusCode, 404);

  const pdf = await customerCall(app, c.accountId, 'GET', `/statements/${month}/pdf`);
  assert.equal(pdf.statusCode, 200);
  assert.equal(pdf.headers['content-type'], 'application/pdf');
  if (await have('pdftotext')) {
    const text = await pdfText(pdf.rawPayload);
    assert.match(text, /ACCOUNT STATEMENT/);
    assert.match(text, /Opening balance +7\.00 USD/);
    assert.match(text, /Closing balance +47\.50 USD/);
    assert.match(text, /Server web-1: monthly cycle/);
  } else ctx.diagnostic('pdftotext missing: the statement PDF text is not checked');
  const viaCli = await cli(['statement', c.accountId, month]);
  assert.equal(viaCli.code, 0, viaCli.stderr);
  assert.match(viaCli.stdout, /closing_balance +47\.50 USD/);
});

test('the operator lists and refreshes payments; the CLI shows them', async () => {
  const c = await createCustomer(t);
  const started = await startTopUp(app, c.accountId, '6.00');
  const list = json(await adminCall(t, 'GET', `/admin/v1/payments?account_id=${c.accountId}&status=pending`));
  assert.deepEqual(list.data.map((p: { id: string }) => p.id), [started.id]);
  // Paid at the provider, its confirmation lost: the operator's refresh settles it.
  await t.database.db.updateTable('sim_payments').set({ status: 'paid', paid_at: new Date() }).where('id', '=', sessionOf(started.checkout_url)).execute();
  const r = await cli(['payments', 'refresh', started.id]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /status +paid/);
  assert.equal(await assertLedger(t, c.accountId), 600);
  assert.match((await cli(['payments', 'list', '--account', c.accountId])).stdout, new RegExp(started.id));
  assert.equal((await adminCall(t, 'GET', '/admin/v1/payments/pay_nope')).statusCode, 404);
  assert.equal((await adminCall(t, 'GET', '/admin/v1/payments?status=lost')).statusCode, 422);
  const details = await cli(['billing-details', c.accountId, '--address', 'Somewhere 1', '--tax-id', 'X1']);
  assert.equal(details.code, 0, details.stderr);
  assert.match((await cli(['billing-details', c.accountId])).stdout, /tax_id +X1/);
});

test('hostcloud admin refund: a credit note; the same --idempotency-key again answers the same one and refunds nothing more', async () => {
  const c = await createCustomer(t);
  const { depositId } = await paidTopUp(c.accountId, '10.00');
  const key = '6d0c1f4e-2b7a-4e39-8c51-0f9a7d3e2b14';
  const first = await cli(['--json', 'refund', String(depositId), '--amount', '4.00', '--idempotency-key', key]);
  assert.equal(first.code, 0, first.stderr);
  const again = await cli(['--json', 'refund', String(depositId), '--amount', '4.00', '--idempotency-key', key]);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(JSON.parse(again.stdout).data.id, JSON.parse(first.stdout).data.id);
  assert.equal(await assertLedger(t, c.accountId), 600, 'refunded once');
  const bad = await cli(['refund', String(depositId), '--idempotency-key', 'nope']);
  assert.equal(bad.code, 2, 'refused input, in the command\'s words');
  assert.match(bad.stderr, /--idempotency-key must be a UUID/);
});
