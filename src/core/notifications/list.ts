// The operator's view of the outbox: every notice, newest first, filtered by account, status, kind.
import { listNotificationsPage } from '../../db/queries/notifications.ts';
import type { Notification, NotificationStatus } from '../../db/schema.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';

export interface NotificationQuery {
  accountId?: string;
  status?: NotificationStatus;
  kind?: string;
  q?: string;
}

export async function listNotifications(db: Db, q: NotificationQuery, page: PageRequest): Promise<Paged<Notification>> {
  const { rows, total } = await listNotificationsPage(db, q, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}
