// The addresses a server holds right now, as one list (primary pair, then extra ones), and an
// address from a path matched against it in normal form (so 2001:DB8::0:1 names 2001:db8::1).
import ipaddr from 'ipaddr.js';
import { listServerIps } from '../../db/queries/servers.ts';
import type { Server } from '../../db/schema.ts';
import { notFound } from '../errors.ts';
import type { Db } from '../types.ts';

export interface HeldAddress {
  address: string;
  version: 4 | 6;
  type: 'primary' | 'extra';
  /** The server_ips row of an extra address. */
  rowId: number | null;
  /** What an extra address adds to the monthly bill. */
  priceCents: number;
}

/** An address in the form the platform reports it, or null when the text is not an address. */
export function normalAddress(text: string): string | null {
  const t = text.trim();
  if (ipaddr.IPv4.isValidFourPartDecimal(t)) return ipaddr.IPv4.parse(t).toString();
  if (!t.includes(':') || !ipaddr.IPv6.isValid(t)) return null;
  return ipaddr.IPv6.parse(t).toString();
}

export async function heldAddresses(db: Db, server: Server): Promise<HeldAddress[]> {
  const out: HeldAddress[] = [];
  const { ipv4, ipv6 } = server.network ?? { ipv4: null, ipv6: null };
  if (ipv4) out.push({ address: ipv4.address, version: 4, type: 'primary', rowId: null, priceCents: 0 });
  if (ipv6) out.push({ address: ipv6.address, version: 6, type: 'primary', rowId: null, priceCents: 0 });
  for (const ip of await listServerIps(db, server.id)) {
    if (ip.address !== null) out.push({ address: ip.address, version: ip.version, type: 'extra', rowId: ip.id, priceCents: ip.price_cents });
  }
  return out;
}

/** The server's address `text` names; RESOURCE_NOT_FOUND when it holds no such address. */
export async function requireAddress(db: Db, server: Server, text: string): Promise<HeldAddress> {
  const normal = normalAddress(text);
  const found = normal === null ? undefined : (await heldAddresses(db, server)).find((a) => normalAddress(a.address) === normal);
  if (!found) throw notFound('Address');
  return found;
}
