// What a kind of operation does when the worker runs it. `run` talks to the provider (outside any
// transaction; it may run again after a lost worker, so every provider call carries a stable
// token) and returns the database changes to commit with the completion. `compensate` undoes the
// customer-visible effects when the operation finally fails (refund, release), in the same
// transaction that marks it failed.
import type { Operation } from '../../db/schema.ts';
import type { ComputeProvider, Progress } from '../../providers/compute/types.ts';
import type { HostingPanel } from '../../providers/hosting/types.ts';
import type { Registrar } from '../../providers/registrar/types.ts';
import type { Db } from '../types.ts';

export interface RunContext {
  db: Db;
  compute: ComputeProvider;
  hosting: HostingPanel;
  /** Absent in a worker wired without one (older callers); registrar runners fail then. */
  registrar?: Registrar;
  progress: Progress;
  now: () => Date;
}

export interface RunResult {
  /** The operation's final `detail`. */
  detail: string;
  apply?: (trx: Db) => Promise<void>;
}

export interface Runner {
  run(rc: RunContext, op: Operation): Promise<RunResult>;
  compensate?(trx: Db, op: Operation, reason: string, now: Date): Promise<void>;
  /**
   * Platform clean-up after a final failure has been recorded (e.g. destroy a machine a create
   * built before it failed). Best effort, outside any transaction; its errors are ignored, since
   * the customer's side (refund, state) is already settled.
   */
  afterFailure?(rc: RunContext, op: Operation): Promise<void>;
}
