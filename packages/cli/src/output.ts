// -o table|wide|json|yaml. JSON and YAML print the API's data as it is (a list as an array of
// every item of every page); a table shows chosen columns of a list (`wide` adds the extra ones,
// `--columns` picks them), or an object's fields as FIELD  VALUE lines (nested objects flattened
// to dotted names).
import { UsageError } from './errors.js';

export type Format = 'table' | 'json' | 'yaml';
/** What -o takes: `wide` is a table with the extra columns. */
export const FORMATS = ['table', 'wide', 'json', 'yaml'] as const;

export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  /** Shown only with -o wide (or when named in --columns). */
  wide?: boolean;
}

export function parseFormat(value: string | undefined, isTTY: boolean): { format: Format; wide: boolean } {
  if (value === undefined) return { format: isTTY ? 'table' : 'json', wide: false };
  if (!(FORMATS as readonly string[]).includes(value)) throw new UsageError(`-o must be one of ${FORMATS.join(', ')}, got "${value}"`);
  return value === 'wide' ? { format: 'table', wide: true } : { format: value as Format, wide: false };
}

/** The columns a table shows: --columns (by header, any case, in the order given), else the default ones or, wide, all. */
export function chooseColumns<T>(columns: Column<T>[], wide: boolean, names: string[] | undefined): Column<T>[] {
  if (!names) return columns.filter((c) => wide || !c.wide);
  const key = (h: string) => h.toLowerCase().replace(/[\s_-]+/g, '');
  return names.map((n) => {
    const c = columns.find((col) => key(col.header) === key(n));
    if (!c) throw new UsageError(`--columns: no column "${n}"; this list has ${columns.map((col) => col.header.toLowerCase()).join(', ')}`);
    return c;
  });
}

function cell(v: unknown): string {
  if (v === null || v === undefined) return '-';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v).replace(/[\r\n\t]+/g, ' ');
}

/** Money as `12.50 USD`. */
export function money(m: { amount?: string; currency?: string } | null | undefined): string {
  return m?.amount ? `${m.amount} ${m.currency ?? ''}`.trim() : '-';
}

export function table(rows: string[][], header: string[] | null): string {
  const all = header ? [header, ...rows] : rows;
  if (all.length === 0) return '';
  const widths = all[0]!.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  return all.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('   ').trimEnd()).join('\n') + '\n';
}

/** `{a: {b: 1}, c: [1]}` → [['a.b', '1'], ['c', '[1]']]. */
export function flatten(value: unknown, prefix = ''): [string, string][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [[prefix || 'value', cell(value)]];
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(value)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0) out.push(...flatten(v, key));
    else out.push([key, Array.isArray(v) && v.every((x) => typeof x !== 'object') ? v.join(', ') || '-' : cell(v)]);
  }
  return out;
}

export async function serialise(data: unknown, format: Exclude<Format, 'table'>): Promise<string> {
  if (format === 'json') return `${JSON.stringify(data, null, 2)}\n`;
  // Loaded only when asked for: most runs never print YAML.
  const { stringify } = await import('yaml');
  return stringify(data);
}

export interface Printer {
  format: Format;
  header: boolean;
  /** -o wide. */
  wide: boolean;
  /** --columns, split. */
  columns?: string[] | undefined;
  write(text: string): void;
}

/** One object: all its fields as a table, or the whole of it as JSON/YAML. */
export async function printObject(p: Printer, data: unknown): Promise<void> {
  if (p.format !== 'table') return p.write(await serialise(data, p.format));
  p.write(table(flatten(data).map(([k, v]) => [k, v]), p.header ? ['FIELD', 'VALUE'] : null));
}

/** A list: the columns as a table, or every item as JSON/YAML. */
export async function printList<T>(p: Printer, items: T[], columns: Column<T>[]): Promise<void> {
  if (p.format !== 'table') return p.write(await serialise(items, p.format));
  const shown = chooseColumns(columns, p.wide, p.columns);
  p.write(table(items.map((row) => shown.map((c) => cell(c.value(row)))), p.header ? shown.map((c) => c.header) : null));
}
