// GET /admin/v1/registrar-messages: what the registry's message queue told us (EPP <poll>, read by
// the worker every EPP_POLL_S) — transfers' outcomes and the registry's notices — newest first, with
// filters. `hostcloud admin registrar messages` reads it.
import { Type } from '@sinclair/typebox';
import { listRegistrarMessages } from '../../core/domains/registrar-messages.ts';
import { timestamp, ts } from '../../core/time.ts';
import type { RegistrarMessage } from '../../db/schema.ts';
import { page, pageOf } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { ListEnvelope, NullableTimestamp, PageQuery, StringEnum, Timestamp, errorResponses } from '../schemas.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'infrastructure' as const };
const tags = ['Admin provider'];

const Message = Type.Object({
  id: Type.String({ description: 'Ours, in the order the messages were read' }),
  registrar: Type.String({ description: 'The registrar driver that read it (e.g. EPP)' }),
  msg_id: Type.String({ description: 'The registry\'s message id (acknowledged once recorded)' }),
  kind: StringEnum(['transfer', 'notice'] as const, { description: 'transfer: a transfer\'s outcome; notice: anything else the registry says (maintenance, policy…)' }),
  domain: Type.Union([Type.String(), Type.Null()], { description: 'The domain it is about, when it names one' }),
  text: Type.String(),
  detail: Type.Record(Type.String(), Type.Unknown(), { description: 'For a transfer: state, gaining and losing registrar, whether it is ours' }),
  queued_at: NullableTimestamp,
  received_at: Timestamp,
}, { title: 'RegistrarMessage' });

const view = (m: RegistrarMessage) => ({
  id: m.id, registrar: m.registrar, msg_id: m.msg_id, kind: m.kind, domain: m.domain, text: m.text,
  detail: (m.detail ?? {}) as Record<string, unknown>, queued_at: timestamp(m.queued_at), received_at: ts(m.received_at),
});

export function register(app: TypedApp, { db }: RouteDeps) {
  app.get('/registrar-messages', {
    config: admin,
    schema: {
      operationId: 'listRegistrarMessages',
      tags,
      summary: 'The registry\'s messages the worker read from its queue, newest first',
      querystring: Type.Object({
        ...PageQuery(),
        kind: Type.Optional(StringEnum(['transfer', 'notice'] as const)),
        domain: Type.Optional(Type.String({ minLength: 1, maxLength: 253, description: 'Messages about this domain (IDN or punycode)' })),
        registrar: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        since: Type.Optional({ ...Timestamp, description: 'Only messages read at or after this instant (RFC 3339).' }),
      }, { additionalProperties: false }),
      response: { 200: ListEnvelope(Message), ...errorResponses() },
    },
  }, async (request) => {
    const { kind, domain, registrar, since, ...p } = request.query;
    return page(request, await listRegistrarMessages(db, { kind, domain, registrar, since: since === undefined ? undefined : new Date(since) }, pageOf(p)), view);
  });
}
