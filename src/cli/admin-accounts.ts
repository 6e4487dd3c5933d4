// Account commands of `hostcloud admin`: open, find, change and fund accounts, and manage their
// keys. Input is checked with the core's own rules before anything is sent, and the API's
// refusals are reported with the flags the operator typed.
import { openAccountProblems, profileProblems } from '../core/accounts/rules.ts';
import { checkKeyInput } from '../core/api-keys/rules.ts';
import { depositCents } from '../core/money.ts';
import { type Out, pageQuery, parse, positionals, refuse } from './admin-args.ts';
import { columns, listing, record, text } from './admin-format.ts';
import { accountServices } from './admin-machines.ts';
import { type Conn, type FlagOf, type Json, call, problemLines, worded } from './admin-http.ts';

type Row = Record<string, unknown>;

const AMOUNT_HINT = 'must be an amount like 150.00';
const STATUSES = ['active', 'suspended', 'closed'];

export const ACCOUNT_USAGE = {
  create: 'hostcloud admin accounts create --email EMAIL [--name NAME] [--company TEXT] [--phone PHONE] [--country CC] '
    + '[--deposit AMOUNT] [--ip IP_OR_CIDR]... [--key-name NAME] [--test-key] [--scope SCOPE]...',
  list: 'hostcloud admin accounts list [--email TEXT] [--status active|suspended|closed] [--page N] [--per-page N]',
  get: 'hostcloud admin accounts get ACCOUNT_ID',
  invite: 'hostcloud admin accounts invite ACCOUNT_ID',
  update: 'hostcloud admin accounts update ACCOUNT_ID [--status active|suspended|closed] [--email EMAIL] [--name NAME] [--company TEXT] [--phone PHONE] [--country CC]',
  deposit: 'hostcloud admin deposit ACCOUNT_ID AMOUNT [--description TEXT]',
  transactions: 'hostcloud admin transactions ACCOUNT_ID [--type deposit|withdraw|refund] [--page N] [--per-page N]',
  keysList: 'hostcloud admin keys list ACCOUNT_ID [--page N] [--per-page N]',
  keysCreate: 'hostcloud admin keys create ACCOUNT_ID --ip IP_OR_CIDR [--ip IP_OR_CIDR]... [--name NAME] [--test] [--scope SCOPE]... [--sub-user SUB_USER_ID]',
  keysRevoke: 'hostcloud admin keys revoke KEY_ID',
};

const PROFILE_FLAGS = ['email', 'name', 'company', 'phone', 'country', 'status'];

/** API fields of `accounts create` → its flags; the first `ipFlags` allowlist entries came from --ip, the rest from --key. */
const createFlagFor = (ipFlags: number): FlagOf => (field) => {
  const top = field.replace(/\[\d+\]$/, '');
  if (PROFILE_FLAGS.includes(top)) return { name: `--${top}` };
  if (top === 'deposit.amount' || top === 'deposit') return { name: '--deposit', hint: AMOUNT_HINT };
  if (top === 'api_key.ip_allowlist') {
    const index = /\[(\d+)\]$/.exec(field)?.[1];
    return { name: index !== undefined && Number(index) >= ipFlags ? '--key' : '--ip' };
  }
  if (top === 'api_key.scopes') return { name: '--scope' };
  if (top === 'api_key.name') return { name: '--key-name' };
  if (top === 'api_key.is_test') return { name: '--test-key' };
  return null;
};

const keyFlag: FlagOf = (field) => {
  const top = field.replace(/\[\d+\]$/, '');
  if (top === 'ip_allowlist') return { name: '--ip' };
  if (top === 'scopes') return { name: '--scope' };
  if (top === 'name' || top === 'is_test') return { name: top === 'name' ? '--name' : '--test' };
  if (top === 'sub_user_id') return { name: '--sub-user' };
  return null;
};

const profileFlag: FlagOf = (field) => (PROFILE_FLAGS.includes(field) ? { name: `--${field}` } : null);

