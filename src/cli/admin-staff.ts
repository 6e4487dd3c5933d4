// `hostcloud admin staff …`: staff members, their console sessions and API tokens over
// /admin/v1/staff… (docs/staff.md). Roles and statuses are checked before anything is sent.
import { STAFF_ROLES } from '../core/staff/roles.ts';
import { type Out, pageQuery, parse, positionals, refuse } from './admin-args.ts';
import { columns, listing, record } from './admin-format.ts';
import { type Conn, type FlagOf, type Json, call, worded } from './admin-http.ts';

type Row = Record<string, unknown>;

const STATUSES = ['active', 'disabled'] as const;

export const STAFF_USAGE = {
  list: `hostcloud admin staff list [--role ${STAFF_ROLES.join('|')}] [--status active|disabled] [--page N] [--per-page N]`,
  get: 'hostcloud admin staff get STAFF_ID',
  invite: `hostcloud admin staff invite --email EMAIL --name NAME --role ${STAFF_ROLES.join('|')}`,
  reinvite: 'hostcloud admin staff reinvite STAFF_ID',
  update: `hostcloud admin staff update STAFF_ID [--name NAME] [--role ${STAFF_ROLES.join('|')}] [--status active|disabled]`,
  disable: 'hostcloud admin staff disable STAFF_ID',
  'reset-2fa': 'hostcloud admin staff reset-2fa STAFF_ID',
  sessions: 'hostcloud admin staff sessions STAFF_ID',
  'revoke-session': 'hostcloud admin staff revoke-session STAFF_ID SESSION_ID',
  tokens: 'hostcloud admin staff tokens STAFF_ID',
  'create-token': 'hostcloud admin staff create-token STAFF_ID --name NAME [--ip IP_OR_CIDR]...',
  'revoke-token': 'hostcloud admin staff revoke-token TOKEN_ID',
};

