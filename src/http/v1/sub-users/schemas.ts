// v1 schemas of sub-users.
import { Type } from '@sinclair/typebox';
import { ALL_SCOPES } from '../../../core/types.ts';

const fields = {
  id: Type.Integer({ examples: [7] }),
  email: Type.String({ examples: ['grace@example.com'] }),
  first_name: Type.String({ examples: ['Grace'] }),
  last_name: Type.String({ examples: ['Hopper'] }),
  status: Type.String({ enum: ['pending', 'active', 'inactive'], description: '`pending`: invited, not yet active; `active`: its keys work; `inactive`: its keys are refused.' }),
};

export const V1SubUser = Type.Object(fields);

export const V1SubUserDetail = Type.Object({
  ...fields,
  permissions: Type.Array(Type.String({ enum: [...ALL_SCOPES] }), {
    description: 'Scope names (`<area>:read`, `<area>:write`): what the sub-user\'s API keys may do.', examples: [['servers:read', 'tickets:write']],
  }),
});

export const SubUserParams = Type.Object({ sub_user_id: Type.String({ minLength: 1, maxLength: 32, description: 'The sub-user\'s id (digits).', examples: ['7'] }) });
