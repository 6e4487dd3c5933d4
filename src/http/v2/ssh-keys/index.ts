// The ssh-keys routes, in the order of the OpenAPI document (registered by ../index.ts).
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import * as createSshKey from './create-ssh-key.ts';
import * as deleteSshKey from './delete-ssh-key.ts';
import * as listSshKeys from './list-ssh-keys.ts';

export const routes: { register(app: TypedApp, deps: RouteDeps): void }[] = [
  listSshKeys, createSshKey, deleteSshKey,
];
