import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { registerPower } from './power-route.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  registerPower(app, deps, 'stop', 'stopServer', 'Server is stopping');
}
