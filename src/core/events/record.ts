// Writing an event where the core makes the change it reports (catalogue.ts says which events come
// this way). Always inside the caller's transaction, after the change, so the event's data is the
// resource as changed and the two commit together or not at all; a sandbox request's transaction
// is rolled back, so it leaves none.
import { insertEvent } from '../../db/queries/events.ts';
import { afterCommit } from '../events.ts';
import type { Db } from '../types.ts';
import { EVENT_CATALOGUE, type EventType } from './catalogue.ts';

/** Records `type` about (`data`: the resource's facts, where the database does not read them itself) the resource `resourceId` (of the type's resource type) of `accountId`; the event's id. */
export async function recordEvent(trx: Db, type: EventType, accountId: string, resourceId: string, data?: Record<string, unknown>): Promise<string> {
  const id = await insertEvent(trx, { accountId, type, resourceType: EVENT_CATALOGUE[type].resource, resourceId, data });
  afterCommit(trx, { kind: 'event', type });
  return id;
}
