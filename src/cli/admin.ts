// `hostcloud admin …`: the operator's terminal over the admin API (it never touches the database
// directly, so it works the same against a local or a remote server).
import { parseArgs } from 'node:util';
import { accountCommand } from './admin-accounts.ts';
import { billingCommand } from './admin-billing.ts';
import { invoiceCommand } from './admin-invoices.ts';
import { settingsCommand } from './admin-settings.ts';
import { vdcPoolCommand } from './admin-vdc.ts';
import { nodesCommand, serversCommand } from './admin-nodes.ts';
import { hostingNodesCommand } from './admin-hosting-nodes.ts';
import { resellerCommand, subUserCommand } from './admin-sub-users.ts';
import { ticketCommand } from './admin-tickets.ts';
import { staffCommand } from './admin-staff.ts';
import { operationsCommand } from './admin-operations.ts';
import { registrarMessagesCommand } from './admin-registrar-messages.ts';
import { type Io, type Out, outTo, parse, positionals, refuse } from './admin-args.ts';
import { type CommandHelp, commandsOf, helpFor } from './admin-help.ts';
import { columns, columnsOf, listing, record, table } from './admin-format.ts';
import { type Conn, CliError, type FlagOf, type Json, call, connection, worded } from './admin-http.ts';

export { CliError, type Io };

