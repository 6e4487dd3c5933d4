// POST /panel/api/api-keys: a new key (name, allowed IPs — at least one —, scopes, live or test),
// through the admin API's core function and rules; the secret is in this answer only. A sub-user's
// key acts for it, its scopes narrowed to the sub-user's permissions.
import { Type } from '@sinclair/typebox';
import { createApiKey } from '../../../core/api-keys/service.ts';
import { ALL_SCOPES } from '../../../core/types.ts';
import { ok } from '../../reply.ts';
import { type TypedApp, callerOf } from '../../route-types.ts';
import { Envelope, StringEnum, errorResponses } from '../../schemas.ts';
import { apiKeyView } from '../../v2/presenters.ts';
import type { PanelDeps } from '../deps.ts';
import { NewKeySchema } from '../../new-key-schema.ts';

export function register(app: TypedApp, deps: PanelDeps) {
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
}
