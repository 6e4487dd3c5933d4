// `hostcloud admin hosting-nodes list|get|add|check|disable|enable`: the native hosting driver's
// nodes. `add` prints Hostcloud's SSH public key first (made at first use), since the node must
// authorise it before it can be added.
import { HOSTING_NODE_HOST, HOSTING_NODE_NAME } from '../core/hosting/nodes.ts';
import { type Out, parse, positionals, refuse } from './admin-args.ts';
import { record, table } from './admin-format.ts';
import { type Conn, type FlagOf, type Json, call, worded } from './admin-http.ts';

export const HOSTING_NODES_USAGE = {
  list: 'hostcloud admin hosting-nodes list',
  get: 'hostcloud admin hosting-nodes get NODE_ID',
  add: 'hostcloud admin hosting-nodes add --name NAME --host HOST [--location ID] [--port 22] [--user root] [--http-port 80] [--max-accounts N] [--config KEY=VALUE]...',
  check: 'hostcloud admin hosting-nodes check NODE_ID',
  disable: 'hostcloud admin hosting-nodes disable NODE_ID',
  enable: 'hostcloud admin hosting-nodes enable NODE_ID',
};

const flagOf: FlagOf = (field) => {
  const flags: Record<string, string> = {
    name: '--name', host: '--host', location_id: '--location', port: '--port', user: '--user', http_port: '--http-port', max_accounts: '--max-accounts', config: '--config',
  };
  return flags[field] ? { name: flags[field]! } : null;
};

type Row = Record<string, unknown>;

function nodesTable(rows: Row[]): string {
  return table(rows, [
    { header: 'ID', get: (r) => r.id }, { header: 'NAME', get: (r) => r.name }, { header: 'HOST', get: (r) => `${String(r.host)}:${String(r.port)}` },
    { header: 'LOCATION', get: (r) => r.location_id ?? '-' }, { header: 'STATUS', get: (r) => r.status },
    { header: 'ACCOUNTS', get: (r) => `${String(r.accounts)}/${String(r.max_accounts)}` },
    { header: 'DISK FREE MB', get: (r) => (r.disk as Row).free_mb ?? '-' },
    { header: 'MISSING', get: (r) => ((r.missing as string[]).join(',') || '-') },
  ]);
}

const whole = (v: string | undefined, flag: string, problems: string[], min = 1): number | undefined => {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < min) problems.push(`${flag} must be a whole number of at least ${min}`);
  return Number(v);
};

async function addNode(conn: Conn, out: Out, args: string[]): Promise<void> {
  const usage = HOSTING_NODES_USAGE.add;
  const opts = {
    ...Object.fromEntries(['name', 'host', 'location', 'port', 'user', 'http-port', 'max-accounts'].map((f) => [f, { type: 'string' as const }])),
    config: { type: 'string' as const, multiple: true as const },
  };
  const { values, positionals: pos } = parse(args, opts, usage);
  positionals(pos, [], usage);
  const v = values as Record<string, string | undefined> & { config?: string[] };
  const problems: string[] = [];
  for (const f of ['name', 'host']) if (v[f] === undefined) problems.push(`--${f} is required`);
  if (v.name !== undefined && !HOSTING_NODE_NAME.test(v.name)) problems.push('--name must be a host name: lower-case letters, digits, dots and hyphens');
  if (v.host !== undefined && !HOSTING_NODE_HOST.test(v.host)) problems.push('--host must be a host name or IP address');
  const body: Json = { name: v.name, host: v.host };
  const numbers = [['location', 'location_id', 1], ['port', 'port', 1], ['http-port', 'http_port', 1], ['max-accounts', 'max_accounts', 0]] as const;
  for (const [flag, field, min] of numbers) if (v[flag] !== undefined) body[field] = whole(v[flag], `--${flag}`, problems, min);
  if (v.user !== undefined) body.user = v.user;
  if (v.config?.length) {
    const config: Record<string, string> = {};
    for (const kv of v.config) {
      const at = kv.indexOf('=');
      if (at < 1) problems.push(`--config takes KEY=VALUE, got "${kv}"`);
      else config[kv.slice(0, at)] = kv.slice(at + 1);
    }
    body.config = config;
  }
  if (problems.length) refuse([...problems, `usage: ${usage}`], 'no hosting node was added');
  // The node must authorise our key before it can be reached: say which key, whatever happens next.
  const key = await call(conn, 'GET', '/hosting-nodes/ssh-key').catch(() => null);
  const keyNote = key ? `Hostcloud logs in to hosting nodes with this key; add it to root's ~/.ssh/authorized_keys on the node:\n${String((key.data as Json).public_key)}` : '';
  if (keyNote && !out.json) out.io.stderr(`${keyNote}\n`);
  const answer = await worded(flagOf, () => call(conn, 'POST', '/hosting-nodes', body));
  out.show(answer, (a) => {
    const n = a.data as Row;
    const missing = (n.missing as string[]);
    return [`hosting node added (host key ${String(n.host_key)} pinned)`, nodesTable([n]),
      ...(missing.length ? [`the node lacks: ${missing.join(', ')} — it takes no accounts until \`hostcloud admin hosting-nodes check ${String(n.id)}\` finds them (docs/hosting-nodes.md)`] : [])].join('\n');
  });
}

/** Runs a `hosting-nodes` command; false when `action` is not one. */
export async function hostingNodesCommand(conn: Conn, out: Out, action: string | undefined, args: string[]): Promise<boolean> {
  const one = async (a: 'get' | 'check' | 'disable' | 'enable') => {
    const [id] = positionals(parse(args, {}, HOSTING_NODES_USAGE[a]).positionals, ['NODE_ID'], HOSTING_NODES_USAGE[a]);
    const path = `/hosting-nodes/${encodeURIComponent(id!)}${a === 'get' ? '' : `/${a}`}`;
    const answer = await call(conn, a === 'get' ? 'GET' : 'POST', path);
    out.show(answer, (x) => `hosting node ${id}${a === 'get' ? '' : `: ${a === 'check' ? 'checked' : `${a}d`}`}\n${record(x.data as Row)}`);
  };
  if (action === 'list') {
    positionals(parse(args, {}, HOSTING_NODES_USAGE.list).positionals, [], HOSTING_NODES_USAGE.list);
    out.show(await call(conn, 'GET', '/hosting-nodes'), (a) => nodesTable(a.data as Row[]));
  } else if (action === 'add') await addNode(conn, out, args);
  else if (action === 'get' || action === 'check' || action === 'disable' || action === 'enable') await one(action);
  else return false;
  return true;
}
