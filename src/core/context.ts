// What a core service needs to act for a caller: the database handle (a transaction in the
// sandbox), whose account it is, the clock, and the outside systems. The HTTP layer builds it;
// for a test key it swaps in a rolled-back transaction and no-op systems.
import type { ComputeProvider } from '../providers/compute/types.ts';
import type { DnsProvider } from '../providers/dns/types.ts';
import type { HostingPanel } from '../providers/hosting/types.ts';
import type { PaymentProvider } from '../providers/payments/types.ts';
import type { Registrar } from '../providers/registrar/types.ts';
import type { WebhookTransport } from '../providers/webhooks/types.ts';
import type { OperationJobRow } from '../db/queries/jobs.ts';
import type { Db } from './types.ts';

/**
 * Hands queued operations to the worker, inside the caller's transaction (src/jobs/queue.ts: as
 * pg-boss jobs, which never reach the core).
 */
export interface OperationQueue {
  enqueueOperation(trx: Db, operationId: string): Promise<void>;
  /**
   * What enqueueOperation would write, for a write that inserts it in its own statement (one
   * round trip for a whole create); the core passes it on unread. Absent: such writes are not
   * offered (they fall back to enqueueOperation).
   */
  enqueueRow?(operationId: string): OperationJobRow;
}

export interface Services {
  compute: ComputeProvider;
  hosting: HostingPanel;
  registrar: Registrar;
  /** Where customers pay for top-ups (PAYMENTS); absent where nothing is paid (the worker, the sandbox). */
  payments?: PaymentProvider;
  /** DNS_DRIVER's provider: the worker pushes zones to it (the API only writes the database and the outbox). Absent: nothing is pushed. */
  dns?: DnsProvider;
  /** Where the worker's webhook sender posts deliveries. Absent: HTTP(S) per the WEBHOOK_* settings (src/jobs/webhook-sender.ts). */
  webhooks?: WebhookTransport;
  /** DNS_NAMESERVERS: a registration's or transfer's nameservers when it names none. Absent: the default. */
  dnsNameservers?: readonly string[];
  jobs: OperationQueue;
  /** How long a live read waits for the provider before degrading to `unknown`. */
  providerTimeoutMs: number;
  /**
   * OPERATION_LEASE_S: a request that does an operation's work itself (upgrade, an address
   * purchase) holds its lease this long, renewed; if the process dies, the worker takes over once
   * it lapses. Default 30 (lease.ts).
   */
  operationLeaseS?: number;
}

/**
 * The upstream systems a part of the worker talks to: compute and hosting always, the others where
 * the process was wired with them (each part says which it needs as a Pick of this).
 */
export type Upstreams = Pick<Services, 'compute' | 'hosting'> & Partial<Pick<Services, 'registrar' | 'payments' | 'dns' | 'webhooks'>>;

export interface Ctx extends Services {
  db: Db;
  accountId: string;
  /** True for test keys: nothing persists, no provider is called, nothing is charged. */
  sandbox: boolean;
  now: Date;
}
