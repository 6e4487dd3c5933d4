// Where a webhook may point: only addresses of the public internet. Anything else — the machine
// itself, the operator's private networks, the cloud's metadata service (169.254.169.254), carrier
// NAT, multicast — would let a customer make our workers call inside our own network (SSRF). The
// ranges are ipaddr.js's (IANA's special-purpose registries); IPv4-mapped IPv6 addresses are judged
// as the IPv4 address they carry, and tunnels and translation prefixes that embed one (6to4, Teredo,
// NAT64) are refused with the rest.
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

/** Why `address` may not be a webhook's target (e.g. "a loopback address"), or null when it is public. */
export function forbiddenAddress(address: string): string | null {
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.parse(address);
  } catch {
    return 'not an IP address';
  }
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  const range = addr.range();
  if (range === 'unicast') return null;
  return WORDS[range] ?? `a reserved address (${range})`;
}

/** The address inside URL host brackets, or the host itself. */
export function hostAddress(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** Whether a URL's (WHATWG-parsed, so canonical) hostname is an IP address rather than a name. */
export const isIpLiteral = (hostname: string) => isIP(hostAddress(hostname)) !== 0;
