// Sending the outbox: one round claims a few due notices, hands each to the mailer and records the
// outcome. A failure is retried with exponential backoff until the attempts run out, then the
// notice is `failed` with its last error; a mail-system error never escapes a round.
import { claimDueNotifications, markNotificationFailure, markNotificationSent } from '../../db/queries/notifications.ts';
import type { Notification } from '../../db/schema.ts';
import { type Branding, mailSignature, savedBranding } from '../branding/branding.ts';
import type { Db } from '../types.ts';
import type { MailMessage, Mailer } from './types.ts';

export interface DeliverySettings {
  /** Notices one round claims and sends at once. */
  batchSize: number;
  /** Attempts before a notice is `failed` for good. */
  maxAttempts: number;
  /** Wait after the first failure; doubled after each further one, capped at 6 hours. */
  retryDelayS: number;
  /**
   * How long a claim is this sender's alone. Must outlast one send with all the mailer's timeouts,
   * or a slow send could be claimed again by another sender and go out twice.
   */
  leaseS: number;
}

export interface RoundResult {
  claimed: number;
  sent: number;
  /** Failed attempts that will be tried again. */
  retrying: number;
  /** Notices that ran out of attempts this round. */
  failed: number;
}

const MAX_BACKOFF_S = 6 * 3600;

/** The wait after a notice's `attempt`-th failure, or null when it may not be tried again. */
export function retryAfterS(attempt: number, s: Pick<DeliverySettings, 'maxAttempts' | 'retryDelayS'>): number | null {
  if (attempt >= s.maxAttempts) return null;
  return Math.min(s.retryDelayS * 2 ** (attempt - 1), MAX_BACKOFF_S);
}

const describe = (e: unknown) => (e instanceof Error ? e.message : String(e)).slice(0, 1000) || 'unknown error';

/**
 * The mail of a notice as it goes out: with a saved branding, From carries its name and the text
 * ends with its signature (added at sending, so that a notice queued before a change is signed as
 * the mail goes out); without one, as queued.
 */
export function mailOf(n: Pick<Notification, 'to_email' | 'subject' | 'body'>, branding: Branding | null): MailMessage {
  if (!branding) return { to: n.to_email, subject: n.subject, text: n.body };
  return { to: n.to_email, subject: n.subject, text: `${n.body.replace(/\n+$/, '')}\n\n${mailSignature(branding)}\n`, fromName: branding.name };
}

async function deliverOne(db: Db, mailer: Mailer, n: Notification, s: DeliverySettings, branding: Branding | null): Promise<'sent' | 'retrying' | 'failed'> {
  try {
    await mailer.send(mailOf(n, branding));
  } catch (e) {
    const after = retryAfterS(n.attempts, s);
    await markNotificationFailure(db, n.id, n.attempts, describe(e), after);
    return after === null ? 'failed' : 'retrying';
  }
  await markNotificationSent(db, n.id, n.attempts);
  return 'sent';
}

/** One round. Rejects only when the database does (the caller logs it and tries again later). */
export async function deliverDueNotifications(db: Db, mailer: Mailer, s: DeliverySettings): Promise<RoundResult> {
  const claimed = await claimDueNotifications(db, s.batchSize, s.leaseS);
  // Read once a round, and only when there is something to send.
  const branding = claimed.length > 0 ? await savedBranding(db) : null;
  const outcomes = await Promise.all(claimed.map((n) => deliverOne(db, mailer, n, s, branding)));
  return {
    claimed: claimed.length,
    sent: outcomes.filter((o) => o === 'sent').length,
    retrying: outcomes.filter((o) => o === 'retrying').length,
    failed: outcomes.filter((o) => o === 'failed').length,
  };
}
