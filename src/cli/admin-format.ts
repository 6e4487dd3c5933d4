// Human-readable output of `hostcloud admin`: a record as aligned "key  value" lines, a list as a
// table with a page footer. `--json` prints the API's answer instead (for scripts).

type Row = Record<string, unknown>;

function isMoney(v: unknown): v is { amount: string; currency: string } {
  return typeof v === 'object' && v !== null && 'amount' in v && 'currency' in v && Object.keys(v).length === 2;
}

/** One value as text: money as "12.50 USD", lists comma-separated, nothing as "-". */
export function text(v: unknown): string {
  if (v === null || v === undefined) return '-';
  if (isMoney(v)) return `${v.amount} ${v.currency}`;
  if (Array.isArray(v)) return v.length ? v.map(text).join(', ') : '-';
  if (typeof v === 'object') return Object.entries(v).map(([k, x]) => `${k} ${text(x)}`).join(', ');
  return String(v);
}

/** `key  value` lines, keys aligned; nested objects (not money) flatten to `parent.child`. */
export function record(obj: Row, indent = '  '): string {
  const flat: [string, string][] = [];
  const walk = (o: Row, prefix: string) => {
    for (const [k, v] of Object.entries(o)) {
      if (typeof v === 'object' && v !== null && !Array.isArray(v) && !isMoney(v)) walk(v as Row, `${prefix}${k}.`);
      else flat.push([`${prefix}${k}`, text(v)]);
    }
  };
  walk(obj, '');
  const width = Math.max(0, ...flat.map(([k]) => k.length));
  return flat.map(([k, v]) => `${indent}${k.padEnd(width)}  ${v}`).join('\n');
}

export interface Column {
  header: string;
  get(row: Row): unknown;
}

/** Columns named after fields, in order; a field missing from a row shows "-". */
export function columns(...names: string[]): Column[] {
  return names.map((n) => ({ header: n.toUpperCase(), get: (r) => r[n] }));
}

/** Every scalar field of the rows, in the order the first row has them. */
export function columnsOf(rows: Row[]): Column[] {
  return columns(...Object.keys(rows[0] ?? {}));
}

export function table(rows: Row[], cols: Column[]): string {
  const cells = rows.map((r) => cols.map((c) => text(c.get(r)).replace(/\s+/g, ' ')));
  const widths = cols.map((c, i) => Math.max(c.header.length, ...cells.map((r) => r[i]!.length)));
  const line = (parts: string[]) => parts.map((p, i) => (i === parts.length - 1 ? p : p.padEnd(widths[i]!))).join('  ').trimEnd();
  return [line(cols.map((c) => c.header)), ...cells.map(line)].join('\n');
}

export interface Pagination { page: number; per_page: number; total: number; total_pages: number }

/** "page 1 of 3 (57 accounts); next: --page 2" */
export function footer(p: Pagination, noun: string): string {
  const pages = Math.max(1, p.total_pages);
  const next = p.page < p.total_pages ? `; next: --page ${p.page + 1}` : '';
  return `page ${p.page} of ${pages} (${p.total} ${p.total === 1 ? noun.replace(/s$/, '') : noun})${next}`;
}

/** A list answer as a table with its footer, or a line saying it is empty. */
export function listing(answer: { data: Row[]; meta: { pagination: Pagination } }, cols: Column[] | 'all', noun: string): string {
  const rows = answer.data;
  const p = answer.meta.pagination;
  if (rows.length === 0) return p.total > 0 ? `no ${noun} on page ${p.page} (${p.total} in all)` : `no ${noun}`;
  return `${table(rows, cols === 'all' ? columnsOf(rows) : cols)}\n${footer(p, noun)}`;
}
