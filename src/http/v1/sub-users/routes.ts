// The v1 sub-users routes, in the order of the v1 document (src/http/v1/index.ts lists each family once).
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import * as listSubUsers from './list-sub-users.ts';
import * as createSubUser from './create-sub-user.ts';
import * as getSubUser from './get-sub-user.ts';
import * as updateSubUser from './update-sub-user.ts';
import * as deleteSubUser from './delete-sub-user.ts';

export const SUB_USERS_ROUTES: { register(app: TypedApp, deps: RouteDeps): void }[] = [
  listSubUsers, createSubUser, getSubUser, updateSubUser, deleteSubUser,
];
