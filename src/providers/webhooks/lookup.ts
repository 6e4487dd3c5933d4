// Host names to addresses, as the operating system resolves them (getaddrinfo: /etc/hosts, then
// DNS), every A and AAAA record: a webhook's host must resolve to public addresses only.
import { lookup } from 'node:dns/promises';

export async function systemLookup(hostname: string): Promise<string[]> {
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => a.address);
}
