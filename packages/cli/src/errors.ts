/** A mistake in how hc was called or configured: exit 2, with a hint. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** An operation that ended `failed` under --wait: exit 1. */
export class OperationFailed extends Error {
  override readonly name = 'OperationFailed';
  constructor(readonly operation: { id: string; type: string; detail: string }) {
    super(`operation ${operation.id} (${operation.type}) failed: ${operation.detail}`);
  }
}

/** What the command waited for went wrong though every API call succeeded (a ping not delivered): exit 1. */
export class CommandFailed extends Error {
  override readonly name = 'CommandFailed';
}
