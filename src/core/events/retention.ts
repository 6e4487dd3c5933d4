// Events are kept EVENT_RETENTION_DAYS (default 30): the worker's hourly maintenance removes older
// ones, with the webhook deliveries that refer to them.
import { deleteEventsOlderThan } from '../../db/queries/events.ts';
import type { Db } from '../types.ts';

export const DEFAULT_EVENT_RETENTION_DAYS = 30;

/** Removes events past retention; how many. */
export function pruneEvents(db: Db, retentionDays: number = DEFAULT_EVENT_RETENTION_DAYS): Promise<number> {
  return deleteEventsOlderThan(db, retentionDays);
}
