// `hostcloud admin …`: the operator's terminal over the admin API (it never touches the database
// directly, so it works the same against a local or a remote server).
import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';

const HELP = `Usage: hostcloud admin <command> [options]

Accounts
  accounts create --email E --name N [--company C] [--phone P] [--country CC]
                  [--deposit AMOUNT] [--key IP_OR_CIDR]... [--test-key] [--scope S]...
                  creates the account; with --key also an API key (printed once)
  accounts get ID
  accounts update ID [--status active|suspended|closed] [--email E] [--name N] ...
  deposit ACCOUNT_ID AMOUNT [--description TEXT]
  keys create ACCOUNT_ID --ip IP_OR_CIDR [--ip ...] [--name N] [--test] [--scope S]...
  keys revoke KEY_ID

Catalog (TABLE: plans locations operating-systems tld-prices hosting-packages departments reseller-tiers
                email-packages colocation-packages dedicated-packages ip-subnet-packages)
  TABLE list
  TABLE get ID
  TABLE create --json '{...}'  or  --field value ...   (e.g. plans create --name "Cloud S" --cpu_cores 1 ...)
  TABLE update ID --json '{...}'  or  --field value ...
  unit-prices list | get UNIT | set UNIT PRICE   (units: cpu_core ram_gb disk_gb ipv4 ipv6 snapshot)

Simulated providers (PROVIDER: compute registrar hosting; default compute)
  provider fault [--provider PROVIDER]    shows the provider's fault switch
  provider fault MODE [--provider PROVIDER] [--remaining N] [--calls create,power,...]
                  makes provider calls fail: upstream_error, capacity_unavailable, timeout; none clears it
                  (--remaining: how many calls fail, default until cleared; --calls: which, default all)
  ip-pools list LOCATION_ID
  ip-pools add LOCATION_ID --version 4|6 --cidr CIDR --gateway IP
  ip-pools delete POOL_ID                 only while none of its addresses is leased

Notifications
  notifications list [--account ID] [--status queued|sent|failed] [--kind K] [--page N]
                  the outbox, newest first (100 a page)

Connection
  --url URL        server (default $HOSTCLOUD_URL or http://127.0.0.1:$PORT)
  --token TOKEN    admin token (default $ADMIN_TOKEN or the file DATA_DIR/admin-token)`;

const CATALOG = [
  'plans', 'locations', 'operating-systems', 'tld-prices', 'hosting-packages', 'departments', 'reseller-tiers',
  'email-packages', 'colocation-packages', 'dedicated-packages', 'ip-subnet-packages',
];
/**
 * Body fields that are JSON numbers. Every other `--field value` stays a string, even when it looks
 * like a number: money ("5.00"), OS versions ("24.04", "12"), phone numbers, names.
 */
const NUMBER_FIELDS = new Set([
  'cpu_cores', 'ram_mb', 'storage_gb', 'bandwidth_gb', 'disk_quota_mb', 'max_domains',
  'years_min', 'years_max', 'min_servers', 'max_servers', 'discount_percentage',
  'max_accounts', 'ram_gb', 'subnet_size',
]);

export class CliError extends Error {}

interface Conn { url: string; token: string }

async function connection(opts: { url?: string; token?: string }): Promise<Conn> {
  const url = (opts.url ?? process.env.HOSTCLOUD_URL ?? `http://127.0.0.1:${process.env.PORT ?? 8080}`).replace(/\/+$/, '');
  let token = opts.token ?? process.env.ADMIN_TOKEN;
  if (!token) {
    const file = path.join(path.resolve(process.env.DATA_DIR ?? './data'), 'admin-token');
    token = (await fs.readFile(file, 'utf8').catch(() => '')).trim();
    if (!token) throw new CliError(`no admin token: pass --token, set ADMIN_TOKEN, or run from where ${file} exists`);
  }
  return { url, token };
}

async function call(conn: Conn, method: string, p: string, body?: unknown): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await fetch(`${conn.url}/admin/v1${p}`, {
      method,
      headers: { authorization: `Bearer ${conn.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new CliError(`cannot reach ${conn.url}: ${(e as Error).message} (is \`npm start\` running?)`);
  }
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (!res.ok) {
    const err = (json.error ?? {}) as { code?: string; message?: string; errors?: { field: string; message: string }[] };
    const fields = (err.errors ?? []).map((f) => `\n  ${f.field}: ${f.message}`).join('');
    throw new CliError(`${res.status} ${err.code ?? ''}: ${err.message ?? 'request failed'}${fields}`);
  }
  return json;
}

/** `--name x --cpu_cores 2 --available false --max_servers null` → {name:"x", cpu_cores:2, available:false, max_servers:null}. */
function fieldsFrom(args: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('--')) throw new CliError(`unexpected argument "${a}"`);
    let [k, v] = a.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (v === undefined) {
      v = args[++i];
      if (v === undefined) throw new CliError(`--${k} needs a value`);
    }
    k = k.replace(/-/g, '_');
    if (k === 'json') {
      Object.assign(out, JSON.parse(v));
      continue;
    }
    if (v === 'true' || v === 'false') out[k] = v === 'true';
    else if (v === 'null') out[k] = null;
    else if (NUMBER_FIELDS.has(k) && /^-?\d+(\.\d+)?$/.test(v)) out[k] = Number(v);
    else out[k] = v;
  }
  return out;
}

