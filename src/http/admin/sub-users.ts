// Sub-users and reseller status as the operator manages them: the invitation the panel would send
// (a `pending` sub-user), an account's sub-users, and the reseller switch.
import { Type } from '@sinclair/typebox';
import { DISCOUNT_TYPE } from '../../core/reseller/discount.ts';
import { setReseller } from '../../core/reseller/service.ts';
import { getAccount } from '../../core/accounts/service.ts';
import { NAME_MAX } from '../../core/sub-users/rules.ts';
import { createSubUser, listSubUsers } from '../../core/sub-users/service.ts';
import { locate, ok, page, pageOf } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, ListEnvelope, PageQuery, StringEnum, errorResponses } from '../schemas.ts';
import { ResellerStatusSchema, resellerStatusView } from '../v2/reseller/presenters.ts';
import { SubUserDetailSchema, SubUserSchema, subUserDetailView, subUserView } from '../v2/sub-users/presenters.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'access' as const };
const tags = ['Admin'];
const Id = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export function register(app: TypedApp, { db, now, config }: RouteDeps) {
  app.post('/accounts/:id/sub-users', {
    config: admin,
    schema: {
      tags,
      operationId: 'createSubUser',
      summary: 'Invite a sub-user: it starts `pending`, with no permissions',
      params: Id,
      body: Type.Object({
        email: Type.String({ format: 'email', maxLength: 254 }),
        first_name: Type.String({ minLength: 1, maxLength: NAME_MAX }),
        last_name: Type.String({ minLength: 1, maxLength: NAME_MAX }),
      }, { additionalProperties: false }),
      response: { 201: Envelope(SubUserDetailSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request, reply) => {
    const subUser = await createSubUser(db, request.params.id, request.body);
    reply.code(201);
    // The admin API has no URL per sub-user: the account's list that shows it.
    locate(reply, config.publicUrl, 'admin', 'v1', 'accounts', request.params.id, 'sub-users');
    return reply.send(ok(request, subUserDetailView(subUser)));
  });

  app.get('/accounts/:id/sub-users', {
    config: admin,
    schema: {
      tags,
      operationId: 'listAccountSubUsers',
      summary: 'An account\'s sub-users, in the order they were invited',
      params: Id,
      querystring: Type.Object({ ...PageQuery(), status: Type.Optional(StringEnum(['pending', 'active', 'inactive'] as const)) }, { additionalProperties: false }),
      response: { 200: ListEnvelope(SubUserSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    await getAccount(db, request.params.id);
    const { status, ...p } = request.query;
    return page(request, await listSubUsers({ db, accountId: request.params.id }, status, pageOf(p)), subUserView);
  });

  app.put('/accounts/:id/reseller', {
    config: { ...admin, right: 'accounts' as const },
    schema: {
      tags,
      operationId: 'setReseller',
      summary: 'Make an account a reseller, or not; answers its reseller status',
      params: Id,
      body: Type.Object({
        is_reseller: Type.Boolean(),
        discount_type: Type.Optional(StringEnum([DISCOUNT_TYPE] as const, { description: 'The only type: `percentage` (default).' })),
      }, { additionalProperties: false }),
      response: { 200: Envelope(ResellerStatusSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const standing = await setReseller(db, request.params.id, request.body.is_reseller, request.body.discount_type ?? DISCOUNT_TYPE, now());
    return ok(request, resellerStatusView(standing));
  });
}
