// The one error every provider (compute, registrar, hosting panel) fails with, so the core's
// retry and compensation logic treats an upstream the same whichever system it is.

export type ProviderErrorCode = 'UPSTREAM_ERROR' | 'CAPACITY_UNAVAILABLE';

/** A failure of the upstream system. `retryable` errors are worth another attempt later. */
export class ProviderError extends Error {
  readonly code: ProviderErrorCode;
  readonly retryable: boolean;
  constructor(code: ProviderErrorCode, message: string, retryable = code === 'UPSTREAM_ERROR') {
    super(message);
    this.name = 'ProviderError';
    this.code = code;
    this.retryable = retryable;
  }
}

// A driver asked to act on a node it cannot serve (providers/compute/platform.ts says which serves
// which). Here, beside ProviderError, because the core tells it apart: the worker gives such a job
// back unspent, and a read answers 503 rather than a wrong answer.
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
