// The write of a billable create made in one statement (server creates, domain registrations;
// db/queries/billable-create.ts), and what its outcome means. The statement either commits the
// idempotency record with its answer, the resource, the charge, the operation and its job, or
// writes nothing: then the caller goes its transaction way, which answers exactly.
import { isDatabaseUnavailable } from '../../db/failures.ts';
import { isDeclinedStatement, isLockNotAvailable } from '../../db/refusals.ts';
import { type BillableCreateWrite, writeBillableCreate } from '../../db/queries/billable-create.ts';
import type { OperationJobRow } from '../../db/queries/jobs.ts';
import type { Operation } from '../../db/schema.ts';
import type { MachineReservation } from '../../db/queries/machine-reservation.ts';
import type { Ctx } from '../context.ts';
import { ApiError } from '../errors.ts';
import { IDEMPOTENCY_TTL_MS } from '../idempotency/service.ts';
import type { Cents } from '../money.ts';
import { reportLedgerRow } from './ledger.ts';

export interface CreateInOneStatement {
  /** The request's Idempotency-Key and fingerprint; the record stores `body` as its answer (created). */
  key: string | undefined;
  fingerprint: string;
  body: unknown;
  resource: BillableCreateWrite['resource'];
  charge: { cents: Cents; description: string; resource: string };
  operation: Operation;
  /** What queues the operation in the same statement (OperationQueue.enqueueRow). */
  enqueue: OperationJobRow;
  /** A server's machine and addresses, reserved in the same statement (a short pool: the transaction way). */
  machine?: MachineReservation;
}

/**
 * Writes the create; true when it committed (its charge reported), false when nothing was written
 * and the caller must go its transaction way. A database outage rejects (the database's error); a twin request
 * holding the key past lock_timeout is IDEMPOTENCY_KEY_CONFLICT, as the transaction way answers.
 */
export async function writeCreateInOneStatement(ctx: Ctx, c: CreateInOneStatement): Promise<boolean> {
  let written;
  try {
    written = await writeBillableCreate(ctx.db, {
      record: c.key === undefined ? undefined : {
        key: c.key, requestHash: c.fingerprint, expiresAt: new Date(ctx.now.getTime() + IDEMPOTENCY_TTL_MS), outcome: 'created', response: c.body,
      },
      resource: c.resource,
      charge: { accountId: ctx.accountId, cents: c.charge.cents, description: c.charge.description },
      operation: c.operation,
      job: c.enqueue,
      machine: c.machine,
    });
  } catch (e) {
    if (isDatabaseUnavailable(e)) throw e;
    if (isLockNotAvailable(e)) throw new ApiError('IDEMPOTENCY_KEY_CONFLICT', 'A request with this Idempotency-Key is still being processed; retry shortly');
    // A check of the write failed, a unique index, a node's capacity or a short address pool
    // refused it, a race was lost: the transaction way decides.
    if (isDeclinedStatement(e)) return false;
    throw e;
  }
  reportLedgerRow(ctx.db, {
    accountId: ctx.accountId, type: 'withdraw', cents: c.charge.cents, description: c.charge.description, resource: c.charge.resource,
    transactionId: written.transactionId, balanceAfterCents: written.balanceAfterCents,
  });
  return true;
}
