// Reverse DNS served for real: each IP pool has its reverse zones (Hostcloud's, no account), and
// an address's PTR lives in the zone that covers it. IPv4 zones are /24-aligned in-addr.arpa
// zones (a /22 pool has four; a /26 one shares its /24's zone); IPv6 zones are the nibble zone of
// the pool's prefix (rounded down to a multiple of 4 bits). Setting reverse DNS writes the PTR,
// clearing it removes it, and an address given back to its pool loses it in the same
// transaction (migration 0100's trigger on ip_addresses, whichever driver releases it).
import ipaddr from 'ipaddr.js';
import {
  bumpZone, deleteRecordRow, findPtr, findReverseZoneFor, insertRecords, listPoolsWithoutZones, queueDnsPush, updateRecordRow,
} from '../../db/queries/dns.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Db } from '../types.ts';
import { TTL_DEFAULT } from './rules.ts';
import { makeZone, newRecordId } from './zones.ts';

/** More /24 zones than this for one pool (a /15 or wider) are not made: such a pool is an operator's mistake. */
const MAX_V4_ZONES = 512;

/** The reverse zones of a pool's CIDR. */
export function reverseZonesOf(cidr: string): string[] {
  const [addr, prefix] = ipaddr.parseCIDR(cidr);
  if (addr.kind() === 'ipv4') {
    const octets = (addr as ipaddr.IPv4).octets;
    if (prefix >= 24) return [`${octets[2]}.${octets[1]}.${octets[0]}.in-addr.arpa`];
    const count = 2 ** (24 - Math.max(prefix, 15));
    const base = ((octets[0]! << 16) | (octets[1]! << 8) | octets[2]!) & ~(count - 1) & 0xffffff;
    return Array.from({ length: Math.min(count, MAX_V4_ZONES) }, (_, i) => {
      const n = base + i;
      return `${n & 0xff}.${(n >> 8) & 0xff}.${(n >> 16) & 0xff}.in-addr.arpa`;
    });
  }
  const nibbles = nibblesOf(addr as ipaddr.IPv6).slice(0, Math.floor(prefix / 4));
  return [`${[...nibbles].reverse().join('.')}${nibbles.length ? '.' : ''}ip6.arpa`];
}

function nibblesOf(addr: ipaddr.IPv6): string[] {
  return addr.toByteArray().flatMap((b) => [(b >> 4).toString(16), (b & 0xf).toString(16)]);
}

/** The PTR name of an address: 10.2.0.192.in-addr.arpa, or its 32-nibble ip6.arpa name. */
export function ptrNameOf(address: string): string {
  const addr = ipaddr.parse(address);
  if (addr.kind() === 'ipv4') return `${[...(addr as ipaddr.IPv4).octets].reverse().join('.')}.in-addr.arpa`;
  return `${nibblesOf(addr as ipaddr.IPv6).reverse().join('.')}.ip6.arpa`;
}

/** Makes the reverse zones of one pool that do not exist yet. */
export async function ensurePoolZones(db: Db, pool: { id: number; cidr: string }, now: Date): Promise<number> {
  let made = 0;
  for (const name of reverseZonesOf(pool.cidr)) {
    if (await makeZone(db, { accountId: null, name, kind: 'reverse', poolId: pool.id, now })) made++;
  }
  return made;
}

/** At start: the reverse zones of every pool that has none yet (the demo pools included). */
export async function ensureAllPoolZones(db: Db, now = new Date()): Promise<number> {
  let made = 0;
  for (const pool of await listPoolsWithoutZones(db)) made += await inTransaction(db, (trx) => ensurePoolZones(trx, pool, now));
  return made;
}

/**
 * Sets (a host name) or removes (null) the PTR of `address`, in the caller's transaction. An
 * address no reverse zone covers (a pool added before reverse zones, outside every pool) has
 * nothing to write: the name stays recorded with the server only.
 */
export async function writePtr(trx: Db, address: string, hostname: string | null, now: Date): Promise<void> {
  const existing = await findPtr(trx, address);
  const ptrName = ptrNameOf(address);
  const zone = existing ? undefined : await findReverseZoneFor(trx, ptrName);
  const zoneId = existing?.zone_id ?? zone?.id;
  if (!zoneId) return;
  if (existing && existing.content === hostname) return;
  const locked = await bumpZone(trx, zoneId, null, now);
  if (!locked) return;
  const name = existing?.name ?? ptrName.slice(0, -(locked.name.length + 1));
  if (hostname === null) {
    if (existing) await deleteRecordRow(trx, existing.id);
  } else if (existing) {
    await updateRecordRow(trx, existing.id, { name: existing.name, content: hostname, ttl: existing.ttl, priority: null, updated_at: now });
  } else {
    await insertRecords(trx, [{ id: newRecordId(), zone_id: zoneId, name, type: 'PTR', content: hostname, ttl: TTL_DEFAULT, priority: null, managed: false, address, created_at: now }]);
  }
  const rr = (n: string, type: string) => ({ zone_id: locked.id, zone_name: locked.name, action: 'rrset' as const, rr_name: n === '@' ? locked.name : `${n}.${locked.name}`, rr_type: type });
  await queueDnsPush(trx, [rr(name, 'PTR'), rr('@', 'SOA')]);
}