const HELP = `Usage: hostcloud admin <command> [arguments] [--json] [--url URL] [--token TOKEN]

Accounts
  accounts create --email EMAIL [--name NAME] [--company TEXT] [--phone PHONE] [--country CC]
                  [--deposit AMOUNT] [--ip IP_OR_CIDR]... [--key-name NAME] [--test-key] [--scope SCOPE]...
                  opens the account in one step: funded with --deposit, with an API key for --ip
                  (its secret is printed once). Every input is checked first; if any is wrong,
                  nothing is created. --name defaults to the email's local part; --key is an
                  older name of --ip.
  accounts list [--email TEXT] [--status active|suspended|closed] [--page N] [--per-page N]
                  newest first; --email matches part of the address, any case
  accounts get ACCOUNT_ID          with its services (servers, VDC VMs, domains, web hosting)
  accounts update ACCOUNT_ID [--status active|suspended|closed] [--email EMAIL] [--name NAME]
                  [--company TEXT] [--phone PHONE] [--country CC]      (an empty value clears company/phone/country)
  deposit ACCOUNT_ID AMOUNT [--description TEXT]                       AMOUNT like 150.00
  transactions ACCOUNT_ID [--type deposit|withdraw|refund] [--page N] [--per-page N]
  keys list ACCOUNT_ID [--page N] [--per-page N]
  keys create ACCOUNT_ID --ip IP_OR_CIDR [--ip IP_OR_CIDR]... [--name NAME] [--test] [--scope SCOPE]...
                  [--sub-user SUB_USER_ID]    a sub-user's key does only what its permissions also allow
  keys revoke KEY_ID
  accounts reseller ACCOUNT_ID --on|--off       reseller status: the tier discount on every server charge
  accounts invite ACCOUNT_ID      a single-use link (72 h) for the owner to set a password and sign in
                  to the customer panel at /panel; also queued as an email to the account

Sub-users
  sub-users create ACCOUNT_ID --email EMAIL --first-name NAME --last-name NAME
                  the invitation: the sub-user starts pending, with no permissions
  sub-users list ACCOUNT_ID [--status pending|active|inactive] [--page N] [--per-page N]

Support tickets
  tickets list [--status STATUS] [--account ACCOUNT_ID] [--department ID] [--priority P] [--assignee me|none|STAFF_ID] [--search TEXT] [--page N] [--per-page N]
                  every account's tickets, newest first (--assignee me: the --token's member)
  tickets show TICKET               the ticket and its thread, internal notes included
  tickets reply TICKET MESSAGE      answers the customer (status answered; the customer is notified)
  tickets note TICKET MESSAGE       an internal note, never shown to the customer
  tickets status TICKET open|in_progress|pending|closed
  tickets assign TICKET STAFF_ID|none
                  the member working on it (a role that answers tickets), or nobody
  tickets close TICKET...           closes each (one transaction); reports those already closed or unknown
  tickets delete TICKET             out of every list (the thread is kept)

Catalog (TABLE: plans locations operating-systems tld-prices hosting-packages departments reseller-tiers
                email-packages colocation-packages dedicated-packages ip-subnet-packages)
  TABLE list
  TABLE get ID
  TABLE create --FIELD VALUE... | --data '{...}'      (e.g. plans create --name "Cloud S" --cpu_cores 1 ...)
  TABLE update ID --FIELD VALUE... | --data '{...}'
                  (e.g. operating-systems update 1 --image debian/12: the LXD image of an OS version)
  locations delete LOCATION_ID     a location nothing uses (nodes, pools, machines, hosting); others
                                   are retired with --available false
  unit-prices list | get UNIT | set UNIT PRICE   (units: cpu_core ram_gb disk_gb ipv4 ipv6 snapshot)

VDC
  vdc-pool get ACCOUNT_ID         the account's pool: total, used and available per bucket
  vdc-pool set ACCOUNT_ID [--cpu N] [--ram-mb N] [--storage-gb N] [--ipv4 N] [--ipv6 N] [--bandwidth-mbit N]
                  [--monthly-price AMOUNT|none]
                  sets the pool (made the first time); totals left out keep their value; a total below
                  what the account's VMs use is refused

DNS
  dns resync [--zone NAME]         pushes every zone (or one) to the DNS provider again, whole: after
                                   PowerDNS lost its data or was replaced; the worker does it within seconds

Nodes and migration
  nodes list [--location ID]       hypervisor nodes with usage (vCPU, RAM, disk used/total, servers, VMs)
  nodes get NODE_ID                with the servers and VDC VMs on it
  nodes add --location ID --name HOST --cpu-vendor intel|amd --cpu-cores N --ram-mb N --storage-gb N
  nodes add --location ID --name HOST --endpoint https://HOST:8443|unix:/PATH [--fingerprint SHA256]
                                   an LXD server (COMPUTE_DRIVER=lxd): sizes read from it; prints the
                                   command that makes it trust Hostcloud's client certificate
  nodes status NODE_ID active|draining|disabled
                  draining takes the node out of placement and migrates every server on it away
                  (live where a node of the same CPU vendor has room, else cold); run it again to
                  retry the servers it had to leave; disabled only stops new placements
  nodes delete NODE_ID             a node no server or VDC VM refers to (deleted ones until purged)
  servers list [--account ACCOUNT_ID] [--node NODE_ID] [--status pending|active|suspended|cancelled|deleted]
                  [--page N] [--per-page N]
                  every account's servers, newest first (deleted ones only with --status deleted)
  servers migrate SERVER_ID [--node NODE_ID] [--mode live|cold] [--location ID] [--member NAME]
                  moves any account's server (default: live, to placement's pick); --member: to
                  that member of its node, an LXD cluster (the cluster's own move; default cold)

Operations (every account's)
  operations list [--status queued|running|completed|failed|stuck] [--type TYPE] [--account ACCOUNT_ID]
                  [--node NODE_ID] [--resource RESOURCE_ID] [--since TIME] [--page N] [--per-page N]
                  newest first; stuck: running without a live lease (worker gone, or waiting for a retry)
  operations get OPERATION_ID       with its attempts, last error and lease
  operations cancel OPERATION_ID    queued or stuck: failed now, refunded and cleaned up; running: asked
                                   to stop at its next step
  operations retry OPERATION_ID     a failed one whose type allows it runs again, as a new operation

Hosting nodes (HOSTING_DRIVER=native; docs/hosting-nodes.md)
  hosting-nodes list               nodes with accounts, free disk and what they lack
  hosting-nodes get NODE_ID
  hosting-nodes add --name NAME --host HOST [--location ID] [--port 22] [--user root] [--http-port 80]
                  [--max-accounts N] [--config KEY=VALUE]...
                                   prints Hostcloud's SSH public key (authorise it on the node first),
                                   reaches the node, pins its host key and records what it lacks
  hosting-nodes check NODE_ID      reaches the node again (a changed host key is refused)
  hosting-nodes disable NODE_ID    no new accounts on it; enable NODE_ID takes them again
  hosting-nodes enable NODE_ID

Simulated providers (PROVIDER: compute registrar hosting payments; default compute)
  provider fault [--provider PROVIDER]    shows the provider's fault switch
  provider fault MODE [--provider PROVIDER] [--remaining N] [--calls create,power,...]
                  makes provider calls fail: upstream_error, capacity_unavailable, timeout; none clears it
                  (--remaining: how many calls fail, default until cleared; --calls: which, default all)
  ip-pools list LOCATION_ID
  ip-pools add LOCATION_ID --version 4|6 --cidr CIDR --gateway IP
  ip-pools delete POOL_ID                 only while none of its addresses is leased
  ip-pools addresses POOL_ID [--state allocated|cooling|free] [--page N]
                  the addresses the pool has handed out: held (by which server or VDC VM), cooling
                  after a release (until when, IP_COOLDOWN_S), or rested and free again
  hosting-servers list                    the hosting panel's servers with their accounts and free places
  registrar add-domain DOMAIN --auth-code CODE [--expires TIME] [--registrar NAME] [--nameserver HOST]...
                  a name "registered at another registrar" that customers can transfer in with CODE
                  (--expires: RFC 3339, default a year from now)
  registrar list [--registrar us|other] [--page N]   every name the simulated registry holds
  registrar messages [--kind transfer|notice] [--domain DOMAIN] [--registrar NAME] [--since TIME] [--page N]
                  what the registry's message queue said (EPP poll: transfers' outcomes, notices), newest first

Setup
  setup                       what a customer cannot buy without yet (locations, plans, OS images, nodes,
                              IP pools, invoice settings, SMTP), each with the command that adds it
  settings branding get       the name, logo, colour and support addresses customers see (docs/branding.md)
  settings branding set [--name TEXT] [--logo FILE|none] [--color #RRGGBB] [--support-email EMAIL]
                  [--support-url URL|none] [--terms-url URL|none] [--privacy-url URL|none]
                  changes the options given (the logo: a PNG or SVG file of at most 256 KB); the panel
                  shows it at its next load, mails and invoices from now on carry it

Recurring billing
  billing run                 a billing pass now (the workers run one every BILLING_INTERVAL_S)
  billing overdue [--page N]  accounts with unpaid charges, oldest debt first

Top-up and invoices
  invoices list [--account ACCOUNT_ID] [--kind invoice|credit_note] [--page N] [--per-page N]
                  invoices and credit notes, newest first
  invoices get INVOICE_ID
  invoices pdf INVOICE_ID [--output FILE]      writes the PDF (default: NUMBER.pdf)
  invoice-settings get
  invoice-settings set [--company-name TEXT] [--address TEXT] [--tax-id TEXT] [--prefix PREFIX] [--footer TEXT]
                  what invoices print about you (\\n in a value is a line break); issued invoices keep theirs
  tax-rates list
  tax-rates set COUNTRY RATE [--label LABEL]    RATE in percent like 19.00; customers of a country without one pay none
  tax-rates delete COUNTRY
  payments list [--account ACCOUNT_ID] [--status pending|paid|declined|expired|failed] [--page N] [--per-page N]
  payments refresh PAYMENT_ID     asks the payment provider how a pending payment stands (credits it once if paid)
  refund DEPOSIT_ID [--amount AMOUNT] [--reason TEXT] [--idempotency-key UUID]
                  refunds (part of) a paid top-up's deposit through the provider, with a credit note
                  (the same --idempotency-key again answers the same refund)
  statement ACCOUNT_ID MONTH [--pdf] [--output FILE]
                  the month's ledger (MONTH like 2026-03) between its opening and closing balance
  billing-details ACCOUNT_ID [--address TEXT] [--tax-id TEXT]
                  the address and tax id the account's next invoices print (shown when no option is given)

Notifications
  notifications list [--account ID] [--status queued|sent|failed] [--kind K] [--page N]
                  the outbox, newest first (100 a page)

Staff (docs/staff.md; members, invitations and two-factor resets need the owner role)
  staff list [--role owner|admin|support|billing|readonly] [--status active|disabled] [--page N] [--per-page N]
  staff get STAFF_ID
  staff invite --email EMAIL --name NAME --role owner|admin|support|billing|readonly
                  prints the set-password link (works once, 72 h; also queued to the member)
  staff reinvite STAFF_ID          a new set-password link for a member who has not set a password
  staff update STAFF_ID [--name NAME] [--role ROLE] [--status active|disabled]
                  nobody changes their own role or status
  staff disable STAFF_ID           ends the member's sessions and revokes its tokens
  staff reset-2fa STAFF_ID         clears the member's two-factor; it enrols again at its next sign-in
  staff sessions STAFF_ID          live console sessions (your own, or anyone's for an owner)
  staff revoke-session STAFF_ID SESSION_ID
  staff tokens STAFF_ID            live API tokens (never their secrets)
  staff create-token STAFF_ID --name NAME [--ip IP_OR_CIDR]...
                  a token hc_staff_… acting with the member's role (printed once); --ip: only from there
  staff revoke-token TOKEN_ID      later use answers 401

Audit
  audit-log [--actor STAFF_ID|admin_token|system] [--target-type T] [--target-id ID] [--action A] [--since T] [--until T] [--page N]
                  every admin write: who, when, what changed (secrets redacted), newest first

Output and connection (every command)
  --json           print the API's JSON answer (for scripts) instead of a table
  --url URL        server (default $HOSTCLOUD_URL or http://127.0.0.1:$PORT)
  --token TOKEN    admin token or a staff token hc_staff_… (default $ADMIN_TOKEN or the file $DATA_DIR/admin-token)`;

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
    if (k === 'data' || k === 'json') {
      try {
        Object.assign(out, JSON.parse(v));
      } catch {
        throw new CliError(`--${k} must be a JSON object like '{"name":"Cloud S"}'`);
      }
      continue;
    }
    if (v === 'true' || v === 'false') out[k] = v === 'true';
    else if (v === 'null') out[k] = null;
    else if (NUMBER_FIELDS.has(k) && /^-?\d+(\.\d+)?$/.test(v)) out[k] = Number(v);
    else out[k] = v;
  }
  return out;
}

