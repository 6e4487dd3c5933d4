// `hostcloud admin billing run|overdue`: a billing pass now, and the accounts with unpaid charges.
import { type Out, parse, positionals } from './admin-args.ts';
import { listing, text } from './admin-format.ts';
import { type Conn, type Json, call } from './admin-http.ts';

export const BILLING_USAGE = {
  run: 'hostcloud admin billing run',
  overdue: 'hostcloud admin billing overdue [--page N]',
};

function passText(a: Json): string {
  const r = a.data as Record<string, unknown>;
  return [
    'Billing pass done',
    ...Object.entries(r).map(([k, v]) => `  ${k.padEnd(16)}${text(v)}`),
  ].join('\n');
}

/** Runs a `billing` command; false when `action` is not one. */
export async function billingCommand(conn: Conn, out: Out, action: string | undefined, args: string[]): Promise<boolean> {
  if (action === 'run') {
    positionals(parse(args, {}, BILLING_USAGE.run).positionals, [], BILLING_USAGE.run);
    out.show(await call(conn, 'POST', '/billing/run'), passText);
  } else if (action === 'overdue') {
    const { values, positionals: pos } = parse(args, { page: { type: 'string' } }, BILLING_USAGE.overdue);
    positionals(pos, [], BILLING_USAGE.overdue);
    const query = new URLSearchParams({ per_page: '100' });
    if (values.page !== undefined) query.set('page', values.page);
    out.show(await call(conn, 'GET', `/billing/overdue?${query}`), (a) => listing(a as never, 'all', 'overdue accounts'));
  } else return false;
  return true;
}
