// `hostcloud admin nodes list|get|add|status|delete` and `servers migrate`: the hypervisor nodes and
// migrations. Input is checked with the core's rules before anything is sent.
import { MIGRATE_MODES } from '../core/nodes/migrate.ts';
import { CPU_VENDORS, NODE_NAME, NODE_STATUSES } from '../core/nodes/service.ts';
import { type Out, parse, positionals, refuse } from './admin-args.ts';
import { record, table } from './admin-format.ts';
import { listServersCommand, nodeMachines } from './admin-machines.ts';
import { type Conn, type FlagOf, type Json, call, worded } from './admin-http.ts';

export const NODES_USAGE = {
  list: 'hostcloud admin nodes list [--location ID]',
  get: 'hostcloud admin nodes get NODE_ID',
  add: 'hostcloud admin nodes add --location ID --name HOST (--endpoint unix:/PATH|https://HOST:8443 [--fingerprint SHA256] | --cpu-vendor intel|amd --cpu-cores N --ram-mb N --storage-gb N)',
  status: 'hostcloud admin nodes status NODE_ID active|draining|disabled',
  delete: 'hostcloud admin nodes delete NODE_ID',
  migrate: 'hostcloud admin servers migrate SERVER_ID [--node NODE_ID] [--mode live|cold] [--location ID] [--member NAME]',
};

const flagOf: FlagOf = (field) => {
  const flags: Record<string, string> = {
    location_id: '--location', name: '--name', cpu_vendor: '--cpu-vendor', cpu_cores: '--cpu-cores', ram_mb: '--ram-mb', storage_gb: '--storage-gb',
    node_id: '--node', mode: '--mode', status: 'STATUS', endpoint: '--endpoint', fingerprint: '--fingerprint',
  };
  return flags[field] ? { name: flags[field]! } : null;
};

type Row = Record<string, unknown>;
const used = (b: unknown) => { const x = b as { used: number; total: number }; return `${x.used}/${x.total}`; };

function nodesTable(rows: Row[]): string {
  return table(rows, [
    { header: 'ID', get: (r) => r.id }, { header: 'LOCATION', get: (r) => r.location_id }, { header: 'NAME', get: (r) => r.name },
    { header: 'VENDOR', get: (r) => r.cpu_vendor }, { header: 'STATUS', get: (r) => r.status },
    { header: 'CPU', get: (r) => used(r.cpu) }, { header: 'RAM MB', get: (r) => used(r.ram_mb) }, { header: 'DISK GB', get: (r) => used(r.storage_gb) },
    { header: 'SERVERS', get: (r) => r.servers }, { header: 'VMS', get: (r) => r.vms }, { header: 'MIGRATING AWAY', get: (r) => r.migrating_away },
    { header: 'CONNECTION', get: (r) => r.connection ?? (r.endpoint ? '' : '-') },
  ]);
}

const whole = (v: string | undefined, flag: string, problems: string[]): number | undefined => {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < 1) problems.push(`${flag} must be a whole number of at least 1`);
  return Number(v);
};

const SIZE_FLAGS = ['cpu-vendor', 'cpu-cores', 'ram-mb', 'storage-gb'];

async function addNode(conn: Conn, out: Out, args: string[]): Promise<void> {
  const usage = NODES_USAGE.add;
  const opts = Object.fromEntries(['location', 'name', 'endpoint', 'fingerprint', ...SIZE_FLAGS].map((f) => [f, { type: 'string' as const }]));
  const { values, positionals: pos } = parse(args, opts, usage);
  positionals(pos, [], usage);
  const v = values as Record<string, string | undefined>;
  const problems: string[] = [];
  // An LXD node (--endpoint) tells its own sizes; a node of the simulated platform needs them all.
  const required = v.endpoint === undefined ? ['location', 'name', ...SIZE_FLAGS] : ['location', 'name'];
  for (const f of required) if (v[f] === undefined) problems.push(`--${f} is required${SIZE_FLAGS.includes(f) ? ' (or give --endpoint: the node tells its sizes)' : ''}`);
  if (v.name !== undefined && !NODE_NAME.test(v.name)) problems.push('--name must be a host name: lower-case letters, digits, dots and hyphens');
  if (v['cpu-vendor'] !== undefined && !(CPU_VENDORS as readonly string[]).includes(v['cpu-vendor'])) problems.push('--cpu-vendor must be intel or amd');
  if (v.endpoint !== undefined && !/^(unix:\/|https:\/\/)/.test(v.endpoint)) problems.push('--endpoint must be unix:/path/to/unix.socket or https://host:8443');
  const body: Json = { location_id: whole(v.location, '--location', problems), name: v.name };
  if (v['cpu-vendor'] !== undefined) body.cpu_vendor = v['cpu-vendor'];
  for (const [flag, field] of [['cpu-cores', 'cpu_cores'], ['ram-mb', 'ram_mb'], ['storage-gb', 'storage_gb']] as const) {
    if (v[flag] !== undefined) body[field] = whole(v[flag], `--${flag}`, problems);
  }
  if (v.endpoint !== undefined) body.endpoint = v.endpoint;
  if (v.fingerprint !== undefined) body.fingerprint = v.fingerprint;
  if (problems.length) refuse([...problems, `usage: ${usage}`], 'no node was added');
  // An https node must trust our client certificate first: the command that does it, on that server.
  let trust: string | null = null;
  if (v.endpoint?.startsWith('https://')) {
    const cert = await call(conn, 'GET', '/nodes/client-certificate').catch(() => null);
    trust = cert ? String((cert.data as Json).trust_command) : null;
  }
  const trustNote = trust ? `On the LXD server, trust Hostcloud's client certificate (once):\n${trust}` : '';
  let answer: Json;
  try {
    answer = await worded(flagOf, () => call(conn, 'POST', '/nodes', body));
  } catch (e) {
    if (trustNote && !out.json) out.io.stderr(`${trustNote}\n`);
    throw e;
  }
  out.show(answer, (a) => [`node added`, nodesTable([a.data as Row]), ...(trustNote ? [trustNote] : [])].join('\n'));
}

