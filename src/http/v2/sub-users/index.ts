// The sub-users routes, in the order of the OpenAPI document (registered by ../index.ts).
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import * as deleteSubUser from './delete-sub-user.ts';
import * as getSubUser from './get-sub-user.ts';
import * as getSubUserPermissions from './get-sub-user-permissions.ts';
import * as listSubUsers from './list-sub-users.ts';
import * as replaceSubUserPermissions from './replace-sub-user-permissions.ts';
import * as updateSubUser from './update-sub-user.ts';

export const routes: { register(app: TypedApp, deps: RouteDeps): void }[] = [
  listSubUsers, getSubUser, updateSubUser, deleteSubUser, getSubUserPermissions, replaceSubUserPermissions,
];
