// `hostcloud admin tickets …`: support staff's commands over the admin API. Input is checked with
// the core's own rules before anything is sent.
import { PRIORITIES, STAFF_SETTABLE, TICKET_STATUSES, staffTextProblem } from '../core/tickets/rules.ts';
import { type Out, pageQuery, parse, positionals, refuse } from './admin-args.ts';
import { columns, listing, record, text } from './admin-format.ts';
import { type Conn, type FlagOf, type Json, call, worded } from './admin-http.ts';

type Row = Record<string, unknown>;

export const TICKET_USAGE = {
  list: 'hostcloud admin tickets list [--status STATUS] [--account ACCOUNT_ID] [--department ID] [--priority low|medium|high|urgent] [--assignee me|none|STAFF_ID] [--search TEXT] [--page N] [--per-page N]',
  show: 'hostcloud admin tickets show TICKET',
  reply: 'hostcloud admin tickets reply TICKET MESSAGE',
  note: 'hostcloud admin tickets note TICKET MESSAGE',
  status: `hostcloud admin tickets status TICKET ${STAFF_SETTABLE.join('|')}`,
  delete: 'hostcloud admin tickets delete TICKET',
  assign: 'hostcloud admin tickets assign TICKET STAFF_ID|none',
  close: 'hostcloud admin tickets close TICKET...',
};

const oneOf = (flag: string, value: string | undefined, allowed: readonly string[]): string[] =>
  (value !== undefined && !allowed.includes(value) ? [`${flag} must be one of ${allowed.join(', ')}`] : []);

const messageFlag: FlagOf = (field) => (field === 'message' ? { name: 'MESSAGE' } : null);

/** The ticket's fields, then its thread (notes marked), oldest first. */
function showTicket(t: Row & { messages?: Row[] }): string {
  const { messages = [], ...fields } = t;
  const thread = messages.map((m) => {
    const who = m.internal ? 'staff (internal note)' : String(m.author);
    const body = String(m.message).split('\n').map((l) => `    ${l}`).join('\n');
    return `  ${m.created_at}  ${who}\n${body}`;
  });
  return [`Ticket ${fields.id} "${fields.subject}"`, record(fields), `Thread (${messages.length}):`, ...thread].join('\n');
}

const ticketColumns = [
  ...columns('id', 'account_id', 'status', 'priority'),
  { header: 'DEPARTMENT', get: (r: Row) => (r.department as { name?: string } | null)?.name ?? '-' },
  { header: 'ASSIGNEE', get: (r: Row) => (r.assignee as { name?: string } | null)?.name ?? '-' },
  ...columns('subject', 'created_at'),
];

async function list(conn: Conn, out: Out, args: string[]): Promise<void> {
  const usage = TICKET_USAGE.list;
  const { values, positionals: extra } = parse(args, {
    status: { type: 'string' }, account: { type: 'string' }, department: { type: 'string' }, priority: { type: 'string' },
    assignee: { type: 'string' }, search: { type: 'string' }, page: { type: 'string' }, 'per-page': { type: 'string' },
  }, usage);
  positionals(extra, [], usage);
  const problems = [
    ...oneOf('--status', values.status, TICKET_STATUSES),
    ...oneOf('--priority', values.priority, PRIORITIES),
    ...(values.department !== undefined && !/^[1-9]\d{0,8}$/.test(values.department) ? ['--department must be a department id (a whole number)'] : []),
    ...(values.assignee !== undefined && values.assignee.trim() === '' ? ['--assignee must be me, none or a staff member\'s id'] : []),
    ...(values.search !== undefined && values.search.trim() === '' ? ['--search must not be blank'] : []),
  ];
  if (problems.length) refuse(problems);
  const query = pageQuery(values, {
    status: values.status, account_id: values.account, department_id: values.department, priority: values.priority, assignee: values.assignee, q: values.search,
  });
  out.show(await call(conn, 'GET', `/tickets${query}`), (a) => listing(a as never, ticketColumns, 'tickets'));
}

