import { Type } from '@sinclair/typebox';
import { updateSubUser } from '../../../core/sub-users/service.ts';
import { NAME_MAX, PHONE_MAX } from '../../../core/sub-users/rules.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import { type RouteDeps, type TypedApp, callerOf } from '../../route-types.ts';
import { Envelope, StringEnum, errorResponses } from '../../schemas.ts';
import { SubUserDetailSchema, SubUserParams, subUserDetailView } from './presenters.ts';

const Name = (example: string) => Type.String({ minLength: 1, maxLength: NAME_MAX, examples: [example] });

export function register(app: TypedApp, deps: RouteDeps) {
  app.patch('/sub-users/:id', {
    config: { area: 'sub_users' },
    schema: {
      operationId: 'updateSubUser',
      tags: ['Sub-users'],
      summary: 'Update a sub-user',
      description: `Changes the fields sent, at least one. \`status\` may be set to \`active\` (a \`pending\` invitation too: the account vouches for it) or \`inactive\`
(its keys are refused at once). \`email\` and \`password\` cannot be written here (422 naming the field): the sub-user changes them in the panel.
A sub-user's own key cannot activate a sub-user holding permissions the key lacks (403 \`AUTH_SCOPE_INSUFFICIENT\`).`,
      params: SubUserParams,
      body: Type.Object({
        first_name: Type.Optional(Name('Grace')),
        last_name: Type.Optional(Name('Hopper')),
        phone: Type.Optional(Type.String({ minLength: 1, maxLength: PHONE_MAX, description: 'Digits, spaces, ( ) . and -; without the country code.', examples: ['20 555 0142'] })),
        phone_country_code: Type.Optional(Type.String({ minLength: 2, maxLength: 5, description: '`+` and 1 to 4 digits.', examples: ['+31'] })),
        status: Type.Optional(StringEnum(['active', 'inactive'] as const)),
      }, { additionalProperties: false, minProperties: 1 }),
      response: { 200: Envelope(SubUserDetailSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const caller = callerOf(request);
    const sub = await withCtx(deps, request, (ctx) => updateSubUser(ctx, request.params.id, request.body, { subUserId: caller.subUserId, scopes: caller.scopes }));
    return ok(request, subUserDetailView(sub));
  });
}
