// PDF documents with pdfkit and its built-in standard fonts (Helvetica: nothing is fetched, nothing
// embedded). The standard fonts cover Latin-1 (WinAnsi); a character outside it prints as "?"
// rather than as a wrong glyph. Each document is a pure function of stored data: the same invoice
// renders the same text every time (its creation date is the issue date).
import { createRequire } from 'node:module';
import type PDFKitDocument from 'pdfkit';

// Loaded on first use: pdfkit and its font code cost every process that imports the app (the API,
// each worker, each test file) about 0.2 s of CPU at start, and most never render a document.
let pdfkit: typeof PDFKitDocument | undefined;
const PDFDocument = () => (pdfkit ??= createRequire(import.meta.url)('pdfkit') as typeof PDFKitDocument);

export type Pdf = PDFKit.PDFDocument;

export const MARGIN = 50;
export const PAGE_WIDTH = 595.28; // A4
export const PAGE_HEIGHT = 841.89;
export const RIGHT = PAGE_WIDTH - MARGIN;

/** Text the standard fonts can print. */
export function printable(text: string): string {
  return text.normalize('NFC').replace(/[^\n\x20-\x7e\xa0-\xff\u20ac]/g, '?');
}

/** Builds a document and answers its bytes. */
export function renderPdf(info: { title: string; createdAt: Date }, draw: (doc: Pdf) => void): Promise<Buffer> {
  const Document = PDFDocument();
  const doc = new Document({ size: 'A4', margin: MARGIN, info: { Title: printable(info.title), Producer: 'Hostcloud', Creator: 'Hostcloud', CreationDate: info.createdAt } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  draw(doc);
  doc.end();
  return done;
}

/** A line of text at (x, y), right-aligned to `right` when given. */
export function at(doc: Pdf, text: string, x: number, y: number, opts: { right?: number; width?: number; bold?: boolean; size?: number } = {}): void {
  doc.font(opts.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(opts.size ?? 10);
  const t = printable(text);
  if (opts.right !== undefined) {
    const w = opts.width ?? 120;
    doc.text(t, opts.right - w, y, { width: w, align: 'right', lineBreak: false });
  } else {
    doc.text(t, x, y, { width: opts.width, lineBreak: opts.width !== undefined });
  }
}

/** Lines of a block (an address), each on its own line; answers the y below it. */
export function block(doc: Pdf, lines: (string | null | undefined)[], x: number, y: number, width = 240): number {
  doc.font('Helvetica').fontSize(10);
  let yy = y;
  for (const l of lines.flatMap((s) => (s ? s.split(/\r?\n/) : [])).filter((s) => s.trim() !== '')) {
    doc.text(printable(l), x, yy, { width, lineBreak: false, ellipsis: true });
    yy += 13;
  }
  return yy;
}

export function rule(doc: Pdf, y: number): void {
  doc.moveTo(MARGIN, y).lineTo(RIGHT, y).lineWidth(0.5).strokeColor('#888888').stroke();
}

/** 2026-03-14 (UTC). */
export function day(d: Date): string {
  return d.toISOString().slice(0, 10);
}
