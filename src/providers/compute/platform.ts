// Which driver serves which node. A node with an endpoint is an LXD server; a node without one, or
// a machine with no node, is the simulated platform's. Every process of an installation should run
// the same COMPUTE_DRIVER, but during a rolling deploy one may not: a driver asked to act on a node
// it cannot serve must refuse rather than pretend (a simulated "create" of a server on an LXD node
// would charge the customer for an instance that does not exist). The refusal is retryable, and
// the worker gives such a job back without spending one of its retries (operation-slots.ts): a
// correctly configured worker takes it, and no misconfigured one ever fails or refunds it.
import { ProviderError } from '../errors.ts';

/** COMPUTE_DRIVER's values: the drivers that own nodes (the sandbox's no-op driver touches none). */
export type NodeDriver = 'simulated' | 'lxd';

/** A node that `driver` cannot serve (or, with `node` null, a machine without a node). */
export class WrongPlatformError extends ProviderError {
  constructor(readonly driver: NodeDriver, readonly node: string | null) {
    super('UPSTREAM_ERROR', refusal(driver, node), true);
    this.name = 'WrongPlatformError';
  }
}

function refusal(driver: NodeDriver, node: string | null): string {
  if (driver === 'simulated') {
    return `Node ${node} is an LXD server (it has an endpoint), but this process runs COMPUTE_DRIVER=simulated and cannot act on it: `
      + 'run every worker and API process of this installation with COMPUTE_DRIVER=lxd (and its LXD_* settings)';
  }
  const what = node === null ? 'The machine has no node (it is on the simulated platform)' : `Node ${node} has no endpoint (it is a simulated node)`;
  return `${what}, but this process runs COMPUTE_DRIVER=lxd and cannot act on it: run the processes serving it with COMPUTE_DRIVER=simulated, `
    + 'or drain that node and add its LXD server as a node with an endpoint (POST /admin/v1/nodes {endpoint})';
}

/** Refuses, unless `driver` serves a machine on `node` whose endpoint is `endpoint`. */
export function requireServedNode(driver: NodeDriver, node: string | null | undefined, endpoint: string | null | undefined): void {
  const lxdNode = endpoint !== null && endpoint !== undefined;
  if (driver === 'lxd' ? !lxdNode : lxdNode) throw new WrongPlatformError(driver, node ?? null);
}
