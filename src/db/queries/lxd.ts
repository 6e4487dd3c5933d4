// What the LXD compute driver reads of ours: how to reach a node, and an OS version's image.
import type { Db } from '../connection.ts';

export interface LxdNodeAccess {
  name: string;
  endpoint: string | null;
  fingerprint: string | null;
}

export function findLxdNode(db: Db, name: string): Promise<LxdNodeAccess | undefined> {
  return db.selectFrom('nodes').select(['name', 'endpoint', 'fingerprint']).where('name', '=', name).executeTakeFirst();
}

/** The image of the OS version with this slug; null when none is set (or no such OS). */
export async function findOsImage(db: Db, slug: string): Promise<string | null> {
  const row = await db.selectFrom('operating_systems').select('image').where('slug', '=', slug).executeTakeFirst();
  return row?.image ?? null;
}
