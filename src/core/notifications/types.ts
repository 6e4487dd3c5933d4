// What the notifications outbox shares with its adapters: the mailer it sends through (the worker
// plugs in SMTP; tests plug in their own) and the limits of a notice.
import type { NotificationStatus } from '../../db/schema.ts';

export const NOTIFICATION_STATUSES = ['queued', 'sent', 'failed'] as const satisfies readonly NotificationStatus[];

/** Dotted lower-case words: hosting.cancelled, ticket.answered, service.suspended, domain.expiring… */
export const KIND_PATTERN = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;
export const KIND_MAX = 64;
export const SUBJECT_MAX = 200;
export const BODY_MAX = 100_000;

export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text. */
  text: string;
  /** The From's display name (the branding's name); the mailer's own From when absent. */
  fromName?: string;
}

/** Hands one message to the mail system; rejects when it was not accepted. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