function keyLine(k: Row): string {
  const scopes = k.scopes === null ? 'every scope' : `scopes ${text(k.scopes)}`;
  const subUser = k.sub_user_id === null || k.sub_user_id === undefined ? '' : ` · for sub-user ${k.sub_user_id} (and its permissions)`;
  return `${k.id} "${k.name}" (${k.is_test ? 'test' : 'live'}, ${k.status}) · allows ${text(k.ip_allowlist)} · ${scopes}${subUser}`;
}

function showSecret(out: Out, key: string): void {
  out.io.stdout(`\nAPI key (shown once, store it now): ${key}\n`);
}

async function create(conn: Conn, out: Out, args: string[]): Promise<void> {
  const usage = ACCOUNT_USAGE.create;
  const { values, positionals: extra } = parse(args, {
    email: { type: 'string' }, name: { type: 'string' }, company: { type: 'string' }, phone: { type: 'string' }, country: { type: 'string' },
    deposit: { type: 'string' }, ip: { type: 'string', multiple: true }, key: { type: 'string', multiple: true },
    'key-name': { type: 'string' }, 'test-key': { type: 'boolean' }, scope: { type: 'string', multiple: true },
  }, usage);
  positionals(extra, [], usage);
  // --key is the older name of --ip (an allowlist entry of the first key); both may be given.
  const ips = [...(values.ip ?? []), ...(values.key ?? [])];
  const createFlag = createFlagFor(values.ip?.length ?? 0);
  const wantsKey = ips.length > 0 || values['test-key'] || values.scope !== undefined || values['key-name'] !== undefined;
  const email = values.email;
  const body = {
    email,
    name: values.name ?? email?.split('@')[0],
    ...(values.company !== undefined ? { company: values.company } : {}),
    ...(values.phone !== undefined ? { phone: values.phone } : {}),
    ...(values.country !== undefined ? { country: values.country } : {}),
    ...(values.deposit !== undefined ? { deposit: { amount: values.deposit } } : {}),
    ...(wantsKey ? { api_key: { name: values['key-name'] ?? 'default', ip_allowlist: ips, is_test: values['test-key'] ?? false, ...(values.scope ? { scopes: values.scope } : {}) } } : {}),
  };
  // Every input, checked by the same rules the server applies, before anything is sent.
  const problems = openAccountProblems({
    profile: body,
    deposit: body.deposit,
    apiKey: body.api_key && { ipAllowlist: body.api_key.ip_allowlist, scopes: body.api_key.scopes },
  }).map((p) => (p.field === 'api_key.ip_allowlist' && ips.length === 0 ? { ...p, message: 'is required for an API key (--test-key, --scope and --key-name describe it)' } : p));
  if (problems.length) refuse(problemLines(problems, createFlag), 'nothing was created');
  const answer = await worded(createFlag, () => call(conn, 'POST', '/accounts', body));
  const data = answer.data as Row;
  const { deposit, api_key: key, ...account } = data as Row & { deposit?: Row; api_key?: Row & { key: string } };
  out.show(answer, () => [
    `Account ${account.id} opened`,
    record(account),
    ...(deposit ? [`Deposit: ${text(deposit.amount)} (transaction ${deposit.id}, "${deposit.description}")`] : []),
    ...(key ? [`API key: ${keyLine(key)}`] : []),
  ].join('\n'));
  if (key && !out.json) showSecret(out, key.key);
}

async function list(conn: Conn, out: Out, args: string[]): Promise<void> {
  const usage = ACCOUNT_USAGE.list;
  const { values, positionals: extra } = parse(args, { email: { type: 'string' }, status: { type: 'string' }, page: { type: 'string' }, 'per-page': { type: 'string' } }, usage);
  positionals(extra, [], usage);
  if (values.status !== undefined && !STATUSES.includes(values.status)) refuse([`--status must be one of ${STATUSES.join(', ')}`]);
  const answer = await call(conn, 'GET', `/accounts${pageQuery(values, { email: values.email, status: values.status })}`);
  out.show(answer, (a) => listing(a as never, columns('id', 'email', 'name', 'status', 'balance', 'created_at'), 'accounts'));
}

