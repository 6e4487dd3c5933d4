// `hostcloud admin operations …`: every account's operations over the admin API — list with
// filters, get one, cancel (refunded now, or asked to stop), retry a failed one. Input is checked
// before anything is sent.
import { OPERATIONS } from '../core/families.ts';
import { type Out, pageQuery, parse, positionals, refuse } from './admin-args.ts';
import { columns, listing, record } from './admin-format.ts';
import { type Conn, call } from './admin-http.ts';

type Row = Record<string, unknown>;

const STATUSES = ['queued', 'running', 'completed', 'failed', 'stuck'] as const;
const TYPES = Object.keys(OPERATIONS);

export const OPERATION_USAGE = {
  list: 'hostcloud admin operations list [--status queued|running|completed|failed|stuck] [--type TYPE] [--account ACCOUNT_ID] [--node NODE_ID] '
    + '[--resource RESOURCE_ID] [--since TIME] [--page N] [--per-page N]',
  get: 'hostcloud admin operations get OPERATION_ID',
  cancel: 'hostcloud admin operations cancel OPERATION_ID',
  retry: 'hostcloud admin operations retry OPERATION_ID',
};

const operationColumns = [
  ...columns('id', 'type', 'status', 'account_id'),
  { header: 'RESOURCE', get: (r: Row) => (r.resource as { id?: string } | undefined)?.id ?? '-' },
  { header: 'ATTEMPTS', get: (r: Row) => `${r.attempts}${r.stuck ? ' (stuck)' : ''}` },
  ...columns('created_at', 'detail'),
];

async function list(conn: Conn, out: Out, args: string[]): Promise<void> {
  const usage = OPERATION_USAGE.list;
  const { values, positionals: extra } = parse(args, {
    status: { type: 'string' }, type: { type: 'string' }, account: { type: 'string' }, node: { type: 'string' }, resource: { type: 'string' },
    since: { type: 'string' }, page: { type: 'string' }, 'per-page': { type: 'string' },
  }, usage);
  positionals(extra, [], usage);
  const since = values.since === undefined ? undefined : new Date(values.since);
  const problems = [
    ...(values.status !== undefined && !(STATUSES as readonly string[]).includes(values.status) ? [`--status must be one of ${STATUSES.join(', ')}`] : []),
    ...(values.type !== undefined && !TYPES.includes(values.type) ? [`--type must be an operation type, such as server.create (one of ${TYPES.join(', ')})`] : []),
    ...(values.node !== undefined && !/^[1-9]\d{0,8}$/.test(values.node) ? ['--node must be a node id (a whole number)'] : []),
    ...(since !== undefined && Number.isNaN(since.getTime()) ? ['--since must be a date and time, such as 2026-11-22T08:30:00Z'] : []),
  ];
  if (problems.length) refuse(problems);
  const query = pageQuery(values, {
    status: values.status, type: values.type, account_id: values.account, node_id: values.node, resource_id: values.resource,
    since: since?.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  });
  out.show(await call(conn, 'GET', `/operations${query}`), (a) => listing(a as never, operationColumns, 'operations'));
}

/** The operation's fields, its resource flattened. */
function show(op: Row): string {
  const { resource, ...fields } = op;
  const r = resource as { type?: string; id?: string } | undefined;
  return [`Operation ${fields.id} (${fields.type})`, record({ ...fields, resource: r ? `${r.type} ${r.id}` : '-' })].join('\n');
}

export async function operationsCommand(conn: Conn, out: Out, action: string | undefined, args: string[]): Promise<boolean> {
  const one = (usage: string) => {
    const [id] = positionals(parse(args, {}, usage).positionals, ['OPERATION_ID'], usage);
    return `/operations/${encodeURIComponent(id!)}`;
  };
  if (action === 'list') await list(conn, out, args);
  else if (action === 'get') out.show(await call(conn, 'GET', one(OPERATION_USAGE.get)), (a) => show(a.data as Row));
  else if (action === 'cancel') {
    const answer = await call(conn, 'POST', `${one(OPERATION_USAGE.cancel)}/cancel`);
    const op = answer.data as Row;
    out.show(answer, () => (op.status === 'failed'
      ? `Operation ${op.id} cancelled: it is failed, and anything charged for it was refunded`
      : `Operation ${op.id} is running: it was asked to stop at its next step (see: hostcloud admin operations get ${op.id})`));
  } else if (action === 'retry') {
    const answer = await call(conn, 'POST', `${one(OPERATION_USAGE.retry)}/retry`);
    const op = answer.data as Row;
    out.show(answer, () => `Queued again as operation ${op.id} (${op.type} on ${(op.resource as { id?: string }).id})`);
  } else return false;
  return true;
}
