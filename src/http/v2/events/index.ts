// The events routes, in the order of the OpenAPI document (registered by ../index.ts).
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import * as getEvent from './get-event.ts';
import * as listEvents from './list-events.ts';

export const routes: { register(app: TypedApp, deps: RouteDeps): void }[] = [
  listEvents, getEvent,
];
