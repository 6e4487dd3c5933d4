// The notifications outbox as the operator sees it: GET /notifications, newest first, with filters,
// and POST /notifications/{id}/resend. Queued notices are waiting for the worker (or for SMTP_URL).
import { Type } from '@sinclair/typebox';
import { listNotifications } from '../../core/notifications/list.ts';
import { resendNotification } from '../../core/notifications/resend.ts';
import { KIND_MAX, KIND_PATTERN, NOTIFICATION_STATUSES } from '../../core/notifications/types.ts';
import { ts } from '../../core/time.ts';
import type { Notification } from '../../db/schema.ts';
import { ok, page, pageOf } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, ListEnvelope, NullableTimestamp, PageQuery, StringEnum, Timestamp, errorResponses } from '../schemas.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'notifications' as const };

const NotificationSchema = Type.Object({
  id: Type.Integer(),
  account_id: Type.Union([Type.String(), Type.Null()], { description: 'null: a notice to a staff member' }),
  kind: Type.String({ examples: ['hosting.cancelled'] }),
  to_email: Type.String(),
  subject: Type.String(),
  body: Type.String({ description: 'Plain text' }),
  status: StringEnum(NOTIFICATION_STATUSES, { description: 'queued: waiting for the worker (or for SMTP_URL); sent; failed: attempts ran out' }),
  attempts: Type.Integer({ description: 'Sending attempts so far' }),
  last_error: Type.Union([Type.String(), Type.Null()], { description: 'The error of the latest failed attempt (kept when a retry then succeeds)' }),
  next_attempt_at: Type.Union([Timestamp, Type.Null()], { description: 'When a queued notice is tried next; null once sent or failed' }),
  created_at: Timestamp,
  sent_at: NullableTimestamp,
}, { title: 'Notification' });

const notificationView = (n: Notification) => ({
  id: n.id, account_id: n.account_id, kind: n.kind, to_email: n.to_email, subject: n.subject, body: n.body,
  status: n.status, attempts: n.attempts, last_error: n.last_error,
  next_attempt_at: n.status === 'queued' ? ts(n.next_attempt_at) : null,
  created_at: ts(n.created_at), sent_at: n.sent_at ? ts(n.sent_at) : null,
});

const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2 ** 53 - 1, description: 'The notice\'s id.' }) });

export function register(app: TypedApp, { db }: RouteDeps) {
  app.get('/notifications', {
    config: admin,
    schema: {
      operationId: 'listNotifications',
      tags: ['Admin'],
      summary: 'List notifications, newest first',
      querystring: Type.Object({
        ...PageQuery(),
        account_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only notices to this account.' })),
        status: Type.Optional(StringEnum(NOTIFICATION_STATUSES, { description: 'Only notices in this status.' })),
        kind: Type.Optional(Type.String({ pattern: KIND_PATTERN.source, maxLength: KIND_MAX, description: 'Only notices of this kind, e.g. hosting.cancelled.' })),
        q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Part of the address or the subject, any case.' })),
      }, { additionalProperties: false }),
      response: { 200: ListEnvelope(NotificationSchema), ...errorResponses() },
    },
  }, async (request) => {
    const { account_id: accountId, status, kind, q } = request.query;
    return page(request, await listNotifications(db, { accountId, status, kind, q }, pageOf(request.query)), notificationView);
  });

  app.post('/notifications/:id/resend', {
    config: admin,
    schema: {
      operationId: 'resendNotification',
      tags: ['Admin'],
      summary: 'Send a notice again',
      description: 'A `failed` notice is queued again in place (attempts start over, due now; `outcome: requeued`); a `sent` one is copied '
        + 'as a new queued notice with the same address, subject and body (`outcome: copied`), so the outbox keeps what already went out. '
        + 'A `queued` notice is still the worker\'s: 409 `STATE_CONFLICT`. The answer (202) is the notice that will be sent.',
      params: IdParams,
      response: {
        202: Envelope(Type.Object({ outcome: StringEnum(['requeued', 'copied'] as const), notification: NotificationSchema })),
        ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT'),
      },
    },
  }, async (request, reply) => {
    const { notification, outcome } = await resendNotification(db, request.params.id);
    reply.code(202);
    return ok(request, { outcome, notification: notificationView(notification) });
  });
}
