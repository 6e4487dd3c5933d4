// Address arithmetic over a pool's CIDR, on ipaddr.js. A pool hands out host *offsets* (0 is the
// network address); BigInt because an IPv6 pool holds far more than 2^53 addresses.
import ipaddr from 'ipaddr.js';

export type IpVersion = 4 | 6;

export interface Block {
  version: IpVersion;
  /** The network address as a number. */
  base: bigint;
  prefix: number;
  /** Addresses in the block, network (and IPv4 broadcast) included. */
  size: bigint;
}

type Addr = ipaddr.IPv4 | ipaddr.IPv6;

function toBig(addr: Addr): bigint {
  return addr.toByteArray().reduce((n, b) => (n << 8n) | BigInt(b), 0n);
}

function fromBig(n: bigint, version: IpVersion): string {
  const bytes = new Array<number>(version === 4 ? 4 : 16);
  for (let i = bytes.length - 1; i >= 0; i--) {
    bytes[i] = Number(n & 0xffn);
    n >>= 8n;
  }
  return ipaddr.fromByteArray(bytes).toString();
}

/**
 * Parses an address strictly: IPv4 only in dotted-quad form, so "10.1" or "0x0a.0.0.1" (which
 * ipaddr.js also accepts) cannot slip into a pool.
 */
export function parseAddress(text: string): { addr: Addr; version: IpVersion } | null {
  const t = text.trim();
  if (!ipaddr.isValid(t)) return null;
  if (!t.includes(':') && !ipaddr.IPv4.isValidFourPartDecimal(t)) return null;
  const addr = ipaddr.parse(t);
  return { addr, version: addr.kind() === 'ipv4' ? 4 : 6 };
}

/** "203.0.113.0/24" → the block; null when not a CIDR. Host bits may be set (see `networkText`). */
export function parseBlock(cidr: string): (Block & { given: bigint }) | null {
  const t = cidr.trim();
  const slash = t.indexOf('/');
  if (slash < 0 || !ipaddr.isValidCIDR(t)) return null;
  const parsed = parseAddress(t.slice(0, slash));
  if (!parsed) return null;
  const [, prefix] = ipaddr.parseCIDR(t);
  const bits = parsed.version === 4 ? 32 : 128;
  const size = 1n << BigInt(bits - prefix);
  const given = toBig(parsed.addr);
  return { version: parsed.version, base: given - (given % size), prefix, size, given };
}

/** The block as PostgreSQL prints a `cidr`. */
export function blockText(b: Block): string {
  return `${fromBig(b.base, b.version)}/${b.prefix}`;
}

/** Host offsets that may be leased: IPv4 keeps its network and broadcast addresses back, IPv6 its subnet-router anycast (offset 0). */
export function hostOffsets(b: Block): { first: bigint; last: bigint } {
  return { first: 1n, last: b.version === 4 ? b.size - 2n : b.size - 1n };
}

export function addressAt(b: Block, offset: bigint): string {
  return fromBig(b.base + offset, b.version);
}

/** The offset of `address` in the block, or null when it lies outside (or is of the other family). */
export function offsetOf(b: Block, address: string): bigint | null {
  const parsed = parseAddress(address);
  if (!parsed || parsed.version !== b.version) return null;
  const n = toBig(parsed.addr);
  return n >= b.base && n < b.base + b.size ? n - b.base : null;
}

/** Leasable addresses of a pool: its hosts less the gateway. */
export function leasableCount(b: Block): bigint {
  const { first, last } = hostOffsets(b);
  return last - first + 1n - 1n;
}

/** "255.255.255.0" for an IPv4 /24. */
export function netmask(prefix: number): string {
  return ipaddr.IPv4.subnetMaskFromPrefixLength(prefix).toString();
}
