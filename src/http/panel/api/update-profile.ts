// PATCH /panel/api/profile: the account's name, email (its contact address), company, phone and
// country, through the core function the admin API uses. Needs account:write (a sub-user's
// permission); the account's status stays the operator's.
import { Type } from '@sinclair/typebox';
import { updateProfile } from '../../../core/panel/account.ts';
import { ok } from '../../reply.ts';
import { type TypedApp, callerOf } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { AccountSchema, accountView } from '../../v2/presenters.ts';
import type { PanelDeps } from '../deps.ts';
import { Nullable } from '../schemas.ts';

export function register(app: TypedApp, deps: PanelDeps) {
  app.patch('/api/profile', {
    config: { auth: 'panel', area: 'account' },
    schema: {
      // Lengths and shapes are the core's rules (field errors with its messages); only types here.
      body: Type.Object({
        email: Type.Optional(Type.String({ maxLength: 1000 })),
        name: Type.Optional(Type.String({ maxLength: 1000 })),
        company: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
        phone: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
        country: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
      }, { additionalProperties: false, minProperties: 1 }),
      response: { 200: Envelope(AccountSchema), ...errorResponses('VALIDATION_FAILED') },
    },
  }, async (request) => {
    const b = request.body;
    // An empty optional field clears it, as the form sends it.
    const patch = {
      ...b,
      ...(b.company === '' ? { company: null } : {}),
      ...(b.phone === '' ? { phone: null } : {}),
      ...(b.country === '' ? { country: null } : {}),
    };
    return ok(request, accountView(await updateProfile(deps.db, callerOf(request).accountId, patch)));
  });
}
