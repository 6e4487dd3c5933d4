// `hostcloud admin vdc-pool get|set`: an account's VDC pool. Input is checked before anything is
// sent; the API's refusals (a total below what the VMs use) come back in the command's flags.
import { parseAmount } from '../core/money.ts';
import { MAX_BUCKET_TOTAL } from '../core/vdc/pool.ts';
import { BUCKETS } from '../core/vdc/quota.ts';
import { type Out, parse, positionals, refuse } from './admin-args.ts';
import { table, text } from './admin-format.ts';
import { type Conn, type FlagOf, type Json, call, worded } from './admin-http.ts';

export const VDC_USAGE = {
  get: 'hostcloud admin vdc-pool get ACCOUNT_ID',
  set: 'hostcloud admin vdc-pool set ACCOUNT_ID [--cpu N] [--ram-mb N] [--storage-gb N] [--ipv4 N] [--ipv6 N] [--bandwidth-mbit N] [--monthly-price AMOUNT|none]',
};

/** Bucket (API field) → flag. */
const FLAGS: Record<(typeof BUCKETS)[number], string> = {
  cpu: 'cpu', ram_mb: 'ram-mb', storage_gb: 'storage-gb', ipv4: 'ipv4', ipv6: 'ipv6', bandwidth_mbit: 'bandwidth-mbit',
};

const flagOf: FlagOf = (field) => {
  if (field === 'monthly_price') return { name: '--monthly-price', hint: 'must be an amount like 250.00, or none' };
  const flag = FLAGS[field as keyof typeof FLAGS];
  return flag ? { name: `--${flag}` } : null;
};

type Row = Record<string, unknown>;

function poolText(a: Json, heading: string): string {
  const p = a.data as Row & { has_pool: boolean; monthly_price: unknown };
  const rows = BUCKETS.map((b) => ({ bucket: b, ...(p[b] as Row) }));
  const lines = [
    `${heading}${p.has_pool ? '' : ' (no pool yet: every bucket is 0)'}`,
    table(rows, [
      { header: 'BUCKET', get: (r) => r.bucket }, { header: 'TOTAL', get: (r) => r.total },
      { header: 'USED', get: (r) => r.used }, { header: 'AVAILABLE', get: (r) => r.available },
    ]),
    `monthly price: ${p.monthly_price === null ? 'not billed' : text(p.monthly_price)}`,
  ];
  return lines.join('\n');
}

async function setPool(conn: Conn, out: Out, args: string[]): Promise<void> {
  const usage = VDC_USAGE.set;
  const options = Object.fromEntries([...Object.values(FLAGS), 'monthly-price'].map((f) => [f, { type: 'string' as const }]));
  const { values, positionals: pos } = parse(args, options, usage);
  const [id] = positionals(pos, ['ACCOUNT_ID'], usage);
  const body: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const b of BUCKETS) {
    const v = values[FLAGS[b]] as string | undefined;
    if (v === undefined) continue;
    if (!/^\d+$/.test(v) || Number(v) > MAX_BUCKET_TOTAL) problems.push(`--${FLAGS[b]} must be a whole number from 0 to ${MAX_BUCKET_TOTAL}`);
    else body[b] = Number(v);
  }
  const price = values['monthly-price'] as string | undefined;
  if (price !== undefined) {
    if (price === 'none') body.monthly_price = null;
    else if (parseAmount(price.trim()) === null) problems.push('--monthly-price must be an amount like 250.00, or none');
    else body.monthly_price = price.trim();
  }
  if (problems.length) refuse(problems, 'nothing was changed');
  if (Object.keys(body).length === 0) refuse([`nothing to set: give at least one of --cpu, --ram-mb, --storage-gb, --ipv4, --ipv6, --bandwidth-mbit, --monthly-price\nusage: ${usage}`]);
  const answer = await worded(flagOf, () => call(conn, 'PUT', `/accounts/${encodeURIComponent(id!)}/vdc-pool`, body));
  out.show(answer, (a) => poolText(a, `VDC pool of ${id} set`));
}

/** Runs a `vdc-pool` command; false when `action` is not one. */
export async function vdcPoolCommand(conn: Conn, out: Out, action: string | undefined, args: string[]): Promise<boolean> {
  if (action === 'set') await setPool(conn, out, args);
  else if (action === 'get') {
    const [id] = positionals(parse(args, {}, VDC_USAGE.get).positionals, ['ACCOUNT_ID'], VDC_USAGE.get);
    const answer = await call(conn, 'GET', `/accounts/${encodeURIComponent(id!)}/vdc-pool`);
    out.show(answer, (a) => poolText(a, `VDC pool of ${id}`));
  } else return false;
  return true;
}
