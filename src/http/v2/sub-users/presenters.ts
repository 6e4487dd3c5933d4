// Sub-user resources of v2 (the admin API answers with the same ones).
import { Type } from '@sinclair/typebox';
import { ts } from '../../../core/time.ts';
import { ALL_SCOPES, type Scope } from '../../../core/types.ts';
import type { SubUser } from '../../../db/schema.ts';
import { IntId, StringEnum, Timestamp, component, ref } from '../../schemas.ts';

export const SubUserParams = Type.Object({ id: { ...IntId, description: 'The sub-user\'s id.', examples: [7] } });

const Nullable = (description: string, example: string) => Type.Union([Type.String({ examples: [example] }), Type.Null()], { description });

const PERMISSIONS_TEXT = 'Scope names, `<area>:read` or `<area>:write`: what the sub-user\'s API keys may do (a key does what both its own scopes and these allow).';

export const SubUserSchema = component('SubUser', Type.Object({
  id: Type.Integer({ examples: [7] }),
  email: Type.String({ examples: ['grace@example.com'] }),
  first_name: Type.String({ examples: ['Grace'] }),
  last_name: Type.String({ examples: ['Hopper'] }),
  phone: Nullable('Without the country code.', '20 555 0142'),
  phone_country_code: Nullable('`+` and digits.', '+31'),
  status: StringEnum(['pending', 'active', 'inactive'] as const, {
    description: '`pending`: invited, not yet active; `active`: its keys work; `inactive`: its keys are refused (403 `AUTH_SCOPE_INSUFFICIENT`).',
  }),
  created_at: Timestamp,
  updated_at: Timestamp,
}, { description: 'A person with access to the account through API keys of its own. Passwords are never returned.' }));

export const SubUserDetailSchema = component('SubUserDetail', Type.Intersect([
  ref(SubUserSchema),
  Type.Object({ permissions: Type.Array(StringEnum(ALL_SCOPES), { description: PERMISSIONS_TEXT }) }),
], { description: 'A sub-user with its permission keys.' }));

export const SubUserPermissionsSchema = component('SubUserPermissions', Type.Object({
  permissions: Type.Array(StringEnum(ALL_SCOPES), { description: PERMISSIONS_TEXT, examples: [['servers:read', 'tickets:write']] }),
}, { description: 'A sub-user\'s permission keys.' }));

export function subUserView(s: SubUser) {
  return {
    id: s.id, email: s.email, first_name: s.first_name, last_name: s.last_name, phone: s.phone, phone_country_code: s.phone_country_code,
    status: s.status, created_at: ts(s.created_at), updated_at: ts(s.updated_at),
  };
}

/** The stored permissions as scope names, in scope order. */
export function permissionsOf(s: SubUser): Scope[] {
  return ALL_SCOPES.filter((x) => s.permissions.includes(x));
}

export function subUserDetailView(s: SubUser) {
  return { ...subUserView(s), permissions: permissionsOf(s) };
}
