// What a core service needs to act for a caller: the database handle (a transaction in the
// sandbox), whose account it is, the clock, and the outside systems. The HTTP layer builds it;
// for a test key it swaps in a rolled-back transaction and no-op systems.
import type { ComputeProvider } from '../providers/compute/types.ts';
import type { HostingPanel } from '../providers/hosting/types.ts';
import type { PaymentProvider } from '../providers/payments/types.ts';
import type { Registrar } from '../providers/registrar/types.ts';
import type { OperationJob } from '../jobs/operation-job.ts';
import type { Db } from './types.ts';

/** Puts operation jobs on the queue, inside the caller's transaction. */
export interface JobQueue {
  enqueueOperation(trx: Db, operationId: string): Promise<void>;
  /**
   * The job enqueueOperation would queue, for a write that inserts it in its own statement (one
   * round trip for a whole create); the core passes it on unread. Absent: such writes are not
   * offered (they fall back to enqueueOperation).
   */
  operationJob?(operationId: string): OperationJob;
}

export interface Services {
  compute: ComputeProvider;
  hosting: HostingPanel;
  registrar: Registrar;
  /** Where customers pay for top-ups (PAYMENTS); absent where nothing is paid (the worker, the sandbox). */
  payments?: PaymentProvider;
  jobs: JobQueue;
  /** How long a live read waits for the provider before degrading to `unknown`. */
  providerTimeoutMs: number;
  /**
   * OPERATION_LEASE_S: a request that does an operation's work itself (upgrade, an address
   * purchase) holds its lease this long, renewed; if the process dies, the worker takes over once
   * it lapses. Default 30 (lease.ts).
   */
  operationLeaseS?: number;
}

export interface Ctx extends Services {
  db: Db;
  accountId: string;
  /** True for test keys: nothing persists, no provider is called, nothing is charged. */
  sandbox: boolean;
  now: Date;
}
