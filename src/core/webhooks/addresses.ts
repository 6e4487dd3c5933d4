// Where a webhook may point: only addresses of the public internet. Anything else — the machine
// itself, the operator's private networks, the cloud's metadata service (169.254.169.254), carrier
// NAT, multicast — would let a customer make our workers call inside our own network (SSRF). The
// ranges are ipaddr.js's (IANA's special-purpose registries). An IPv4-mapped IPv6 address is judged
// as the IPv4 address it carries. Every other IPv6 form that carries an IPv4 address — IPv4-compatible
// (::/96, deprecated, which ipaddr.js counts as unicast), IPv4-translated, 6to4, NAT64, Teredo — is
// refused whatever it carries: a relay or translator may deliver it to that IPv4 address, and a
// public one can be given as itself. The message names the IPv4 address inside where it is known.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

const WORDS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private address',
  uniqueLocal: 'a private (unique local) address',
  linkLocal: 'a link-local address (such as a cloud metadata service)',
  carrierGradeNat: 'a carrier-grade NAT address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  unspecified: 'the unspecified address',
};

/** IPv6 ranges that carry an IPv4 address, by ipaddr.js's range name (ipv4Compatible is ours). */
const CARRIERS: Record<string, string> = {
  ipv4Compatible: 'IPv4-compatible',
  rfc6145: 'IPv4-translated',
  '6to4': '6to4',
  rfc6052: 'NAT64 (IPv4/IPv6 translation)',
  teredo: 'Teredo',
};

const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/** The IPv4 address an IPv6 address of a carrier range holds, where its place is fixed. */
function carried(range: string, p: number[]): ipaddr.IPv4 | null {
  switch (range) {
    case 'ipv4Compatible':
    case 'rfc6145':
      return v4(p[6]!, p[7]!);
    case 'rfc6052':
      // 64:ff9b::/96 keeps it in the last 32 bits; the local-use /48 lets each network choose where.
      return p[2] === 0 ? v4(p[6]!, p[7]!) : null;
    case '6to4':
      return v4(p[1]!, p[2]!);
    case 'teredo':
      // The client's address, each bit inverted (RFC 4380).
      return v4(~p[6]! & 0xffff, ~p[7]! & 0xffff);
    default:
      return null;
  }
}

function judgeV4(addr: ipaddr.IPv4): string | null {
  const range = addr.range();
  if (range === 'unicast') return null;
  return WORDS[range] ?? `a reserved address (${range})`;
}

/**
 * An IPv6 address with a dotted tail in hex (::127.0.0.1 → ::7f00:1): ipaddr.js reads any dotted
 * tail as IPv4-mapped, which ::127.0.0.1 (IPv4-compatible) is not. WHATWG URL parsing is exact.
 */
function canonical(address: string): string {
  if (isIP(address) !== 6 || !address.includes('.')) return address;
  return hostAddress(new URL(`http://[${address}]/`).hostname);
}

/** Why `address` may not be a webhook's target (e.g. "a loopback address"), or null when it is public. */
export function forbiddenAddress(address: string): string | null {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(canonical(address));
  } catch {
    return 'not an IP address';
  }
  if (addr.kind() === 'ipv4') return judgeV4(addr as ipaddr.IPv4);
  const v6 = addr as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return judgeV4(v6.toIPv4Address());
  let range: string = v6.range();
  if (range === 'unicast' && v6.parts.slice(0, 6).every((x) => x === 0)) range = 'ipv4Compatible';
  const carrier = CARRIERS[range];
  if (carrier) {
    const inside = carried(range, v6.parts);
    const why = inside && judgeV4(inside);
    return `a reserved address (${carrier}${inside ? `, carrying ${inside.toString()}${why ? `, ${why}` : ''}` : ''})`;
  }
  if (range === 'unicast') return null;
  return WORDS[range] ?? `a reserved address (${range})`;
}

/** The address inside URL host brackets, or the host itself. */
export function hostAddress(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** Whether a URL's (WHATWG-parsed, so canonical) hostname is an IP address rather than a name. */
export const isIpLiteral = (hostname: string) => isIP(hostAddress(hostname)) !== 0;
