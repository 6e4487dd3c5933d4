// `hostcloud admin servers list` across accounts, and the machine and service tables `nodes get`
// and `accounts get` add below their record. Tables fit a terminal of 120 columns.
import { type Out, parse, positionals, refuse } from './admin-args.ts';
import { type Column, listing, table } from './admin-format.ts';
import { type Conn, type Json, call } from './admin-http.ts';

export const SERVERS_LIST_USAGE = 'hostcloud admin servers list [--account ACCOUNT_ID] [--node NODE_ID] [--status pending|active|suspended|cancelled|deleted] [--page N] [--per-page N]';
const STATUSES = ['pending', 'active', 'suspended', 'cancelled', 'deleted'];

type Row = Record<string, unknown>;

/** Long free text cut to `n` characters, so that a row keeps to its width. */
const cut = (n: number) => (v: unknown) => {
  const s = v === null || v === undefined ? '-' : String(v);
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
};

// ids 20 + 20, name 18, status 9, power 7, node 12, IPv4 15, and 2 between each: 113.
const MACHINE_COLUMNS: Column[] = [
  { header: 'ID', get: (r) => r.id }, { header: 'ACCOUNT', get: (r) => r.account_id }, { header: 'NAME', get: (r) => cut(18)(r.name) },
  { header: 'STATUS', get: (r) => (r.deleted_at ? 'deleted' : r.status) }, { header: 'POWER', get: (r) => r.power_state },
  { header: 'NODE', get: (r) => cut(12)(r.node_name ?? r.node_id) }, { header: 'IPV4', get: (r) => r.ipv4 },
];

const whole = (v: string | undefined, flag: string, problems: string[]) => {
  if (v !== undefined && (!/^\d+$/.test(v) || Number(v) < 1)) problems.push(`${flag} must be a whole number of at least 1`);
};

export async function listServersCommand(conn: Conn, out: Out, args: string[]): Promise<void> {
  const usage = SERVERS_LIST_USAGE;
  const opts = Object.fromEntries(['account', 'node', 'status', 'page', 'per-page'].map((f) => [f, { type: 'string' as const }]));
  const { values, positionals: pos } = parse(args, opts, usage);
  positionals(pos, [], usage);
  const v = values as Record<string, string | undefined>;
  const problems: string[] = [];
  for (const f of ['node', 'page', 'per-page']) whole(v[f], `--${f}`, problems);
  if (v.status !== undefined && !STATUSES.includes(v.status)) problems.push(`--status must be one of ${STATUSES.join(', ')}`);
  if (problems.length) refuse([...problems, `usage: ${usage}`]);
  const q = new URLSearchParams();
  for (const [flag, param] of [['account', 'account_id'], ['node', 'node_id'], ['status', 'status'], ['page', 'page'], ['per-page', 'per_page']] as const) {
    if (v[flag] !== undefined) q.set(param, v[flag]!);
  }
  const answer = await call(conn, 'GET', `/servers${q.size ? `?${q}` : ''}`);
  out.show(answer, (a) => listing(a as never, MACHINE_COLUMNS, 'servers'));
}

/** "servers (2 of 2):" and their table, or "servers: none". */
function section(noun: string, answer: Json, cols: Column[]): string {
  const rows = answer.data as Row[];
  const total = (answer.meta as { pagination: { total: number } }).pagination.total;
  if (rows.length === 0) return `${noun}: none`;
  const more = total > rows.length ? ` (${rows.length} of ${total}; the rest: --json or the list commands)` : ` (${total})`;
  return `${noun}${more}:\n${table(rows, cols)}`;
}

/** What runs on a node: its servers and VDC VMs (100 of each at most). */
export async function nodeMachines(conn: Conn, nodeId: string): Promise<string> {
  const id = encodeURIComponent(nodeId);
  const [servers, vms] = await Promise.all([call(conn, 'GET', `/servers?node_id=${id}&per_page=100`), call(conn, 'GET', `/vdc-vms?node_id=${id}&per_page=100`)]);
  return [section('servers', servers, MACHINE_COLUMNS), section('VDC VMs', vms, MACHINE_COLUMNS)].join('\n');
}

/** An account's services of every kind (100 at most). */
export async function accountServices(conn: Conn, accountId: string): Promise<string> {
  const answer = await call(conn, 'GET', `/accounts/${encodeURIComponent(accountId)}/services?per_page=100`);
  return section('services', answer, [
    { header: 'TYPE', get: (r) => r.type }, { header: 'ID', get: (r) => r.id }, { header: 'NAME', get: (r) => cut(50)(r.name) },
    { header: 'STATUS', get: (r) => r.status }, { header: 'CREATED', get: (r) => String(r.created_at ?? '-').slice(0, 10) },
  ]);
}
