// Extra addresses of servers (server_ips). Adding one spans two transactions around the
// provider call: the row is written first without an address (paid for, price raised), then
// either gets its address or is released.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';
import type { Server, ServerIp } from '../schema.ts';

/** The server row locked, deleted or not (the second transaction must see a delete that raced it). */
export function lockServerRow(db: Db, id: string): Promise<Server | undefined> {
  return db.selectFrom('servers').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function insertPendingIp(db: Db, row: { server_id: string; version: 4 | 6; price_cents: number }): Promise<ServerIp> {
  return db.insertInto('server_ips').values({ ...row, address: null }).returningAll().executeTakeFirstOrThrow();
}

export function findServerIp(db: Db, id: number): Promise<ServerIp | undefined> {
  return db.selectFrom('server_ips').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function setIpAddress(db: Db, id: number, address: string): Promise<void> {
  await db.updateTable('server_ips').set({ address }).where('id', '=', id).execute();
}

export async function markIpReleased(db: Db, id: number, at: Date): Promise<void> {
  await db.updateTable('server_ips').set({ released_at: at }).where('id', '=', id).where('released_at', 'is', null).execute();
}

/** Addresses of one family the server holds or is being given (rows without an address count). */
export async function countHeldIps(db: Db, serverId: string, version: 4 | 6): Promise<number> {
  const r = await db.selectFrom('server_ips').select(sql<number>`count(*)::int`.as('n'))
    .where('server_id', '=', serverId).where('version', '=', version).where('released_at', 'is', null)
    .executeTakeFirstOrThrow();
  return r.n;
}

/**
 * Moves the monthly price by `deltaCents` (and the reseller discount the server holds by
 * `discountDeltaCents`), relative to whatever they are now: an upgrade committed between our two
 * transactions keeps its own change.
 */
export async function addToServerPrice(db: Db, serverId: string, deltaCents: number, discountDeltaCents = 0): Promise<void> {
  await db.updateTable('servers')
    .set({
      price_cents: sql<number>`greatest(0, price_cents + ${deltaCents})`,
      discount_cents: sql<number>`greatest(0, discount_cents + ${discountDeltaCents})`,
      updated_at: new Date(),
    })
    .where('id', '=', serverId).execute();
}
