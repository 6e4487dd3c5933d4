// IP allowlists: single addresses or CIDR ranges, IPv4 and IPv6, matched with ipaddr.js.
// Entries are stored normalised as CIDR text ("203.0.113.7/32", "2001:db8::/32").
import ipaddr from 'ipaddr.js';

type Addr = ipaddr.IPv4 | ipaddr.IPv6;

/** IPv4-mapped IPv6 (::ffff:1.2.3.4, what a dual-stack socket reports) compares as IPv4. */
function plain(addr: Addr): Addr {
  return addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() ? (addr as ipaddr.IPv6).toIPv4Address() : addr;
}

/** "203.0.113.7" or "203.0.113.0/24" or "2001:db8::/32" → normalised CIDR, or null if not one. */
export function normaliseEntry(text: string): string | null {
  const t = text.trim();
  try {
    if (t.includes('/')) {
      if (!ipaddr.isValidCIDR(t)) return null;
      const [addr, bits] = ipaddr.parseCIDR(t);
      const a = plain(addr);
      const prefix = a !== addr ? bits - 96 : bits;
      if (prefix < 0) return null;
      // Store the network address so "10.0.0.5/8" and "10.0.0.0/8" are the same entry.
      const net = a.kind() === 'ipv4'
        ? ipaddr.IPv4.networkAddressFromCIDR(`${a.toString()}/${prefix}`)
        : ipaddr.IPv6.networkAddressFromCIDR(`${a.toString()}/${prefix}`);
      return `${net.toString()}/${prefix}`;
    }
    if (!ipaddr.isValid(t)) return null;
    // isValid accepts legacy IPv4 forms ("127.1", "0x7f.1"); an allowlist entry must be unambiguous.
    if (!t.includes(':') && !ipaddr.IPv4.isValidFourPartDecimal(t)) return null;
    const a = plain(ipaddr.parse(t));
    return `${a.toString()}/${a.kind() === 'ipv4' ? 32 : 128}`;
  } catch {
    return null;
  }
}

export function ipVersion(entry: string): 4 | 6 {
  return entry.includes(':') ? 6 : 4;
}

export function ipAllowed(ip: string, entries: readonly string[]): boolean {
  let addr: Addr;
  try {
    addr = plain(ipaddr.parse(ip));
  } catch {
    return false;
  }
  for (const entry of entries) {
    try {
      const [net, bits] = ipaddr.parseCIDR(entry);
      if (net.kind() === addr.kind() && addr.match([net, bits] as never)) return true;
    } catch {
      // An unparsable stored entry never grants access.
    }
  }
  return false;
}

/**
 * ipAllowed with the entries parsed once (a cached key's allowlist), and the last answers per
 * address remembered: a key is mostly used from a handful of addresses.
 */
export function compileAllowlist(entries: readonly string[]): (ip: string) => boolean {
  const nets: [Addr, number][] = [];
  for (const entry of entries) {
    try {
      nets.push(ipaddr.parseCIDR(entry) as [Addr, number]);
    } catch {
      // An unparsable stored entry never grants access.
    }
  }
  const seen = new Map<string, boolean>();
  return (ip) => {
    const known = seen.get(ip);
    if (known !== undefined) return known;
    let allowed = false;
    try {
      const addr = plain(ipaddr.parse(ip));
      allowed = nets.some(([net, bits]) => net.kind() === addr.kind() && addr.match([net, bits] as never));
    } catch {
      allowed = false;
    }
    if (seen.size >= 32) seen.clear();
    seen.set(ip, allowed);
    return allowed;
  };
}
