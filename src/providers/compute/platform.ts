// Which driver serves which node. A node with an endpoint is an LXD server; a node without one, or
// a machine with no node, is the simulated platform's. Every process of an installation should run
// the same COMPUTE_DRIVER, but during a rolling deploy one may not: a driver asked to act on a node
// it cannot serve must refuse rather than pretend (a simulated "create" of a server on an LXD node
// would charge the customer for an instance that does not exist). The refusal is retryable, and
// the worker gives such a job back without spending one of its retries (operation-slots.ts): a
// correctly configured worker takes it, and no misconfigured one ever fails or refunds it.
import { type NodeDriver, WrongPlatformError } from '../errors.ts';

/** Refuses, unless `driver` serves a machine on `node` whose endpoint is `endpoint`. */
export function requireServedNode(driver: NodeDriver, node: string | null | undefined, endpoint: string | null | undefined): void {
  const lxdNode = endpoint !== null && endpoint !== undefined;
  if (driver === 'lxd' ? !lxdNode : lxdNode) throw new WrongPlatformError(driver, node ?? null);
}
