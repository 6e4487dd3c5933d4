import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { registerVmPower } from './power-route.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  registerVmPower(app, deps, 'start', 'startVm', 'VM is starting');
}
