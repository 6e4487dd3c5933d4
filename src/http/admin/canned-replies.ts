// Canned replies (/admin/v1/canned-replies): support's saved answers, picked in the console's reply
// box. Reading them needs tickets:read, changing them tickets:write (the method decides).
import { Type } from '@sinclair/typebox';
import { CANNED_TITLE_MAX, changeCannedReply, createCannedReply, getCannedReply, listCannedReplies, removeCannedReply } from '../../core/tickets/canned-replies.ts';
import { ts } from '../../core/time.ts';
import type { CannedReplyRow } from '../../db/queries/canned-replies.ts';
import { locate, ok, page, pageOf } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, IntId, ListEnvelope, PageQuery, Timestamp, errorResponses } from '../schemas.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'tickets' as const };
const tags = ['Admin'];

const CannedReplySchema = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  body: Type.String(),
  department: Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()], { description: 'null: offered in every department.' }),
  created_at: Timestamp,
  updated_at: Timestamp,
}, { title: 'CannedReply' });

const view = (r: CannedReplyRow) => ({
  id: r.id,
  title: r.title,
  body: r.body,
  department: r.department_id === null ? null : { id: r.department_id, name: r.department_name ?? '' },
  created_at: ts(r.created_at),
  updated_at: ts(r.updated_at),
});

const Params = Type.Object({ id: IntId });
const Title = Type.String({ minLength: 1, maxLength: CANNED_TITLE_MAX, description: 'Not blank.' });
const Body = Type.String({ minLength: 1, maxLength: 10_000, description: 'Not blank; at most 10,000 characters.' });
const DepartmentId = Type.Union([IntId, Type.Null()], { description: 'An active department; null (or left out): every department.' });

export function register(app: TypedApp, { db, now, config }: RouteDeps) {
  app.get('/canned-replies', {
    config: admin,
    schema: {
      tags,
      operationId: 'listCannedReplies',
      summary: 'Canned replies, by title',
      description: '`department_id`: that department\'s replies and those for every department (what the reply box of one of its tickets offers).',
      querystring: Type.Object({ ...PageQuery(), department_id: Type.Optional(IntId) }, { additionalProperties: false }),
      response: { 200: ListEnvelope(CannedReplySchema), ...errorResponses() },
    },
  }, async (request) => {
    const { department_id: departmentId, ...p } = request.query;
    return page(request, await listCannedReplies(db, departmentId, pageOf(p)), view);
  });

  app.get('/canned-replies/:id', {
    config: admin,
    schema: {
      tags, operationId: 'getCannedReply', summary: 'A canned reply', params: Params,
      response: { 200: Envelope(CannedReplySchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => ok(request, view(await getCannedReply(db, request.params.id))));

  app.post('/canned-replies', {
    config: admin,
    schema: {
      tags,
      operationId: 'createCannedReply',
      summary: 'Save a canned reply',
      body: Type.Object({ title: Title, body: Body, department_id: Type.Optional(DepartmentId) }, { additionalProperties: false }),
      response: { 201: Envelope(CannedReplySchema), ...errorResponses() },
    },
  }, async (request, reply) => {
    const row = await createCannedReply(db, request.body, now());
    reply.code(201);
    locate(reply, config.publicUrl, 'admin', 'v1', 'canned-replies', row.id);
    return reply.send(ok(request, view(row)));
  });

  app.patch('/canned-replies/:id', {
    config: admin,
    schema: {
      tags,
      operationId: 'updateCannedReply',
      summary: 'Change a canned reply\'s title, text or department',
      params: Params,
      body: Type.Object({ title: Type.Optional(Title), body: Type.Optional(Body), department_id: Type.Optional(DepartmentId) }, { additionalProperties: false, minProperties: 1 }),
      response: { 200: Envelope(CannedReplySchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => ok(request, view(await changeCannedReply(db, request.params.id, request.body, now()))));

  app.delete('/canned-replies/:id', {
    config: admin,
    schema: {
      tags, operationId: 'deleteCannedReply', summary: 'Delete a canned reply (replies already sent keep their text)', params: Params,
      response: { 200: Envelope(CannedReplySchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => ok(request, view(await removeCannedReply(db, request.params.id))));
}
