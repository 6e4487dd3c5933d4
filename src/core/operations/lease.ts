// An operation's lease: whoever runs it (a worker, or a request doing the work itself) renews it
// every third of OPERATION_LEASE_S; once it lapses the run is presumed lost and the worker's sweep
// (jobs/lost-operations.ts) queues the operation again. A renewal that fails (the database is
// away) is simply skipped: if the outage outlasts the lease, another run takes over, which is safe
// by design.
import { renewLease } from '../../db/queries/operations.ts';
import type { Db } from '../types.ts';

/** OPERATION_LEASE_S's default (config.ts). */
export const DEFAULT_LEASE_S = 30;

export interface HeldLease {
  release(): void;
}

export function holdLease(db: Db, id: string, leaseS: number): HeldLease {
  const timer = setInterval(() => void renewLease(db, id, leaseS).catch(() => undefined), (leaseS * 1000) / 3);
  // A lease alone never keeps the process alive (a run that can never end must not either).
  timer.unref();
  return { release: () => clearInterval(timer) };
}
