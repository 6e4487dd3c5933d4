// Every account's operations for the operator (/admin/v1/operations and `hostcloud admin
// operations`): list with filters, read one, cancel (a queued or stuck one fails at once with its
// refund and clean-up; a running one is asked to stop at its next step), retry a failed one whose
// type allows it.
import { Type } from '@sinclair/typebox';
import { cancelOperation, getAnyOperation, listAllOperations, retryOperation } from '../../core/operations/admin.ts';
import { OPERATIONS } from '../../core/families.ts';
import { retryable } from '../../core/operations/catalogue.ts';
import { timestamp } from '../../core/time.ts';
import type { Operation } from '../../db/schema.ts';
import { ok, page, pageOf } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, IntId, ListEnvelope, NullableTimestamp, PageQuery, StringEnum, Timestamp, errorResponses, ref } from '../schemas.ts';
import { OperationSchema, operationView } from '../v2/servers/presenters.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'operations' as const };
const tags = ['Admin'];

const OPERATION_TYPES = Object.keys(OPERATIONS) as (keyof typeof OPERATIONS)[];
const STATUS_FILTERS = ['queued', 'running', 'completed', 'failed', 'stuck'] as const;

const StaffOperation = Type.Intersect([ref(OperationSchema), Type.Object({
  account_id: Type.String(),
  attempts: Type.Integer({ minimum: 0, description: 'Runs so far (a run given back by a worker that cannot serve its node does not count).' }),
  last_error: Type.Union([Type.String(), Type.Null()], { description: 'The last failed attempt\'s error, for the operator (never shown to the customer).' }),
  lease_until: NullableTimestamp,
  stuck: Type.Boolean({ description: 'Running without a live lease: its worker stopped, or it waits for a retry. Cancel fails it at once.' }),
  cancel_requested_at: NullableTimestamp,
  finished_at: NullableTimestamp,
  retryable: Type.Boolean({ description: 'Its type may be run again by POST …/retry once it failed.' }),
})], { title: 'StaffOperation' });

function staffOperationView(op: Operation, now: Date) {
  return {
    ...operationView(op),
    account_id: op.account_id,
    attempts: op.attempts,
    last_error: op.last_error,
    lease_until: timestamp(op.lease_until),
    stuck: op.status === 'running' && (op.lease_until === null || op.lease_until < now),
    cancel_requested_at: timestamp(op.cancel_requested_at),
    finished_at: timestamp(op.finished_at),
    retryable: retryable(op.type),
  };
}

const OperationParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'Operation id (`op_…`).' }) });

export function register(app: TypedApp, { db, now, services }: RouteDeps) {
  app.get('/operations', {
    config: admin,
    schema: {
      tags,
      operationId: 'listAllOperations',
      summary: 'Every account\'s operations, newest first, with filters',
      querystring: Type.Object({
        ...PageQuery(),
        status: Type.Optional(StringEnum(STATUS_FILTERS, { description: '`stuck`: running without a live lease (its worker stopped, or waiting for a retry).' })),
        type: Type.Optional(StringEnum(OPERATION_TYPES)),
        account_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        node_id: Type.Optional(IntId),
        resource_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
        since: Type.Optional({ ...Timestamp, description: 'Only operations created at or after this instant (RFC 3339).' }),
        q: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'An id, whole: the operation\'s, its resource\'s or its account\'s.' })),
      }, { additionalProperties: false }),
      response: { 200: ListEnvelope(StaffOperation), ...errorResponses() },
    },
  }, async (request) => {
    const { status, type, account_id: accountId, node_id: nodeId, resource_id: resourceId, since, q, ...p } = request.query;
    const at = now();
    return page(request, await listAllOperations(db, { status, type, accountId, nodeId, resourceId, q, since: since === undefined ? undefined : new Date(since) }, pageOf(p)),
      (op) => staffOperationView(op, at));
  });

  app.get('/operations/:id', {
    config: admin,
    schema: {
      tags, operationId: 'getStaffOperation', summary: 'Any account\'s operation, with its attempts and last error', params: OperationParams,
      response: { 200: Envelope(StaffOperation), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => ok(request, staffOperationView(await getAnyOperation(db, request.params.id), now())));

  app.post('/operations/:id/cancel', {
    config: admin,
    schema: {
      tags,
      operationId: 'cancelOperation',
      summary: 'Cancel an operation: failed with its refund, or asked to stop',
      description: 'A `queued` operation, or a `running` one without a live lease (`stuck`: its worker stopped, or it waits for a retry), '
        + 'fails at once: 200, what it charged refunded and what it began cleaned up, as for any failure. One a worker runs now is asked to '
        + 'stop at its next step: 202 with `cancel_requested_at` set; poll it until it is `failed` (or `completed`, had it finished first). '
        + 'A finished operation is 409.',
      params: OperationParams,
      response: { 200: Envelope(StaffOperation), 202: Envelope(StaffOperation), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request, reply) => {
    const { operation, outcome } = await cancelOperation({ db, compute: services.compute, hosting: services.hosting, registrar: services.registrar }, request.params.id, now());
    reply.code(outcome === 'failed' ? 200 : 202);
    return reply.send(ok(request, staffOperationView(operation, now())));
  });

  app.post('/operations/:id/retry', {
    config: admin,
    schema: {
      tags,
      operationId: 'retryOperation',
      summary: 'Run a failed operation again, as a new operation',
      description: 'Only a `failed` operation whose type allows it (`retryable`: actions that charged nothing and whose failure undid nothing — '
        + 'power, reinstall, deletes, snapshot deletes, suspensions) is queued again as a new operation of the same type on the same resource; '
        + 'the answer (202) is the new operation. Another type, an unfinished operation, or a resource with an operation still running is 409.',
      params: OperationParams,
      response: { 202: Envelope(StaffOperation), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request, reply) => {
    const again = await retryOperation(db, services.jobs, request.params.id);
    reply.code(202);
    return reply.send(ok(request, staffOperationView(again, now())));
  });
}
