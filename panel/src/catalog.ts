// The catalog a page names things by (a server's location, its OS): read once per page load and
// shared, so a list of servers costs one request for the servers, not one per row.
import { v2 } from './api.ts';
import type { Item } from './api-types.ts';

export type Location = Item<'listLocations'>;
export type OperatingSystem = Item<'listOperatingSystems'>;

let locations: Promise<Location[]> | undefined;
let oses: Promise<OperatingSystem[]> | undefined;

/** Every location (a failed read is tried again next time). */
export function allLocations(): Promise<Location[]> {
  locations ??= v2.get<Location[]>('/locations?per_page=100').then((r) => r.data, (e: unknown) => { locations = undefined; throw e; });
  return locations;
}

/** Every OS version on sale, installable here or not (a server may run one no longer offered). */
export function allOperatingSystems(): Promise<OperatingSystem[]> {
  oses ??= v2.get<OperatingSystem[]>('/operating-systems?per_page=100').then((r) => r.data, (e: unknown) => { oses = undefined; throw e; });
  return oses;
}

export function locationName(list: Location[] | undefined, id: number | null | undefined): string {
  const l = list?.find((x) => x.id === id);
  return l ? `${l.name} (${l.code})` : id === null || id === undefined ? '—' : `location ${id}`;
}

export function osName(list: OperatingSystem[] | undefined, slug: string | null | undefined): string {
  if (!slug) return '—';
  return list?.find((o) => o.slug === slug)?.name ?? slug;
}