async function update(conn: Conn, out: Out, args: string[]): Promise<void> {
  const usage = ACCOUNT_USAGE.update;
  const { values, positionals: pos } = parse(args, {
    status: { type: 'string' }, email: { type: 'string' }, name: { type: 'string' }, company: { type: 'string' }, phone: { type: 'string' }, country: { type: 'string' },
  }, usage);
  const [id] = positionals(pos, ['ACCOUNT_ID'], usage);
  const body: Record<string, string | null> = {};
  for (const [k, v] of Object.entries(values)) if (v !== undefined) body[k] = k !== 'status' && k !== 'email' && k !== 'name' && v === '' ? null : v as string;
  if (Object.keys(body).length === 0) refuse([`nothing to change\nusage: ${usage}`]);
  const problems = problemLines(profileProblems(body as never, false), profileFlag);
  if (values.status !== undefined && !STATUSES.includes(values.status)) problems.push(`--status must be one of ${STATUSES.join(', ')}`);
  if (problems.length) refuse(problems, 'nothing was changed');
  const answer = await worded(profileFlag, () => call(conn, 'PATCH', `/accounts/${encodeURIComponent(id!)}`, body));
  out.show(answer, (a) => `Account ${(a.data as Row).id} updated\n${record(a.data as Row)}`);
}

async function deposit(conn: Conn, out: Out, args: string[]): Promise<void> {
  const usage = ACCOUNT_USAGE.deposit;
  // "-5" would read as an option; it is a (refused) amount.
  if (args.some((a) => /^-\d/.test(a))) refuse(['AMOUNT must be positive: a deposit adds money, like 150.00']);
  const { values, positionals: pos } = parse(args, { description: { type: 'string' } }, usage);
  const [id, amount] = positionals(pos, ['ACCOUNT_ID', 'AMOUNT'], usage);
  const checked = depositCents(amount!);
  if ('problem' in checked) refuse([`AMOUNT ${checked.problem}`]);
  const flagOf: FlagOf = (f) => (f === 'amount' ? { name: 'AMOUNT', hint: AMOUNT_HINT } : f === 'description' ? { name: '--description' } : null);
  const answer = await worded(flagOf, () => call(conn, 'POST', `/accounts/${encodeURIComponent(id!)}/deposits`, { amount: amount!.trim(), ...(values.description ? { description: values.description } : {}) }));
  const account = (await call(conn, 'GET', `/accounts/${encodeURIComponent(id!)}`)).data as Row;
  out.show(answer, (a) => {
    const tx = a.data as Row;
    return `Deposited ${text(tx.amount)} to ${id} (transaction ${tx.id}, "${tx.description}"); balance now ${text(account.balance)}`;
  });
}

async function transactions(conn: Conn, out: Out, args: string[]): Promise<void> {
  const usage = ACCOUNT_USAGE.transactions;
  const { values, positionals: pos } = parse(args, { type: { type: 'string' }, page: { type: 'string' }, 'per-page': { type: 'string' } }, usage);
  const [id] = positionals(pos, ['ACCOUNT_ID'], usage);
  if (values.type !== undefined && !['deposit', 'withdraw', 'refund'].includes(values.type)) refuse(['--type must be one of deposit, withdraw, refund']);
  const answer = await call(conn, 'GET', `/accounts/${encodeURIComponent(id!)}/transactions${pageQuery(values, { type: values.type })}`);
  out.show(answer, (a) => listing(a as never, columns('id', 'created_at', 'type', 'amount', 'description'), 'transactions'));
}

