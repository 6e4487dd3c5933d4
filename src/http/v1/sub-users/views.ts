// Sub-users as v1 shapes them: no phone or dates; the detail adds the permission keys.
import type { SubUser } from '../../../db/schema.ts';
import { permissionsOf } from '../../v2/sub-users/presenters.ts';

export function v1SubUser(s: SubUser) {
  return { id: s.id, email: s.email, first_name: s.first_name, last_name: s.last_name, status: s.status };
}

export function v1SubUserDetail(s: SubUser) {
  return { ...v1SubUser(s), permissions: permissionsOf(s) };
}