const FLAGS: Record<string, string> = { email: '--email', name: '--name', role: '--role', status: '--status', ip_allowlist: '--ip' };
const flagOf: FlagOf = (field) => {
  const top = field.split(/[.[/]/).filter(Boolean)[0] ?? field;
  return FLAGS[top] ? { name: FLAGS[top]! } : null;
};

const oneOf = (flag: string, value: string | undefined, allowed: readonly string[]): string[] =>
  (value !== undefined && !allowed.includes(value) ? [`${flag} must be one of ${allowed.join(', ')}`] : []);

const member = (id: string, rest = '') => `/staff/${encodeURIComponent(id)}${rest}`;
const memberColumns = columns('id', 'email', 'name', 'role', 'status', 'password_set', 'two_factor_enabled', 'created_at');
const one = (title: string) => (a: Json) => `${title}\n${record(a.data as Row)}`;

/** The one id a command takes (STAFF_ID, TOKEN_ID), and no option. */
function idOf(args: string[], usage: string, name = 'STAFF_ID'): string {
  return positionals(parse(args, {}, usage).positionals, [name], usage)[0]!;
}

async function list(conn: Conn, out: Out, args: string[]): Promise<void> {
  const usage = STAFF_USAGE.list;
  const { values, positionals: extra } = parse(args, { role: { type: 'string' }, status: { type: 'string' }, page: { type: 'string' }, 'per-page': { type: 'string' } }, usage);
  positionals(extra, [], usage);
  const problems = [...oneOf('--role', values.role, STAFF_ROLES), ...oneOf('--status', values.status, STATUSES)];
  if (problems.length) refuse(problems);
  out.show(await call(conn, 'GET', `/staff${pageQuery(values, { role: values.role, status: values.status })}`), (a) => listing(a as never, memberColumns, 'staff members'));
}

async function invite(conn: Conn, out: Out, args: string[]): Promise<void> {
  const usage = STAFF_USAGE.invite;
  const { values, positionals: extra } = parse(args, { email: { type: 'string' }, name: { type: 'string' }, role: { type: 'string' } }, usage);
  positionals(extra, [], usage);
  const missing = (['email', 'name', 'role'] as const).filter((f) => values[f] === undefined).map((f) => `--${f} is required`);
  const problems = [...missing, ...oneOf('--role', values.role, STAFF_ROLES)];
  if (problems.length) refuse([...problems, `usage: ${usage}`], 'nobody was invited');
  const answer = await worded(flagOf, () => call(conn, 'POST', '/staff', { email: values.email, name: values.name, role: values.role }));
  const m = answer.data as Row;
  out.show(answer, () => `Staff member ${m.id} invited as ${m.role}; the set-password link (works once, until ${m.expires_at}) was queued to ${m.email}:\n  ${m.url}`);
}

async function update(conn: Conn, out: Out, args: string[]): Promise<void> {
  const usage = STAFF_USAGE.update;
  const { values, positionals: pos } = parse(args, { name: { type: 'string' }, role: { type: 'string' }, status: { type: 'string' } }, usage);
  const [id] = positionals(pos, ['STAFF_ID'], usage);
  const body: Row = {};
  for (const k of ['name', 'role', 'status'] as const) if (values[k] !== undefined) body[k] = values[k];
  const problems = [...oneOf('--role', values.role, STAFF_ROLES), ...oneOf('--status', values.status, STATUSES)];
  if (Object.keys(body).length === 0) problems.push('give at least one of --name, --role, --status');
  if (problems.length) refuse(problems, 'nothing was changed');
  const answer = await worded(flagOf, () => call(conn, 'PATCH', member(id!), body));
  out.show(answer, one(`Staff member ${id}: updated`));
}

async function createToken(conn: Conn, out: Out, args: string[]): Promise<void> {
  const usage = STAFF_USAGE['create-token'];
  const { values, positionals: pos } = parse(args, { name: { type: 'string' }, ip: { type: 'string', multiple: true } }, usage);
  const [id] = positionals(pos, ['STAFF_ID'], usage);
  if (values.name === undefined) refuse([`--name is required\nusage: ${usage}`], 'no token was made');
  const body: Row = { name: values.name, ...(values.ip ? { ip_allowlist: values.ip } : {}) };
  const answer = await worded(flagOf, () => call(conn, 'POST', member(id!, '/tokens'), body));
  const t = answer.data as Row;
  out.show(answer, () => `Token ${t.id} "${t.name}" for ${t.staff_id}${t.ip_allowlist ? ` (only from ${(t.ip_allowlist as string[]).join(', ')})` : ''}; its secret, shown only now:\n  ${t.token}`);
}

export async function staffCommand(conn: Conn, out: Out, action: string | undefined, args: string[]): Promise<boolean> {
  if (action === 'list') await list(conn, out, args);
  else if (action === 'get') {
    const id = idOf(args, STAFF_USAGE.get);
    out.show(await call(conn, 'GET', member(id)), one(`Staff member ${id}`));
  } else if (action === 'invite') await invite(conn, out, args);
  else if (action === 'reinvite') {
    const id = idOf(args, STAFF_USAGE.reinvite);
    const answer = await call(conn, 'POST', member(id, '/invitation'));
    const d = answer.data as Row;
    out.show(answer, () => `A new set-password link for ${id} (works once, until ${d.expires_at}; the earlier one no longer works):\n  ${d.url}`);
  } else if (action === 'update') await update(conn, out, args);
  else if (action === 'disable') {
    const id = idOf(args, STAFF_USAGE.disable);
    const answer = await call(conn, 'PATCH', member(id), { status: 'disabled' });
    out.show(answer, () => `Staff member ${id} disabled: its sessions ended and its tokens were revoked`);
  } else if (action === 'reset-2fa') {
    const id = idOf(args, STAFF_USAGE['reset-2fa']);
    const answer = await call(conn, 'POST', member(id, '/two-factor/reset'));
    out.show(answer, () => `Two-factor of ${id} cleared and its sessions ended; it enrols again at its next sign-in`);
  } else if (action === 'sessions') {
    const id = idOf(args, STAFF_USAGE.sessions);
    out.show(await call(conn, 'GET', member(id, '/sessions')), (a) => listing(a as never, columns('id', 'ip', 'user_agent', 'created_at', 'last_seen_at', 'expires_at'), 'sessions'));
  } else if (action === 'revoke-session') {
    const usage = STAFF_USAGE['revoke-session'];
    const [id, session] = positionals(parse(args, {}, usage).positionals, ['STAFF_ID', 'SESSION_ID'], usage);
    const answer = await call(conn, 'DELETE', member(id!, `/sessions/${encodeURIComponent(session!)}`));
    out.show(answer, () => `Session ${session} of ${id} ended`);
  } else if (action === 'tokens') {
    const id = idOf(args, STAFF_USAGE.tokens);
    out.show(await call(conn, 'GET', member(id, '/tokens')), (a) => listing(a as never, columns('id', 'name', 'prefix', 'ip_allowlist', 'created_at', 'last_used_at'), 'tokens'));
  } else if (action === 'create-token') await createToken(conn, out, args);
  else if (action === 'revoke-token') {
    const id = idOf(args, STAFF_USAGE['revoke-token'], 'TOKEN_ID');
    const answer = await call(conn, 'DELETE', `/staff-tokens/${encodeURIComponent(id)}`);
    out.show(answer, () => `Token ${id} revoked; using it now answers 401`);
  } else return false;
  return true;
}
