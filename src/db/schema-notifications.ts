// Row types of the notifications outbox (mails to customers).
import type { ColumnType, Selectable } from 'kysely';
import type { CreatedAt } from './schema-columns.ts';

export type NotificationStatus = 'queued' | 'sent' | 'failed';

export interface NotificationsTable {
  id: ColumnType<number, never, never>;
  /** null: a notice to a staff member, which belongs to no account. */
  account_id: string | null;
  /** What the notice is about, dotted: hosting.cancelled, ticket.answered, service.suspended… */
  kind: string;
  to_email: string;
  subject: string;
  /** Plain text. */
  body: string;
  status: ColumnType<NotificationStatus, NotificationStatus | undefined, NotificationStatus>;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
  next_attempt_at: ColumnType<Date, Date | undefined, Date>;
  created_at: CreatedAt;
  sent_at: Date | null;
}

export type Notification = Selectable<NotificationsTable>;