async function setStatus(conn: Conn, out: Out, args: string[]): Promise<void> {
  const usage = NODES_USAGE.status;
  const [id, status] = positionals(parse(args, {}, usage).positionals, ['NODE_ID', 'STATUS'], usage);
  if (!(NODE_STATUSES as readonly string[]).includes(status!)) refuse([`STATUS must be one of ${NODE_STATUSES.join(', ')}\nusage: ${usage}`], 'nothing was changed');
  const answer = await worded(flagOf, () => call(conn, 'PATCH', `/nodes/${encodeURIComponent(id!)}`, { status }));
  out.show(answer, (a) => {
    const d = a.data as { node: Row; drain: { started: Row[]; skipped: Row[] } | null };
    const lines = [`node ${id}: ${status}`, nodesTable([d.node])];
    if (d.drain) {
      lines.push(`migrations started: ${d.drain.started.length}, left on the node: ${d.drain.skipped.length}`);
      if (d.drain.started.length) lines.push(table(d.drain.started, [{ header: 'TYPE', get: (r) => r.type }, { header: 'ID', get: (r) => r.id }, { header: 'OPERATION', get: (r) => r.operation_id }, { header: 'MODE', get: (r) => r.mode }]));
      if (d.drain.skipped.length) lines.push(table(d.drain.skipped, [{ header: 'TYPE', get: (r) => r.type }, { header: 'ID', get: (r) => r.id }, { header: 'WHY', get: (r) => r.reason }]));
      lines.push(`progress: hostcloud admin nodes get ${id} (servers, vms and migrating away reach 0)`);
    }
    return lines.join('\n');
  });
}

/** Runs a `nodes` command; false when `action` is not one. */
export async function nodesCommand(conn: Conn, out: Out, action: string | undefined, args: string[]): Promise<boolean> {
  if (action === 'list') {
    const { values, positionals: pos } = parse(args, { location: { type: 'string' } }, NODES_USAGE.list);
    positionals(pos, [], NODES_USAGE.list);
    const problems: string[] = [];
    const location = whole(values.location, '--location', problems);
    if (problems.length) refuse(problems);
    const answer = await call(conn, 'GET', `/nodes${location === undefined ? '' : `?location_id=${location}`}`);
    out.show(answer, (a) => nodesTable(a.data as Row[]));
  } else if (action === 'get') {
    const [id] = positionals(parse(args, {}, NODES_USAGE.get).positionals, ['NODE_ID'], NODES_USAGE.get);
    const answer = await call(conn, 'GET', `/nodes/${encodeURIComponent(id!)}`);
    // --json stays the node's own answer; the table view adds what runs on it.
    const running = out.json ? '' : await nodeMachines(conn, id!);
    out.show(answer, (a) => `node ${id}\n${record(a.data as Row)}\n${running}`);
  } else if (action === 'add') await addNode(conn, out, args);
  else if (action === 'status') await setStatus(conn, out, args);
  else if (action === 'delete') {
    const [id] = positionals(parse(args, {}, NODES_USAGE.delete).positionals, ['NODE_ID'], NODES_USAGE.delete);
    out.show(await call(conn, 'DELETE', `/nodes/${encodeURIComponent(id!)}`), (a) => `node ${id}: deleted\n${nodesTable([a.data as Row])}`);
  } else return false;
  return true;
}

/** `servers list …` and `servers migrate SERVER_ID [--node N] [--mode live|cold] [--location ID] [--member NAME]`; false for another action. */
export async function serversCommand(conn: Conn, out: Out, action: string | undefined, args: string[]): Promise<boolean> {
  if (action === 'list') {
    await listServersCommand(conn, out, args);
    return true;
  }
  if (action !== 'migrate') return false;
  const usage = NODES_USAGE.migrate;
  const { values, positionals: pos } = parse(args, { node: { type: 'string' }, mode: { type: 'string' }, location: { type: 'string' }, member: { type: 'string' } }, usage);
  const [id] = positionals(pos, ['SERVER_ID'], usage);
  const problems: string[] = [];
  if (values.mode !== undefined && !(MIGRATE_MODES as readonly string[]).includes(values.mode)) problems.push('--mode must be live or cold');
  const body: Json = {};
  const node = whole(values.node, '--node', problems);
  const location = whole(values.location, '--location', problems);
  if (node !== undefined) body.node_id = node;
  if (location !== undefined) body.location_id = location;
  if (values.mode !== undefined) body.mode = values.mode;
  if (values.member !== undefined) body.member = values.member;
  if (problems.length) refuse([...problems, `usage: ${usage}`], 'nothing was started');
  const answer = await worded(flagOf, () => call(conn, 'POST', `/servers/${encodeURIComponent(id!)}/migrate`, body));
  out.show(answer, (a) => {
    const op = (a.data as { operation: Row }).operation;
    return `migration of ${id} started: operation ${String(op.id)} (${String(op.status)})`;
  });
  return true;
}