/** Where a command writes: the process's streams, or a caller's own (tests run commands in-process). */
export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
}

const processIo: Io = { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) };

function takeConn(args: string[]): { rest: string[]; url?: string; token?: string } {
  const rest: string[] = [];
  let url: string | undefined;
  let token: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--url') url = args[++i];
    else if (a === '--token') token = args[++i];
    else if (a.startsWith('--url=')) url = a.slice('--url='.length);
    else if (a.startsWith('--token=')) token = a.slice('--token='.length);
    else rest.push(a);
  }
  return { rest, url, token };
}

/** `provider fault [MODE] [--provider P] [--remaining N] [--calls a,b]`: shows or sets a switch. */
async function providerFault(conn: Conn, args: string[]) {
  const { values, positionals } = parseArgs({
    args, allowPositionals: true, options: { provider: { type: 'string' }, remaining: { type: 'string' }, calls: { type: 'string' } },
  });
  const url = `/providers/${encodeURIComponent(values.provider ?? 'compute')}/fault`;
  if (positionals.length === 0 && values.remaining === undefined && values.calls === undefined) return call(conn, 'GET', url);
  if (positionals.length !== 1) throw new CliError('usage: provider fault [MODE] [--provider compute|registrar|hosting] [--remaining N] [--calls create,power]');
  const body: Record<string, unknown> = { mode: positionals[0] };
  if (values.remaining !== undefined) {
    if (!/^\d+$/.test(values.remaining)) throw new CliError('--remaining must be a whole number');
    body.remaining = Number(values.remaining);
  }
  if (values.calls !== undefined) body.calls = values.calls.split(',').map((c) => c.trim()).filter(Boolean);
  return call(conn, 'PUT', url, body);
}

/** `notifications list [--account ID] [--status S] [--kind K] [--page N]`. */
async function listNotificationsCommand(conn: Conn, args: string[]) {
  const { values } = parseArgs({
    args, options: { account: { type: 'string' }, status: { type: 'string' }, kind: { type: 'string' }, page: { type: 'string' } },
  });
  const query = new URLSearchParams({ per_page: '100' });
  if (values.account !== undefined) query.set('account_id', values.account);
  if (values.status !== undefined) query.set('status', values.status);
  if (values.kind !== undefined) query.set('kind', values.kind);
  if (values.page !== undefined) query.set('page', values.page);
  return call(conn, 'GET', `/notifications?${query}`);
}

