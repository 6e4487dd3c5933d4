// The v1 catalog routes, in the order of the v1 document (src/http/v1/index.ts lists each family once).
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import * as listPackages from './list-packages.ts';
import * as listOperatingSystems from './list-operating-systems.ts';
import * as listLocations from './list-locations.ts';
import * as listEmailPackages from './list-email-packages.ts';
import * as listWebHostingPackages from './list-web-hosting-packages.ts';
import * as listColocationPackages from './list-colocation-packages.ts';
import * as listDedicatedServerPackages from './list-dedicated-server-packages.ts';
import * as listIpSubnetPackages from './list-ip-subnet-packages.ts';

type RouteModule = { register(app: TypedApp, deps: RouteDeps): void };

/** First in the v1 document. */
export const CATALOG_ROUTES: RouteModule[] = [listPackages, listOperatingSystems, listLocations];

/** The v1-only package families, last in the v1 document. */
export const PACKAGE_FAMILY_ROUTES: RouteModule[] = [
  listEmailPackages, listWebHostingPackages, listColocationPackages, listDedicatedServerPackages, listIpSubnetPackages,
];
