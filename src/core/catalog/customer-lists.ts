// Which catalog rows a customer sees. Each rule lives here once, so that every API version and
// the checks made when a resource is created (its location, OS, package…) agree on it.
import type { Selectable } from 'kysely';
import { type CatalogFilter, type CatalogTable, listAvailableOperatingSystems, listCatalogPage } from '../../db/queries/catalog.ts';
import type { DB, Department, HostingPackage, Location, OperatingSystem, Plan } from '../../db/schema.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';
import { ApiError } from '../errors.ts';
import { getCatalogRow } from './service.ts';

/** The provider name of locations that route to the primary virtualization platform. */
export const PRIMARY_PROVIDER = 'primary';

/**
 * A location usable for server creation: available, and routed to the primary virtualization
 * platform (others are served by partners this API does not drive).
 */
export function isServerLocation(location: Pick<Location, 'available' | 'provider'>): boolean {
  return location.available && location.provider === PRIMARY_PROVIDER;
}

/** isServerLocation as a query filter; the two must say the same. */
const SERVER_LOCATIONS: CatalogFilter = { onlyAvailable: true, provider: PRIMARY_PROVIDER };
const ONLY_AVAILABLE: CatalogFilter = { onlyAvailable: true };

async function listWhere<T extends CatalogTable>(db: Db, table: T, filter: CatalogFilter, page: PageRequest): Promise<Paged<Selectable<DB[T]>>> {
  const { rows, total } = await listCatalogPage(db, table, filter, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}

export function listServerLocations(db: Db, page: PageRequest): Promise<Paged<Location>> {
  return listWhere(db, 'locations', SERVER_LOCATIONS, page);
}

/**
 * An OS version a customer can install now: on sale, and — on a platform that builds machines from
 * images (LXD) — given an image by the operator. Server creates refuse the others (checkReferences).
 */
export function isInstallable(os: Pick<OperatingSystem, 'available' | 'image'>, needsImage: boolean): boolean {
  return os.available && (!needsImage || os.image !== null);
}

/** Refuses an OS version on sale that this platform cannot build (no image where `needsImage`), as 422 naming os_version_id. */
export function requireImage(os: Pick<OperatingSystem, 'slug' | 'image'>, osId: number, needsImage: boolean): void {
  if (!needsImage || os.image !== null) return;
  throw new ApiError('OS_VERSION_INVALID', `OS version ${osId} (${os.slug}) cannot be installed yet: the operator has not given it an image`, [
    { field: 'os_version_id', code: 'INVALID', message: 'this OS version has no image on this platform yet; choose another (see GET /operating-systems: available)' },
  ]);
}

/**
 * The OS versions on sale, each marked installable or not (`needsImage`: the platform builds from
 * images, and one without is listed but not installable), so customers see the range as with plans.
 */
export async function listOperatingSystemsOnSale(db: Db, page: PageRequest, needsImage: boolean): Promise<Paged<OperatingSystem & { installable: boolean }>> {
  const paged = await listWhere(db, 'operating_systems', ONLY_AVAILABLE, page);
  return { ...paged, items: paged.items.map((os) => ({ ...os, installable: isInstallable(os, needsImage) })) };
}

export function listActiveHostingPackages(db: Db, page: PageRequest): Promise<Paged<HostingPackage>> {
  return listWhere(db, 'hosting_packages', ONLY_AVAILABLE, page);
}

export function listActiveDepartments(db: Db, page: PageRequest): Promise<Paged<Department>> {
  return listWhere(db, 'departments', ONLY_AVAILABLE, page);
}

/** Every plan: an unavailable one stays listed (marked `available: false`) so customers see the range. */
export function listPlans(db: Db, page: PageRequest): Promise<Paged<Plan>> {
  return listWhere(db, 'plans', {}, page);
}

/** Any plan by id, available or not (the customer sees its flag). */
export function getPlan(db: Db, id: number): Promise<Plan> {
  return getCatalogRow(db, 'plans', id);
}

/** Plans that can be ordered: v1 has no `available` flag to show, so it lists only these. */
export function listAvailablePlans(db: Db, page: PageRequest): Promise<Paged<Plan>> {
  return listWhere(db, 'plans', ONLY_AVAILABLE, page);
}

export interface OsFamily {
  /** The id of the family's first listed version: v1 wants an integer id per OS, and families have no table. */
  id: number;
  name: string;
  versions: OperatingSystem[];
}

/**
 * The installable OS versions grouped by family (v1's `versions[]`), families in order of their
 * first version. v1 has no availability flag to show, so a version without the image the platform
 * needs (`needsImage`) is left out.
 */
export async function listOperatingSystemFamilies(db: Db, needsImage: boolean): Promise<OsFamily[]> {
  const families = new Map<string, OsFamily>();
  for (const os of await listAvailableOperatingSystems(db)) {
    if (!isInstallable(os, needsImage)) continue;
    const family = families.get(os.family) ?? { id: os.id, name: os.family, versions: [] };
    family.versions.push(os);
    families.set(os.family, family);
  }
  return [...families.values()];
}

// The v1-only package families: catalog rows with no availability flag, listed whole.
export type EmailPackage = Selectable<DB['email_packages']>;
export type ColocationPackage = Selectable<DB['colocation_packages']>;
export type DedicatedPackage = Selectable<DB['dedicated_packages']>;
export type IpSubnetPackage = Selectable<DB['ip_subnet_packages']>;

export function listEmailPackages(db: Db, page: PageRequest): Promise<Paged<EmailPackage>> {
  return listWhere(db, 'email_packages', {}, page);
}

export function listColocationPackages(db: Db, page: PageRequest): Promise<Paged<ColocationPackage>> {
  return listWhere(db, 'colocation_packages', {}, page);
}

export function listDedicatedPackages(db: Db, page: PageRequest): Promise<Paged<DedicatedPackage>> {
  return listWhere(db, 'dedicated_packages', {}, page);
}

export function listIpSubnetPackages(db: Db, page: PageRequest): Promise<Paged<IpSubnetPackage>> {
  return listWhere(db, 'ip_subnet_packages', {}, page);
}