export async function admin(argv: string[], io: Io = processIo): Promise<void> {
  const print = (json: unknown) => io.stdout(`${JSON.stringify(json, null, 2)}\n`);
  const { rest, url, token } = takeConn(argv);
  const [group, action, ...args] = rest;
  if (!group || group === 'help' || group === '--help') {
    io.stdout(`${HELP}\n`);
    return;
  }
  const conn = await connection({ url, token });

  if (group === 'accounts' && action === 'create') {
    const { values } = parseArgs({
      args,
      options: {
        email: { type: 'string' }, name: { type: 'string' }, company: { type: 'string' }, phone: { type: 'string' },
        country: { type: 'string' }, deposit: { type: 'string' }, key: { type: 'string', multiple: true },
        'test-key': { type: 'boolean' }, scope: { type: 'string', multiple: true },
      },
    });
    if (!values.email) throw new CliError('--email is required');
    const body = { email: values.email, name: values.name ?? values.email.split('@')[0], company: values.company, phone: values.phone, country: values.country };
    const account = ((await call(conn, 'POST', '/accounts', body)).data) as { id: string };
    const out: Record<string, unknown> = { account };
    // The account exists from here on: if a later step fails, show what was made and how to go on,
    // or the operator (who only sees an error) would retry and hit "email already exists".
    let step = 'deposit';
    try {
      if (values.deposit) out.deposit = (await call(conn, 'POST', `/accounts/${account.id}/deposits`, { amount: values.deposit, description: 'Initial deposit' })).data;
      step = 'keys create';
      if (values.key?.length) {
        const key = (await call(conn, 'POST', `/accounts/${account.id}/api-keys`, {
          name: 'default', ip_allowlist: values.key, is_test: values['test-key'] ?? false, ...(values.scope ? { scopes: values.scope } : {}),
        })).data as { key: string };
        out.api_key = key;
        print(out);
        io.stdout(`\nAPI key (shown once, store it now): ${key.key}\n`);
        return;
      }
    } catch (e) {
      if (!(e instanceof CliError)) throw e;
      print(out);
      throw new CliError(`account ${account.id} was created, but ${e.message}\n  finish with: hostcloud admin ${step} ${account.id} …`);
    }
    print(out);
    return;
  }
  if (group === 'accounts' && action === 'get' && args[0]) return print(await call(conn, 'GET', `/accounts/${encodeURIComponent(args[0])}`));
  if (group === 'accounts' && action === 'update' && args[0]) {
    return print(await call(conn, 'PATCH', `/accounts/${encodeURIComponent(args[0])}`, fieldsFrom(args.slice(1))));
  }
  if (group === 'deposit' && action && args[0]) {
    const { values } = parseArgs({ args: args.slice(1), options: { description: { type: 'string' } } });
    return print(await call(conn, 'POST', `/accounts/${encodeURIComponent(action)}/deposits`, { amount: args[0], ...(values.description ? { description: values.description } : {}) }));
  }
  if (group === 'keys' && action === 'create' && args[0]) {
    const { values } = parseArgs({
      args: args.slice(1),
      options: { ip: { type: 'string', multiple: true }, name: { type: 'string' }, test: { type: 'boolean' }, scope: { type: 'string', multiple: true } },
    });
    const res = await call(conn, 'POST', `/accounts/${encodeURIComponent(args[0])}/api-keys`, {
      name: values.name ?? 'default', ip_allowlist: values.ip ?? [], is_test: values.test ?? false, ...(values.scope ? { scopes: values.scope } : {}),
    });
    print(res);
    io.stdout(`\nAPI key (shown once, store it now): ${(res.data as { key: string }).key}\n`);
    return;
  }
  if (group === 'keys' && action === 'revoke' && args[0]) return print(await call(conn, 'DELETE', `/api-keys/${encodeURIComponent(args[0])}`));
  if (CATALOG.includes(group)) {
    if (action === 'list') return print(await call(conn, 'GET', `/${group}?per_page=100`));
    if (action === 'get' && args[0]) return print(await call(conn, 'GET', `/${group}/${encodeURIComponent(args[0])}`));
    if (action === 'create') return print(await call(conn, 'POST', `/${group}`, fieldsFrom(args)));
    if (action === 'update' && args[0]) return print(await call(conn, 'PATCH', `/${group}/${encodeURIComponent(args[0])}`, fieldsFrom(args.slice(1))));
  }
  if (group === 'unit-prices') {
    if (action === 'list') return print(await call(conn, 'GET', '/unit-prices'));
    if (action === 'get' && args[0]) return print(await call(conn, 'GET', `/unit-prices/${encodeURIComponent(args[0])}`));
    if (action === 'set' && args[0] && args[1]) return print(await call(conn, 'PUT', `/unit-prices/${encodeURIComponent(args[0])}`, { price: args[1] }));
  }
  if (group === 'provider' && action === 'fault') return print(await providerFault(conn, args));
  if (group === 'notifications' && action === 'list') return print(await listNotificationsCommand(conn, args));
  if (group === 'ip-pools') {
    if (action === 'list' && args[0]) return print(await call(conn, 'GET', `/locations/${encodeURIComponent(args[0])}/ip-pools?per_page=100`));
    if (action === 'delete' && args[0]) return print(await call(conn, 'DELETE', `/ip-pools/${encodeURIComponent(args[0])}`));
    if (action === 'add' && args[0]) {
      const { values } = parseArgs({ args: args.slice(1), options: { version: { type: 'string' }, cidr: { type: 'string' }, gateway: { type: 'string' } } });
      if (!values.version || !values.cidr || !values.gateway) throw new CliError('ip-pools add needs --version, --cidr and --gateway');
      const body = { version: /^\d+$/.test(values.version) ? Number(values.version) : values.version, cidr: values.cidr, gateway: values.gateway };
      return print(await call(conn, 'POST', `/locations/${encodeURIComponent(args[0])}/ip-pools`, body));
    }
  }
  throw new CliError(`unknown admin command "${rest.join(' ')}"; see hostcloud admin help`);
}

export async function runAdmin(argv: string[], io: Io = processIo): Promise<number> {
  try {
    await admin(argv, io);
    return 0;
  } catch (e) {
    if (e instanceof CliError || e instanceof TypeError || e instanceof SyntaxError) {
      io.stderr(`hostcloud admin: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}
