// `hostcloud admin sub-users …` and `hostcloud admin accounts reseller …`: inviting sub-users and
// switching reseller status. Input is checked with the core's own rules before anything is sent.
import { inviteProblems } from '../core/sub-users/rules.ts';
import { type Out, pageQuery, parse, positionals, refuse } from './admin-args.ts';
import { columns, listing, record } from './admin-format.ts';
import { type Conn, type FlagOf, call, problemLines, worded } from './admin-http.ts';

type Row = Record<string, unknown>;

export const SUB_USER_USAGE = {
  create: 'hostcloud admin sub-users create ACCOUNT_ID --email EMAIL --first-name NAME --last-name NAME',
  list: 'hostcloud admin sub-users list ACCOUNT_ID [--status pending|active|inactive] [--page N] [--per-page N]',
  reseller: 'hostcloud admin accounts reseller ACCOUNT_ID --on|--off',
};

const INVITE_FLAGS: Record<string, string> = { email: '--email', first_name: '--first-name', last_name: '--last-name' };
const inviteFlag: FlagOf = (field) => (INVITE_FLAGS[field] ? { name: INVITE_FLAGS[field]! } : null);

async function create(conn: Conn, out: Out, args: string[]): Promise<void> {
  const usage = SUB_USER_USAGE.create;
  const { values, positionals: pos } = parse(args, { email: { type: 'string' }, 'first-name': { type: 'string' }, 'last-name': { type: 'string' } }, usage);
  const [account] = positionals(pos, ['ACCOUNT_ID'], usage);
  const missing = (['email', 'first-name', 'last-name'] as const).filter((f) => values[f] === undefined).map((f) => `--${f} is required`);
  if (missing.length) refuse([...missing, `usage: ${usage}`], 'no sub-user was invited');
  const body = { email: values.email!, first_name: values['first-name']!, last_name: values['last-name']! };
  const problems = problemLines(inviteProblems(body), inviteFlag);
  if (problems.length) refuse(problems, 'no sub-user was invited');
  const answer = await worded(inviteFlag, () => call(conn, 'POST', `/accounts/${encodeURIComponent(account!)}/sub-users`, body));
  out.show(answer, (a) => `Sub-user ${(a.data as Row).id} invited to ${account} (pending, no permissions yet)\n${record(a.data as Row)}`);
}

async function list(conn: Conn, out: Out, args: string[]): Promise<void> {
  const usage = SUB_USER_USAGE.list;
  const { values, positionals: pos } = parse(args, { status: { type: 'string' }, page: { type: 'string' }, 'per-page': { type: 'string' } }, usage);
  const [account] = positionals(pos, ['ACCOUNT_ID'], usage);
  if (values.status !== undefined && !['pending', 'active', 'inactive'].includes(values.status)) refuse(['--status must be one of pending, active, inactive']);
  const answer = await call(conn, 'GET', `/accounts/${encodeURIComponent(account!)}/sub-users${pageQuery(values, { status: values.status })}`);
  out.show(answer, (a) => listing(a as never, columns('id', 'email', 'first_name', 'last_name', 'status', 'created_at'), 'sub-users'));
}

export async function subUserCommand(conn: Conn, out: Out, action: string | undefined, args: string[]): Promise<boolean> {
  if (action === 'create') await create(conn, out, args);
  else if (action === 'list') await list(conn, out, args);
  else return false;
  return true;
}

/** `accounts reseller ACCOUNT_ID --on|--off`. */
export async function resellerCommand(conn: Conn, out: Out, args: string[]): Promise<void> {
  const usage = SUB_USER_USAGE.reseller;
  const { values, positionals: pos } = parse(args, { on: { type: 'boolean' }, off: { type: 'boolean' } }, usage);
  const [account] = positionals(pos, ['ACCOUNT_ID'], usage);
  if (values.on === values.off) refuse([`give exactly one of --on or --off\nusage: ${usage}`]);
  const answer = await call(conn, 'PUT', `/accounts/${encodeURIComponent(account!)}/reseller`, { is_reseller: values.on === true });
  out.show(answer, (a) => {
    const s = a.data as Row & { current_tier: Row | null };
    const tier = s.current_tier ? `tier ${s.current_tier.min_servers}–${s.current_tier.max_servers ?? '∞'} servers` : 'no tier';
    return `${account} is ${s.is_reseller ? 'a reseller' : 'not a reseller'}: ${s.active_server_count} active servers, ${tier}, `
      + `${s.discount_percentage} % off every server charge`;
  });
}
