// What makes an address pool acceptable, checked before the database sees it: a real network of
// the stated family and a sensible size, with its gateway on one of its hosts.
import { type Block, blockText, hostOffsets, offsetOf, parseAddress, parseBlock } from './ip-math.ts';
import { invalid } from '../errors.ts';

/** Prefix lengths a pool may have: small enough to matter, large enough to hold a gateway and hosts. */
export const POOL_PREFIX = { 4: { min: 16, max: 30 }, 6: { min: 48, max: 120 } } as const;

export interface PoolInput {
  version: 4 | 6;
  cidr: string;
  gateway: string;
}

/** The pool as it will be stored (network and gateway in canonical text), or a VALIDATION_FAILED naming the field. */
export function checkPool(input: PoolInput): { version: 4 | 6; cidr: string; gateway: string; block: Block } {
  const block = parseBlock(input.cidr);
  if (!block) throw invalid('cidr', 'must be a network in CIDR notation, e.g. 203.0.113.0/24 or 2001:db8:1::/64');
  if (block.version !== input.version) throw invalid('cidr', `is an IPv${block.version} network, but version is ${input.version}`);
  const { min, max } = POOL_PREFIX[input.version];
  if (block.prefix < min || block.prefix > max) throw invalid('cidr', `IPv${input.version} pools must be /${min} to /${max}`);
  // "10.0.0.5/24" is more likely a typo than a wish for 10.0.0.0/24: say so rather than guess.
  if (block.given !== block.base) throw invalid('cidr', `has host bits set; the network is ${blockText(block)}`);

  const gw = parseAddress(input.gateway);
  if (!gw || input.gateway.includes('/')) throw invalid('gateway', 'must be an IP address');
  const gwText = gw.addr.toString();
  const offset = offsetOf(block, gwText);
  const { first, last } = hostOffsets(block);
  if (offset === null || offset < first || offset > last) throw invalid('gateway', `must be a host address inside ${blockText(block)}`);
  return { version: input.version, cidr: blockText(block), gateway: gwText, block };
}

/** The family of a pool's network, for requests that leave `version` out; null when it is not a network. */
export function versionOf(cidr: string): 4 | 6 | null {
  return parseBlock(cidr)?.version ?? null;
}