const processIo: Io = { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) };

interface Global { rest: string[]; url?: string; token?: string; json: boolean }

/**
 * The options every command takes, wherever they stand. `--json` alone asks for JSON output;
 * `--json '{…}'` (a body, as catalog commands once took it) stays with the command as `--data`.
 */
function takeGlobal(args: string[]): Global {
  const g: Global = { rest: [], json: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--url' || a === '--token') {
      const v = args[++i];
      if (v === undefined) throw new CliError(`${a} needs a value`);
      g[a === '--url' ? 'url' : 'token'] = v;
    } else if (a.startsWith('--url=')) g.url = a.slice('--url='.length);
    else if (a.startsWith('--token=')) g.token = a.slice('--token='.length);
    else if (a === '--json' && args[i + 1]?.trimStart().startsWith('{')) g.rest.push('--data', args[++i]!);
    else if (a === '--json') g.json = true;
    else g.rest.push(a);
  }
  return g;
}

/** Catalog and provider fields are flags of the same name (or a positional argument). */
const sameName = (positional: Record<string, string> = {}): FlagOf => (field) => {
  const top = field.split(/[.[]/)[0]!;
  const hint = /price|^register$|^renewal$|^transfer$/.test(top) ? 'must be an amount like 4.00' : undefined;
  return { name: positional[top] ?? `--${top}`, hint };
};

const one = (noun: string) => (a: Json) => `${noun}\n${record(a.data as Record<string, unknown>)}`;

async function catalogCommand(conn: Conn, out: Out, group: string, action: string | undefined, args: string[]): Promise<boolean> {
  const id = args[0] === undefined ? undefined : encodeURIComponent(args[0]);
  if (action === 'list') out.show(await call(conn, 'GET', `/${group}?per_page=100`), (a) => listing(a as never, 'all', group));
  else if (action === 'get' && id) out.show(await call(conn, 'GET', `/${group}/${id}`), one(`${group} ${args[0]}`));
  else if (action === 'create') {
    const answer = await worded(sameName(), () => call(conn, 'POST', `/${group}`, fieldsFrom(args)));
    out.show(answer, one(`${group}: created`));
  } else if (action === 'update' && id) {
    const answer = await worded(sameName(), () => call(conn, 'PATCH', `/${group}/${id}`, fieldsFrom(args.slice(1))));
    out.show(answer, one(`${group} ${args[0]}: updated`));
  } else if (action === 'delete' && group === 'locations') {
    if (!id) refuse(['LOCATION_ID is missing\nusage: hostcloud admin locations delete LOCATION_ID']);
    out.show(await call(conn, 'DELETE', `/locations/${id}`), one(`location ${args[0]}: deleted`));
  } else if ((action === 'get' || action === 'update') && !id) refuse([`ID is missing\nusage: hostcloud admin ${group} ${action} ID`]);
  else return false;
  return true;
}

async function unitPrices(conn: Conn, out: Out, action: string | undefined, args: string[]): Promise<boolean> {
  if (action === 'list') out.show(await call(conn, 'GET', '/unit-prices'), (a) => table(a.data as Record<string, unknown>[], columnsOf(a.data as Record<string, unknown>[])));
  else if (action === 'get' && args[0]) out.show(await call(conn, 'GET', `/unit-prices/${encodeURIComponent(args[0])}`), one(`unit price ${args[0]}`));
  else if (action === 'set') {
    if (!args[0] || !args[1]) refuse([`${args[0] ? 'PRICE' : 'UNIT'} is missing\nusage: hostcloud admin unit-prices set UNIT PRICE`]);
    const answer = await worded(sameName({ price: 'PRICE' }), () => call(conn, 'PUT', `/unit-prices/${encodeURIComponent(args[0]!)}`, { price: args[1] }));
    out.show(answer, one(`unit price ${args[0]}: set`));
  } else return false;
  return true;
}

/** `provider fault [MODE] [--provider P] [--remaining N] [--calls a,b]`: shows or sets a switch. */
async function providerFault(conn: Conn, out: Out, args: string[]): Promise<void> {
  const usage = 'hostcloud admin provider fault [MODE] [--provider compute|registrar|hosting|payments] [--remaining N] [--calls create,power]';
  const { values, positionals } = parse(args, { provider: { type: 'string' }, remaining: { type: 'string' }, calls: { type: 'string' } }, usage);
  const provider = values.provider ?? 'compute';
  const url = `/providers/${encodeURIComponent(provider)}/fault`;
  if (positionals.length === 0 && values.remaining === undefined && values.calls === undefined) {
    out.show(await call(conn, 'GET', url), one(`${provider} fault switch`));
    return;
  }
  if (positionals.length !== 1) throw new CliError(`usage: ${usage}`);
  const body: Record<string, unknown> = { mode: positionals[0] };
  if (values.remaining !== undefined) {
    if (!/^\d+$/.test(values.remaining)) throw new CliError('--remaining must be a whole number');
    body.remaining = Number(values.remaining);
  }
  if (values.calls !== undefined) body.calls = values.calls.split(',').map((c) => c.trim()).filter(Boolean);
  const answer = await worded(sameName({ mode: 'MODE' }), () => call(conn, 'PUT', url, body));
  out.show(answer, one(`${provider} fault switch: set`));
}

async function ipPools(conn: Conn, out: Out, action: string | undefined, args: string[]): Promise<boolean> {
  if (action === 'list' && args[0]) {
    out.show(await call(conn, 'GET', `/locations/${encodeURIComponent(args[0])}/ip-pools?per_page=100`), (a) => listing(a as never, 'all', 'pools'));
  } else if (action === 'delete' && args[0]) {
    out.show(await call(conn, 'DELETE', `/ip-pools/${encodeURIComponent(args[0])}`), one(`pool ${args[0]}: deleted`));
  } else if (action === 'addresses') {
    const usage = 'hostcloud admin ip-pools addresses POOL_ID [--state allocated|cooling|free] [--page N]';
    const { values, positionals: given } = parse(args, { state: { type: 'string' }, page: { type: 'string' } }, usage);
    const [pool] = positionals(given, ['POOL_ID'], usage);
    const query = new URLSearchParams({ per_page: '100' });
    if (values.state !== undefined) query.set('state', values.state);
    if (values.page !== undefined) query.set('page', values.page);
    const answer = await worded(sameName({ id: 'POOL_ID' }), () => call(conn, 'GET', `/ip-pools/${encodeURIComponent(pool!)}/addresses?${query}`));
    out.show(answer, (a) => listing(a as never, [
      ...columns('address', 'state'),
      { header: 'HELD BY', get: (r) => (r.resource as { id?: string } | null)?.id ?? null },
      ...columns('machine_id', 'allocated_at', 'released_at', 'until'),
    ], 'addresses'));
  } else if (action === 'add' && args[0]) {
    const { values } = parseArgs({ args: args.slice(1), options: { version: { type: 'string' }, cidr: { type: 'string' }, gateway: { type: 'string' } } });
    const missing = (['version', 'cidr', 'gateway'] as const).filter((k) => !values[k]).map((k) => `--${k} is required`);
    if (missing.length) refuse(missing, 'no pool was added');
    const body = { version: /^\d+$/.test(values.version!) ? Number(values.version) : values.version, cidr: values.cidr, gateway: values.gateway };
    const answer = await worded(sameName(), () => call(conn, 'POST', `/locations/${encodeURIComponent(args[0]!)}/ip-pools`, body));
    out.show(answer, one('pool added'));
  } else return false;
  return true;
}

/** `registrar add-domain DOMAIN --auth-code CODE …` and `registrar list`: the simulated registry. */
async function registrarCommand(conn: Conn, out: Out, action: string | undefined, args: string[]): Promise<boolean> {
  if (action === 'messages') {
    await registrarMessagesCommand(conn, out, args);
    return true;
  }
  if (action === 'list') {
    const usage = 'hostcloud admin registrar list [--registrar us|other] [--page N]';
    const { values } = parse(args, { registrar: { type: 'string' }, page: { type: 'string' } }, usage);
    const query = new URLSearchParams({ per_page: '100' });
    if (values.registrar !== undefined) query.set('registrar', values.registrar);
    if (values.page !== undefined) query.set('page', values.page);
    const answer = await worded(sameName(), () => call(conn, 'GET', `/registrar/domains?${query}`));
    out.show(answer, (a) => listing(a as never, columns('domain', 'registrar', 'auth_code', 'expires_at', 'nameservers'), 'domains'));
    return true;
  }
  if (action !== 'add-domain') return false;
  const usage = 'hostcloud admin registrar add-domain DOMAIN --auth-code CODE [--expires TIME] [--registrar NAME] [--nameserver HOST]...';
  const { values, positionals: given } = parse(args, {
    'auth-code': { type: 'string' }, expires: { type: 'string' }, registrar: { type: 'string' }, nameserver: { type: 'string', multiple: true },
  }, usage);
  const [domain] = positionals(given, ['DOMAIN'], usage);
  if (values['auth-code'] === undefined) refuse(['--auth-code is required'], 'nothing was added');
  const body: Record<string, unknown> = { domain, auth_code: values['auth-code'] };
  if (values.expires !== undefined) body.expires_at = values.expires;
  if (values.registrar !== undefined) body.registrar = values.registrar;
  if (values.nameserver !== undefined) body.nameservers = values.nameserver;
  const flags: Record<string, string> = { domain: 'DOMAIN', auth_code: '--auth-code', expires_at: '--expires', registrar: '--registrar', nameservers: '--nameserver' };
  const answer = await worded((field) => ({ name: flags[field.split(/[.[]/)[0]!] ?? field, hint: field === 'expires_at' ? 'must be a time like 2027-01-15T00:00:00Z' : undefined }),
    () => call(conn, 'POST', '/registrar/domains', body));
  out.show(answer, one(`${String(body.domain)}: added to the registry`));
  return true;
}

/** `audit-log [--actor ID] [--target-type T] [--target-id ID] [--action A] [--since T] [--until T] [--page N]`. */
async function auditLogCommand(conn: Conn, out: Out, args: string[]): Promise<void> {
  const { values } = parse(args, {
    actor: { type: 'string' }, 'target-type': { type: 'string' }, 'target-id': { type: 'string' }, action: { type: 'string' },
    since: { type: 'string' }, until: { type: 'string' }, page: { type: 'string' },
  }, 'hostcloud admin audit-log [--actor STAFF_ID|admin_token|system] [--target-type T] [--target-id ID] [--action A] [--since T] [--until T] [--page N]');
  const query = new URLSearchParams({ per_page: '100' });
  const names: [keyof typeof values, string][] = [['actor', 'actor'], ['target-type', 'target_type'], ['target-id', 'target_id'], ['action', 'action'], ['since', 'since'], ['until', 'until'], ['page', 'page']];
  for (const [flag, param] of names) if (values[flag] !== undefined) query.set(param, values[flag]!);
  out.show(await call(conn, 'GET', `/audit-log?${query}`), (a) => listing(a as never, 'all', 'audit entries'));
}

/** `notifications list [--account ID] [--status S] [--kind K] [--page N]`. */
async function listNotificationsCommand(conn: Conn, out: Out, args: string[]): Promise<void> {
  const { values } = parse(args, { account: { type: 'string' }, status: { type: 'string' }, kind: { type: 'string' }, page: { type: 'string' } },
    'hostcloud admin notifications list [--account ID] [--status queued|sent|failed] [--kind K] [--page N]');
  const query = new URLSearchParams({ per_page: '100' });
  if (values.account !== undefined) query.set('account_id', values.account);
  if (values.status !== undefined) query.set('status', values.status);
  if (values.kind !== undefined) query.set('kind', values.kind);
  if (values.page !== undefined) query.set('page', values.page);
  out.show(await call(conn, 'GET', `/notifications?${query}`), (a) => listing(a as never, 'all', 'notifications'));
}

let commands: CommandHelp[] | undefined;
/** Every command the overview lists, with its usage, description and examples (admin-help.ts). */
export const adminCommands = () => (commands ??= commandsOf(HELP, CATALOG));

export async function admin(argv: string[], io: Io = processIo): Promise<void> {
  const { rest, url, token, json } = takeGlobal(argv);
  const [group, action, ...args] = rest;
  if (!group || group === 'help' || group === '--help' || group === '-h') {
    // `help accounts create` is `accounts create --help`.
    io.stdout(`${group === 'help' && action ? helpFor(adminCommands(), rest.slice(1)) : HELP}\n`);
    return;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    // The command's words come before its first option: `accounts create --help`, `deposit --help`.
    const words = rest.slice(0, rest.findIndex((a) => a.startsWith('-')));
    io.stdout(`${helpFor(adminCommands(), words)}\n`);
    return;
  }
  const conn = connection({ url, token });
  const out = outTo(io, json);
  if (group === 'accounts' && action === 'reseller') return resellerCommand(conn, out, args);
  const done = await accountCommand(conn, out, group, action, args)
    || (group === 'tickets' && await ticketCommand(conn, out, action, args))
    || (group === 'staff' && await staffCommand(conn, out, action, args))
    || (group === 'sub-users' && await subUserCommand(conn, out, action, args))
    || (CATALOG.includes(group) && await catalogCommand(conn, out, group, action, args))
    || (group === 'unit-prices' && await unitPrices(conn, out, action, args))
    || (group === 'ip-pools' && await ipPools(conn, out, action, args))
    || (group === 'vdc-pool' && await vdcPoolCommand(conn, out, action, args))
    || (group === 'nodes' && await nodesCommand(conn, out, action, args))
    || (group === 'servers' && await serversCommand(conn, out, action, args))
    || (group === 'operations' && await operationsCommand(conn, out, action, args))
    || (group === 'hosting-nodes' && await hostingNodesCommand(conn, out, action, args))
    || (group === 'registrar' && await registrarCommand(conn, out, action, args))
    || (group === 'billing' && await billingCommand(conn, out, action, args))
    || (group === 'settings' && await settingsCommand(conn, out, action, args))
    || await invoiceCommand(conn, out, group, action, args);
  if (done) return;
  if (group === 'provider' && action === 'fault') return providerFault(conn, out, args);
  if (group === 'dns' && action === 'resync') {
    const usage = 'hostcloud admin dns resync [--zone NAME]';
    const { values, positionals: extra } = parse(args, { zone: { type: 'string' } }, usage);
    positionals(extra, [], usage);
    const body = values.zone === undefined ? {} : { zone: values.zone };
    return out.show(await call(conn, 'POST', '/dns/resync', body), (r) => `Queued ${(r as { data: { queued: number } }).data.queued} zone(s) for a whole push to the DNS provider`);
  }
  if (group === 'notifications' && action === 'list') return listNotificationsCommand(conn, out, args);
  if (group === 'audit-log') return auditLogCommand(conn, out, action === undefined ? args : [action, ...args]);
  if (group === 'setup' && action === undefined) {
    return out.show(await call(conn, 'GET', '/setup'), (a) => {
      const d = a.data as { ready: boolean; checks: Record<string, unknown>[] };
      const rows = table(d.checks, [{ header: 'ITEM', get: (r) => r.item }, { header: 'READY', get: (r) => (r.ready ? 'yes' : 'NO') }, { header: 'DETAIL', get: (r) => r.detail }]);
      const fixes = d.checks.filter((c) => !c.ready).map((c) => `  ${String(c.item)}: ${String(c.fix)}`);
      return [rows, d.ready ? 'ready: customers can buy' : `missing before a customer can buy:\n${fixes.join('\n')}`].join('\n');
    });
  }
  if (group === 'hosting-servers' && action === 'list') {
    return out.show(await call(conn, 'GET', '/hosting/servers?per_page=100'), (a) => listing(a as never, 'all', 'hosting servers'));
  }
  throw new CliError(`unknown admin command "${rest.join(' ')}"; see hostcloud admin help`);
}

/** Whether the command asked for JSON (then its errors are JSON too). */
function wantsJson(argv: string[]): boolean {
  try {
    return takeGlobal(argv).json;
  } catch {
    return argv.includes('--json');
  }
}

export async function runAdmin(argv: string[], io: Io = processIo): Promise<number> {
  try {
    await admin(argv, io);
    return 0;
  } catch (e) {
    if (e instanceof CliError || e instanceof TypeError || e instanceof SyntaxError) {
      if (wantsJson(argv)) {
        // A script reads one JSON object on stderr, as it reads the answer on stdout.
        const detail = e instanceof CliError ? e.detail : { code: 'USAGE_ERROR' };
        io.stderr(`${JSON.stringify({ error: { code: detail.code, message: e.message, ...(detail.status ? { status: detail.status } : {}), ...(detail.errors ? { errors: detail.errors } : {}) } })}\n`);
      } else {
        io.stderr(`hostcloud admin: ${e.message}\n`);
      }
      return 2;
    }
    throw e;
  }
}