async function keys(conn: Conn, out: Out, action: string | undefined, args: string[]): Promise<boolean> {
  if (action === 'list') {
    const usage = ACCOUNT_USAGE.keysList;
    const { values, positionals: pos } = parse(args, { page: { type: 'string' }, 'per-page': { type: 'string' } }, usage);
    const [id] = positionals(pos, ['ACCOUNT_ID'], usage);
    const answer = await call(conn, 'GET', `/accounts/${encodeURIComponent(id!)}/api-keys${pageQuery(values)}`);
    out.show(answer, (a) => listing(a as never, [
      ...columns('id', 'name', 'prefix'),
      { header: 'KIND', get: (r) => (r.is_test ? 'test' : 'live') },
      ...columns('status', 'ip_allowlist'),
      { header: 'SCOPES', get: (r) => r.scopes ?? 'all' },
      { header: 'SUB_USER', get: (r) => r.sub_user_id ?? '-' },
      ...columns('last_used_at', 'created_at'),
    ], 'keys'));
    return true;
  }
  if (action === 'create') {
    const usage = ACCOUNT_USAGE.keysCreate;
    const { values, positionals: pos } = parse(args, {
      ip: { type: 'string', multiple: true }, name: { type: 'string' }, test: { type: 'boolean' }, scope: { type: 'string', multiple: true },
      'sub-user': { type: 'string' },
    }, usage);
    const [id] = positionals(pos, ['ACCOUNT_ID'], usage);
    if (!values.ip?.length) refuse([`--ip is required (one or more IP addresses or CIDR ranges the key may be used from)\nusage: ${usage}`]);
    const problems = problemLines(checkKeyInput({ ipAllowlist: values.ip, scopes: values.scope }).errors, keyFlag);
    const subUser = values['sub-user'];
    if (subUser !== undefined && !/^[1-9]\d{0,9}$/.test(subUser)) problems.push('--sub-user must be a sub-user id (a whole number)');
    if (problems.length) refuse(problems, 'no key was made');
    const answer = await worded(keyFlag, () => call(conn, 'POST', `/accounts/${encodeURIComponent(id!)}/api-keys`, {
      name: values.name ?? 'default', ip_allowlist: values.ip, is_test: values.test ?? false, ...(values.scope ? { scopes: values.scope } : {}),
      ...(subUser !== undefined ? { sub_user_id: Number(subUser) } : {}),
    }));
    const key = answer.data as Row & { key: string };
    out.show(answer, () => `API key created for ${id}: ${keyLine(key)}`);
    if (!out.json) showSecret(out, key.key);
    return true;
  }
  if (action === 'revoke') {
    const usage = ACCOUNT_USAGE.keysRevoke;
    const [id] = positionals(parse(args, {}, usage).positionals, ['KEY_ID'], usage);
    const answer = await call(conn, 'DELETE', `/api-keys/${encodeURIComponent(id!)}`);
    out.show(answer, (a) => `API key revoked: ${keyLine(a.data as Row)}`);
    return true;
  }
  return false;
}

/** Runs an account command; false when `group action` is not one. */
export async function accountCommand(conn: Conn, out: Out, group: string, action: string | undefined, args: string[]): Promise<boolean> {
  if (group === 'accounts') {
    if (action === 'create') await create(conn, out, args);
    else if (action === 'list') await list(conn, out, args);
    else if (action === 'update') await update(conn, out, args);
    else if (action === 'invite') {
      const [id] = positionals(parse(args, {}, ACCOUNT_USAGE.invite).positionals, ['ACCOUNT_ID'], ACCOUNT_USAGE.invite);
      const answer = await call(conn, 'POST', `/accounts/${encodeURIComponent(id!)}/panel-invitation`);
      out.show(answer, (a) => {
        const inv = a.data as Row;
        return `Panel invitation for ${text(inv.email)} (works once, until ${text(inv.expires_at)}; also queued as an email):\n${text(inv.url)}`;
      });
    }
    else if (action === 'get') {
      const [id] = positionals(parse(args, {}, ACCOUNT_USAGE.get).positionals, ['ACCOUNT_ID'], ACCOUNT_USAGE.get);
      const answer = await call(conn, 'GET', `/accounts/${encodeURIComponent(id!)}`);
      const services = out.json ? '' : await accountServices(conn, id!);
      out.show(answer, (a) => `Account ${(a.data as Row).id}\n${record(a.data as Row)}\n${services}`);
    } else return false;
    return true;
  }
  // `deposit` and `transactions` take the account as their first argument.
  const rest = action === undefined ? args : [action, ...args];
  if (group === 'deposit') await deposit(conn, out, rest);
  else if (group === 'transactions') await transactions(conn, out, rest);
  else if (group === 'keys') return keys(conn, out, action, args);
  else return false;
  return true;
}

export type { Json };
