// The PDF of a monthly statement: the account, the month, opening and closing balance, the
// month's totals, and every ledger row with the running balance (on as many pages as it takes).
import { getInvoiceSettingsRow } from '../../db/queries/invoices.ts';
import { formatCents } from '../money.ts';
import type { Db } from '../types.ts';
import { MARGIN, PAGE_HEIGHT, RIGHT, at, day, renderPdf, rule } from './pdf.ts';
import type { Statement } from './statement.ts';

const TYPE: Record<string, string> = { deposit: 'Deposit', refund: 'Refund', withdraw: 'Charge' };

export function renderStatementPdf(s: Statement, issuer: string, createdAt: Date): Promise<Buffer> {
  return renderPdf({ title: `Statement ${s.month} ${s.accountId}`, createdAt }, (doc) => {
    at(doc, issuer || 'Hostcloud', MARGIN, MARGIN, { bold: true, size: 14 });
    at(doc, 'ACCOUNT STATEMENT', 0, MARGIN, { right: RIGHT, width: 240, bold: true, size: 16 });
    at(doc, `Month: ${s.month}`, 0, MARGIN + 22, { right: RIGHT, width: 240 });
    at(doc, `Account: ${s.accountId}`, 0, MARGIN + 35, { right: RIGHT, width: 240 });
    let y = MARGIN + 30;
    for (const l of [s.account.company, s.account.name, s.account.email]) {
      if (!l) continue;
      at(doc, l, MARGIN, y);
      y += 13;
    }
    y = Math.max(y, MARGIN + 60) + 20;
    const money = (c: number) => `${formatCents(c)} USD`;
    for (const [label, cents] of [
      ['Opening balance', s.openingCents], ['Deposits', s.depositsCents], ['Refunds', s.refundsCents], ['Charges', -s.chargesCents], ['Closing balance', s.closingCents],
    ] as const) {
      at(doc, label, MARGIN, y, { bold: label.endsWith('balance') });
      at(doc, money(cents), 0, y, { right: MARGIN + 300, width: 120, bold: label.endsWith('balance') });
      y += 14;
    }
    y += 16;
    const header = () => {
      at(doc, 'Date', MARGIN, y, { bold: true });
      at(doc, 'Type', MARGIN + 70, y, { bold: true });
      at(doc, 'Description', MARGIN + 130, y, { bold: true });
      at(doc, 'Amount', 0, y, { right: RIGHT - 80, width: 80, bold: true });
      at(doc, 'Balance', 0, y, { right: RIGHT, width: 80, bold: true });
      rule(doc, y + 13);
      y += 20;
    };
    header();
    if (s.lines.length === 0) at(doc, 'No transactions this month.', MARGIN, y);
    for (const l of s.lines) {
      if (y > PAGE_HEIGHT - MARGIN - 20) {
        doc.addPage();
        y = MARGIN;
        header();
      }
      doc.fontSize(9);
      at(doc, day(l.at), MARGIN, y, { size: 9 });
      at(doc, TYPE[l.type] ?? l.type, MARGIN + 70, y, { size: 9 });
      at(doc, l.description.length > 60 ? `${l.description.slice(0, 57)}...` : l.description, MARGIN + 130, y, { size: 9 });
      at(doc, formatCents(l.amountCents), 0, y, { right: RIGHT - 80, width: 80, size: 9 });
      at(doc, formatCents(l.balanceCents), 0, y, { right: RIGHT, width: 80, size: 9 });
      y += 13;
    }
  });
}

/** The statement's PDF, under the operator's company name. */
export async function statementPdf(db: Db, s: Statement, now: Date): Promise<Buffer> {
  const settings = await getInvoiceSettingsRow(db);
  return renderStatementPdf(s, settings.company_name, now);
}
