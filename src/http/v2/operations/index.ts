// The operations routes, in the order of the OpenAPI document (registered by ../index.ts).
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import * as getOperation from './get-operation.ts';

export const routes: { register(app: TypedApp, deps: RouteDeps): void }[] = [
  getOperation,
];