/** TICKET MESSAGE, the message checked by the staff rule (not blank, at most 10,000 characters). */
function ticketAndMessage(args: string[], usage: string): [string, string] {
  const [id, message] = positionals(parse(args, {}, usage).positionals, ['TICKET', 'MESSAGE'], usage);
  const problem = staffTextProblem(message!);
  if (problem) refuse([`MESSAGE ${problem}`]);
  return [id!, message!];
}

export async function ticketCommand(conn: Conn, out: Out, action: string | undefined, args: string[]): Promise<boolean> {
  const url = (id: string, rest = '') => `/tickets/${encodeURIComponent(id)}${rest}`;
  if (action === 'list') await list(conn, out, args);
  else if (action === 'show') {
    const [id] = positionals(parse(args, {}, TICKET_USAGE.show).positionals, ['TICKET'], TICKET_USAGE.show);
    out.show(await call(conn, 'GET', url(id!)), (a) => showTicket(a.data as Row));
  } else if (action === 'reply' || action === 'note') {
    const [id, message] = ticketAndMessage(args, TICKET_USAGE[action]);
    const answer = await worded(messageFlag, () => call(conn, 'POST', url(id, action === 'reply' ? '/replies' : '/notes'), { message }));
    const t = answer.data as Row;
    out.show(answer, () => (action === 'reply'
      ? `Replied to ticket ${t.id}; it is now ${t.status}, and the customer was notified`
      : `Internal note added to ticket ${t.id} (status stays ${t.status})`));
  } else if (action === 'status') {
    const usage = TICKET_USAGE.status;
    const [id, status] = positionals(parse(args, {}, usage).positionals, ['TICKET', 'STATUS'], usage);
    const problems = oneOf('STATUS', status, STAFF_SETTABLE);
    if (problems.length) refuse(problems);
    const answer = await worded((f) => (f === 'status' ? { name: 'STATUS' } : null), () => call(conn, 'PATCH', url(id!), { status }));
    out.show(answer, (a) => `Ticket ${(a.data as Row).id} is now ${(a.data as Row).status}`);
  } else if (action === 'assign') {
    const usage = TICKET_USAGE.assign;
    const [id, who] = positionals(parse(args, {}, usage).positionals, ['TICKET', 'STAFF_ID'], usage);
    const answer = await worded((f) => (f === 'assignee_id' ? { name: 'STAFF_ID' } : null), () => call(conn, 'PATCH', url(id!), { assignee_id: who === 'none' ? null : who }));
    const t = answer.data as Row & { assignee: { name: string } | null };
    out.show(answer, () => (t.assignee ? `Ticket ${t.id} is assigned to ${t.assignee.name}` : `Ticket ${t.id} is assigned to nobody`));
  } else if (action === 'close') {
    const usage = TICKET_USAGE.close;
    const ids = parse(args, {}, usage).positionals;
    if (ids.length === 0) refuse(['TICKET is missing', `usage: ${usage}`]);
    const answer = await call(conn, 'POST', '/tickets/close', { ids });
    const r = answer.data as { closed: string[]; already_closed: string[]; not_found: string[] };
    out.show(answer, () => [
      `Closed ${r.closed.length} of ${ids.length}${r.closed.length ? `: ${r.closed.join(', ')}` : ''}`,
      ...(r.already_closed.length ? [`Already closed: ${r.already_closed.join(', ')}`] : []),
      ...(r.not_found.length ? [`Not found: ${r.not_found.join(', ')}`] : []),
    ].join('\n'));
  } else if (action === 'delete') {
    const [id] = positionals(parse(args, {}, TICKET_USAGE.delete).positionals, ['TICKET'], TICKET_USAGE.delete);
    const answer: Json = await call(conn, 'DELETE', url(id!));
    out.show(answer, (a) => `Ticket ${(a.data as Row).id} deleted ("${text((a.data as Row).subject)}"); it no longer shows anywhere`);
  } else return false;
  return true;
}
