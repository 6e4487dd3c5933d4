// Reading events: the caller's own, newest first, filtered by type and resource; kept
// EVENT_RETENTION_DAYS (the worker removes older ones, retention.ts).
import { type EventFilter, findAccountEvent, listEventsPage } from '../../db/queries/events.ts';
import type { EventRow } from '../../db/schema.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';

export async function listEvents(ctx: Pick<Ctx, 'db' | 'accountId'>, filter: EventFilter, page: PageRequest): Promise<Paged<EventRow>> {
  const { rows, total } = await listEventsPage(ctx.db, ctx.accountId, filter, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}

/** The caller's event; another account's id is simply not found. */
export async function getEvent(ctx: Pick<Ctx, 'db' | 'accountId'>, id: string): Promise<EventRow> {
  const event = await findAccountEvent(ctx.db, ctx.accountId, id);
  if (!event) throw notFound('Event');
  return event;
}
