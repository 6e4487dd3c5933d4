// `hostcloud admin registrar messages …`: what the registry's message queue told us (transfers'
// outcomes, the registry's notices), newest first, over the admin API. Input is checked before
// anything is sent.
import { type Out, pageQuery, parse, positionals, refuse } from './admin-args.ts';
import { columns, listing } from './admin-format.ts';
import { type Conn, call } from './admin-http.ts';

export const REGISTRAR_MESSAGES_USAGE = 'hostcloud admin registrar messages [--kind transfer|notice] [--domain DOMAIN] [--registrar NAME] [--since TIME] [--page N] [--per-page N]';

const KINDS = ['transfer', 'notice'];

export async function registrarMessagesCommand(conn: Conn, out: Out, args: string[]): Promise<void> {
  const usage = REGISTRAR_MESSAGES_USAGE;
  const { values, positionals: extra } = parse(args, {
    kind: { type: 'string' }, domain: { type: 'string' }, registrar: { type: 'string' }, since: { type: 'string' }, page: { type: 'string' }, 'per-page': { type: 'string' },
  }, usage);
  positionals(extra, [], usage);
  const since = values.since === undefined ? undefined : new Date(values.since);
  const problems = [
    ...(values.kind !== undefined && !KINDS.includes(values.kind) ? [`--kind must be one of ${KINDS.join(', ')}`] : []),
    ...(since !== undefined && Number.isNaN(since.getTime()) ? ['--since must be a date and time, such as 2026-11-22T08:30:00Z'] : []),
  ];
  if (problems.length) refuse(problems);
  const query = pageQuery(values, {
    kind: values.kind, domain: values.domain, registrar: values.registrar, since: since?.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  });
  out.show(await call(conn, 'GET', `/registrar-messages${query}`), (a) => listing(a as never, columns('received_at', 'kind', 'domain', 'msg_id', 'text'), 'messages'));
}
