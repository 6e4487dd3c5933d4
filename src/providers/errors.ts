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
