// The catalog routes, in the order of the OpenAPI document (registered by ../index.ts).
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import * as getPlan from './get-plan.ts';
import * as listDepartments from './list-departments.ts';
import * as listLocations from './list-locations.ts';
import * as listOperatingSystems from './list-operating-systems.ts';
import * as listPackages from './list-packages.ts';
import * as listPlans from './list-plans.ts';
import * as listWebHostingPackages from './list-web-hosting-packages.ts';

export const routes: { register(app: TypedApp, deps: RouteDeps): void }[] = [
  listPlans, getPlan, listPackages, listOperatingSystems, listLocations, listWebHostingPackages, listDepartments,
];
