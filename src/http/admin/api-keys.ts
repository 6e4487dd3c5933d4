import { Type } from '@sinclair/typebox';
import { createApiKey, revokeApiKey } from '../../core/api-keys/service.ts';
import { ALL_SCOPES } from '../../core/types.ts';
import { locate, ok } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, IntId, StringEnum, errorResponses } from '../schemas.ts';
import { ApiKeySchema, apiKeyView } from '../v2/presenters.ts';
import { NewKeySchema } from '../new-key-schema.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'access' as const };

/** The body of a new key (also nested as `api_key` when an account is opened). */
export const NewKeyFields = {
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Default "default" when opening an account' })),
  ip_allowlist: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 100, description: 'IPs or CIDR ranges, IPv4 or IPv6; at least one' }),
  is_test: Type.Optional(Type.Boolean({ description: 'A test key routes to the sandbox. Default false.' })),
  scopes: Type.Optional(Type.Array(StringEnum(ALL_SCOPES), { maxItems: ALL_SCOPES.length, description: 'Omitted → every scope' })),
};

export { NewKeySchema };

export function register(app: TypedApp, { db, config }: RouteDeps) {
  app.post('/accounts/:id/api-keys', {
    config: admin,
    schema: {
      tags: ['Admin'],
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
      body: Type.Object({
        ...NewKeyFields,
        name: Type.String({ minLength: 1, maxLength: 100 }),
        sub_user_id: Type.Optional({ ...IntId, description: 'A sub-user of the account: the key acts for it, with its scopes narrowed to the sub-user\'s permissions' }),
      }, { additionalProperties: false }),
      response: { 201: Envelope(NewKeySchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request, reply) => {
    const { key, secret } = await createApiKey(db, request.params.id, {
      name: request.body.name,
      ipAllowlist: request.body.ip_allowlist,
      isTest: request.body.is_test,
      scopes: request.body.scopes,
      subUserId: request.body.sub_user_id,
    });
    reply.code(201);
    // Where it is revoked (DELETE); it is read in the account's list.
    locate(reply, config.publicUrl, 'admin', 'v1', 'api-keys', key.id);
    return reply.send(ok(request, { ...apiKeyView(key), key: secret }));
  });

  app.delete('/api-keys/:id', {
    config: admin,
    schema: {
      tags: ['Admin'],
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
      response: { 200: Envelope(ApiKeySchema), ...errorResponses() },
    },
  }, async (request) => ok(request, apiKeyView(await revokeApiKey(db, request.params.id))));
}
