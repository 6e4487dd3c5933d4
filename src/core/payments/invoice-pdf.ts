// The PDF of an invoice or credit note: the issuer, the customer as they were at issue, the
// number and date, one line with net, tax and gross, the totals, and the operator's footer.
import type { Invoice } from '../../db/schema.ts';
import { formatCents } from '../money.ts';
import { MARGIN, RIGHT, at, block, day, renderPdf, rule } from './pdf.ts';
import { formatRate } from './tax.ts';

/** `creditedNumber`: for a credit note, the number of the invoice it corrects. */
export function renderInvoicePdf(inv: Invoice, creditedNumber: string | null): Promise<Buffer> {
  const title = inv.kind === 'credit_note' ? 'Credit note' : 'Invoice';
  return renderPdf({ title: `${title} ${inv.number}`, createdAt: inv.issued_at }, (doc) => {
    const seller = inv.seller;
    const buyer = inv.buyer;
    // The brand (saved branding at issue) heads the page in its colour; the legal seller follows.
    let top = MARGIN;
    if (seller.brand) {
      doc.fillColor(seller.brand.color);
      at(doc, seller.brand.name, MARGIN, MARGIN, { bold: true, size: 18, width: 280 });
      doc.fillColor('#000000');
      top += 26;
    }
    if (!seller.brand || seller.name !== seller.brand.name) {
      at(doc, seller.name || 'Hostcloud', MARGIN, top, seller.brand ? { bold: true, size: 10 } : { bold: true, size: 14 });
      top += seller.brand ? 14 : 20;
    }
    block(doc, [seller.address, seller.tax_id ? `Tax ID: ${seller.tax_id}` : null], MARGIN, top);

    at(doc, title.toUpperCase(), 0, MARGIN, { right: RIGHT, width: 200, bold: true, size: 16 });
    at(doc, `Number: ${inv.number}`, 0, MARGIN + 22, { right: RIGHT, width: 240 });
    at(doc, `Date: ${day(inv.issued_at)}`, 0, MARGIN + 35, { right: RIGHT, width: 240 });
    if (creditedNumber) at(doc, `Refers to invoice ${creditedNumber}`, 0, MARGIN + 48, { right: RIGHT, width: 240 });

    let y = 170;
    at(doc, 'Bill to', MARGIN, y, { bold: true });
    y = block(doc, [
      buyer.company ? `${buyer.company}` : null, buyer.name, buyer.address, buyer.country ? `Country: ${buyer.country}` : null,
      buyer.email, buyer.tax_id ? `Tax ID: ${buyer.tax_id}` : null,
    ], MARGIN, y + 15);

    y = Math.max(y + 25, 280);
    const cols = { net: RIGHT - 240, tax: RIGHT - 120, gross: RIGHT };
    at(doc, 'Description', MARGIN, y, { bold: true });
    at(doc, `Net (${inv.currency})`, 0, y, { right: cols.net, width: 100, bold: true });
    at(doc, `${inv.tax_label} ${formatRate(inv.tax_rate_bp)}%`, 0, y, { right: cols.tax, width: 100, bold: true });
    at(doc, `Gross (${inv.currency})`, 0, y, { right: cols.gross, width: 100, bold: true });
    rule(doc, y + 14);
    y += 22;
    doc.font('Helvetica').fontSize(10).text(inv.description.replace(/[^\x20-\x7e\xa0-\xff]/g, '?'), MARGIN, y, { width: cols.net - 110 - MARGIN });
    at(doc, formatCents(inv.net_cents), 0, y, { right: cols.net, width: 100 });
    at(doc, formatCents(inv.tax_cents), 0, y, { right: cols.tax, width: 100 });
    at(doc, formatCents(inv.gross_cents), 0, y, { right: cols.gross, width: 100 });
    y = Math.max(doc.y, y + 13) + 10;
    rule(doc, y);
    y += 12;

    const total = (label: string, cents: number, bold = false) => {
      at(doc, label, 0, y, { right: RIGHT - 110, width: 200, bold });
      at(doc, `${formatCents(cents)} ${inv.currency}`, 0, y, { right: RIGHT, width: 110, bold });
      y += 15;
    };
    total('Net', inv.net_cents);
    total(`${inv.tax_label} (${formatRate(inv.tax_rate_bp)}%)`, inv.tax_cents);
    total(inv.kind === 'credit_note' ? 'Total credited' : 'Total paid', inv.gross_cents, true);

    if (inv.reason) {
      y += 10;
      at(doc, `Reason: ${inv.reason}`, MARGIN, y, { width: RIGHT - MARGIN });
    }
    if (seller.footer) {
      doc.font('Helvetica').fontSize(8).fillColor('#444444');
      doc.text(seller.footer.replace(/[^\n\x20-\x7e\xa0-\xff]/g, '?'), MARGIN, 760, { width: RIGHT - MARGIN, align: 'center' });
      doc.fillColor('#000000');
    }
  });
}
