// Console sessions: the single-use tickets behind a server's or VDC VM's console link (`used_at`:
// the link was opened) and the one terminal attach each allows (`attached_at`). Every driver's
// console goes through them: the simulated shell and the LXD console alike. A session names the
// machine record (sim_vms) it opens, and is refused once that machine is destroyed.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';

/** Opens a session that expires `ttlSeconds` from now by the database clock. */
export async function insertConsoleSession(db: Db, token: string, vmId: string, ttlSeconds: number): Promise<Date> {
  const row = await db.insertInto('console_sessions')
    .values({ token, vm_id: vmId, expires_at: sql<Date>`now() + make_interval(secs => ${ttlSeconds})` })
    .returning('expires_at').executeTakeFirstOrThrow();
  return row.expires_at;
}

/** Spends a ticket: true once, within its lifetime, while its machine exists. One UPDATE, so two redeemers cannot both win. */
export async function redeemConsoleSession(db: Db, token: string): Promise<boolean> {
  const r = await db.updateTable('console_sessions').set({ used_at: sql<Date>`now()` })
    .where('token', '=', token).where('used_at', 'is', null).where(sql<boolean>`expires_at > now()`)
    .where('vm_id', 'in', (eb) => eb.selectFrom('sim_vms').select('id').where('destroyed_at', 'is', null))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * The machine of a spent ticket, for its terminal to attach to: once, within a minute of the link
 * being opened, while the machine exists. null otherwise.
 */
export async function claimConsoleAttach(db: Db, token: string): Promise<{ vm_id: string; hostname: string; node: string | null; node_endpoint: string | null } | null> {
  const r = await sql<{ vm_id: string; hostname: string; node: string | null; node_endpoint: string | null }>`
    UPDATE console_sessions s SET attached_at = now()
    FROM sim_vms v LEFT JOIN nodes n ON n.name = v.node
    WHERE s.token = ${token} AND s.used_at IS NOT NULL AND s.attached_at IS NULL AND s.used_at > now() - interval '60 seconds'
      AND v.id = s.vm_id AND v.destroyed_at IS NULL
    RETURNING s.vm_id, v.hostname, v.node, n.endpoint AS node_endpoint`.execute(db);
  return r.rows[0] ?? null;
}
