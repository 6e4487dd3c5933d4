// The signed-in person's API keys (one family):
//   GET    /panel/api/api-keys        the owner: every key of the account; a sub-user: its own
//   POST   /panel/api/api-keys        a new key (name, allowed IPs, scopes, live or test); the secret once
//   DELETE /panel/api/api-keys/:id    revoke (another account's key, or for a sub-user another's → 404)
// The same core functions and rules as the admin API's; a sub-user's key acts for it (its scopes
// narrowed to the sub-user's permissions).
import { Type } from '@sinclair/typebox';
import { createApiKey, listManagedApiKeys, revokeManagedApiKey } from '../../../core/api-keys/service.ts';
import { ALL_SCOPES } from '../../../core/types.ts';
import { ok, page, pageOf } from '../../reply.ts';
import { type TypedApp, callerOf } from '../../route-types.ts';
import { Envelope, ListEnvelope, PageQuery, StringEnum, errorResponses } from '../../schemas.ts';
import { ApiKeySchema, apiKeyView } from '../../v2/presenters.ts';
import type { PanelDeps } from '../deps.ts';
import { NewKeySchema } from '../../admin/api-keys.ts';

export function register(app: TypedApp, deps: PanelDeps) {
  app.get('/api/api-keys', {
    config: { auth: 'panel' },
    schema: {
      querystring: Type.Object(PageQuery(100, 100), { additionalProperties: false }),
      response: { 200: ListEnvelope(ApiKeySchema), ...errorResponses('VALIDATION_FAILED') },
    },
  }, async (request) => {
    const caller = callerOf(request);
    return page(request, await listManagedApiKeys(deps.db, caller.accountId, caller.subUserId, pageOf(request.query)), apiKeyView);
  });

  app.post('/api/api-keys', {
    config: { auth: 'panel' },
    schema: {
      body: Type.Object({
        name: Type.String({ minLength: 1, maxLength: 100 }),
        ip_allowlist: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 100, description: 'IPs or CIDR ranges; at least one' }),
        is_test: Type.Optional(Type.Boolean()),
        scopes: Type.Optional(Type.Array(StringEnum(ALL_SCOPES), { maxItems: ALL_SCOPES.length })),
      }, { additionalProperties: false }),
      response: { 201: Envelope(NewKeySchema), ...errorResponses('VALIDATION_FAILED') },
    },
  }, async (request, reply) => {
    const caller = callerOf(request);
    const { key, secret } = await createApiKey(deps.db, caller.accountId, {
      name: request.body.name,
      ipAllowlist: request.body.ip_allowlist,
      isTest: request.body.is_test,
      scopes: request.body.scopes,
      ...(caller.subUserId !== null ? { subUserId: caller.subUserId } : {}),
    });
    reply.code(201).header('Cache-Control', 'no-store');
    reply.header('Location', `${deps.config.publicUrl}/panel/api/api-keys`);
    return ok(request, { ...apiKeyView(key), key: secret });
  });

  app.delete('/api/api-keys/:id', {
    config: { auth: 'panel' },
    schema: {
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
      response: { 200: Envelope(ApiKeySchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const caller = callerOf(request);
    return ok(request, apiKeyView(await revokeManagedApiKey(deps.db, caller.accountId, caller.subUserId, request.params.id, deps.now())));
  });
}
