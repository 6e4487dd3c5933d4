import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { registerPower } from './power-route.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  registerPower(app, deps, 'start', 'startServer', 'Server is starting');
}
