// The worker's upkeep: one maintenance job per hour across all workers (a throttled send is unique
// per time slot) removes expired idempotency keys and events past their retention.
import type { Config } from '../config.ts';
import { pruneEvents } from '../core/events/retention.ts';
import { sweepPanel } from '../core/panel/sweep.ts';
import { auditEndedImpersonations } from '../core/staff/impersonation.ts';
import type { Db } from '../core/types.ts';
import { deleteExpiredIdempotencyKeys } from '../db/queries/idempotency.ts';
import type { JobLoops } from './job-loops.ts';
import { MAINTENANCE_QUEUE } from './queue.ts';

/** The maintenance job runs at most once per this many seconds, whatever the number of workers. */
const MAINTENANCE_EVERY_S = 3_600;
/** How long an idle maintenance loop waits before asking the queue again. */
const POLL_MS = 5_000;

export interface Maintenance {
  loop: Promise<void>;
  stop(): void;
}

/** Runs maintenance jobs and plans the next every JOB_MAINTENANCE_S. */
export async function startMaintenance(
  w: JobLoops, db: Db, config: Pick<Config, 'jobMaintenanceS'> & Partial<Pick<Config, 'eventRetentionDays'>>,
): Promise<Maintenance> {
  const loop = w.loop(MAINTENANCE_QUEUE, 1, POLL_MS, async ([job]) => {
    const ok = await w.settle('removing expired idempotency keys', async () => {
      const removed = await deleteExpiredIdempotencyKeys(db);
      w.logger.info({ removed, component: 'worker' }, 'expired idempotency keys removed');
    }) && await w.settle('removing events past retention', async () => {
      const removed = await pruneEvents(db, config.eventRetentionDays);
      w.logger.info({ removed, component: 'worker' }, 'events past retention removed');
    }) && await w.settle('auditing ended impersonations', async () => {
      // Before the sweep below: it keeps an impersonation's session until its end is audited.
      const audited = await auditEndedImpersonations(db, new Date());
      w.logger.info({ audited, component: 'worker' }, 'ended impersonations audited');
    }) && await w.settle('removing ended panel sessions and links', async () => {
      const removed = await sweepPanel(db, new Date());
      w.logger.info({ ...removed, component: 'worker' }, 'ended panel sessions and links removed');
    });
    await w.settle('settling the maintenance job', () => (ok ? w.boss.complete(MAINTENANCE_QUEUE, job!.id) : w.boss.fail(MAINTENANCE_QUEUE, job!.id)));
  });

  const plan = async () => {
    if (!w.gate.open) return;
    await w.boss.sendThrottled(MAINTENANCE_QUEUE, {}, {}, MAINTENANCE_EVERY_S, 'idempotency-cleanup').catch((err: unknown) => {
      if (!w.gate.noteFailure(err)) w.logger.error({ err, component: 'worker' }, 'planning maintenance failed');
    });
  };
  await plan();
  const planner = setInterval(() => void plan(), config.jobMaintenanceS * 1000);
  return { loop, stop: () => clearInterval(planner) };
}
