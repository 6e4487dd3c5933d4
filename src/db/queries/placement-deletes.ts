// Deleting a node or a location, refused by the database's own foreign keys while any row (a live
// server, a deleted one not yet purged, a pool, a plan's availability…) still points at it.
import type { Db } from '../connection.ts';
import type { Location, Node } from '../schema.ts';

/** 23503: a row still references the one being deleted. */
const FOREIGN_KEY_VIOLATION = '23503';

/** The deleted row; `usedBy`: the referencing table instead when one holds it; nothing when absent. */
export type DeleteOutcome<T> = { row: T } | { usedBy: string } | undefined;

async function deleteUnlessReferenced<T>(run: () => Promise<T | undefined>): Promise<DeleteOutcome<T>> {
  try {
    const row = await run();
    return row === undefined ? undefined : { row };
  } catch (e) {
    const err = e as { code?: unknown; table?: unknown };
    if (err?.code === FOREIGN_KEY_VIOLATION) return { usedBy: typeof err.table === 'string' ? err.table : 'another table' };
    throw e;
  }
}

export function deleteNodeRow(db: Db, id: number): Promise<DeleteOutcome<Node>> {
  return deleteUnlessReferenced(() => db.deleteFrom('nodes').where('id', '=', id).returningAll().executeTakeFirst());
}

export function deleteLocationRow(db: Db, id: number): Promise<DeleteOutcome<Location>> {
  return deleteUnlessReferenced(() => db.deleteFrom('locations').where('id', '=', id).returningAll().executeTakeFirst());
}
