// The worker's notification sender: a poll loop over the outbox. Any number of workers may run
// one; a notice is claimed by one sender at a time (SKIP LOCKED and a lease). Without SMTP_URL
// there is no sender and notices stay queued.
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { type DeliverySettings, deliverDueNotifications } from '../core/notifications/deliver.ts';
import type { Db } from '../core/types.ts';
import { createSmtpMailer } from './mailer.ts';

/** How often an idle sender looks for due notices. */
const POLL_MS = 1000;
/** The longest wait after database errors (the wait doubles from POLL_MS while they last). */
const MAX_ERROR_WAIT_MS = 30_000;

export const DELIVERY = { batchSize: 5, leaseS: 300 } as const;

export interface NotificationSender {
  stop(): Promise<void>;
}

export function startNotificationSender(
  db: Db, logger: Logger, config: Pick<Config, 'smtpUrl' | 'smtpFrom' | 'mailMaxAttempts' | 'mailRetryDelayS'>,
): NotificationSender | null {
  if (!config.smtpUrl) {
    logger.info({ component: 'notifications' }, 'SMTP_URL is not set: notifications are kept queued, not sent');
    return null;
  }
  const mailer = createSmtpMailer(config.smtpUrl, config.smtpFrom);
  const settings: DeliverySettings = { ...DELIVERY, maxAttempts: config.mailMaxAttempts, retryDelayS: config.mailRetryDelayS };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let round: Promise<void> = Promise.resolve();
  let errors = 0;

  const run = () => {
    round = deliverDueNotifications(db, mailer, settings).then(
      (r) => {
        errors = 0;
        if (r.claimed > 0) logger.info({ component: 'notifications', ...r }, 'notifications round');
        // A full batch suggests more are due: go on at once.
        return r.claimed === settings.batchSize ? 0 : POLL_MS;
      },
      (err) => {
        // The database failed (mail errors are recorded per notice): unsent claims lapse and are
        // taken again; wait longer while it lasts rather than log every second.
        errors += 1;
        const wait = Math.min(POLL_MS * 2 ** errors, MAX_ERROR_WAIT_MS);
        logger.error({ err, component: 'notifications', retry_in_ms: wait }, 'sending notifications failed; trying again');
        return wait;
      },
    ).then((wait) => {
      if (!stopped) timer = setTimeout(run, wait);
    });
  };
  run();
  logger.info({ component: 'notifications' }, 'notification sender started');
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await round;
      mailer.close();
    },
  };
}
