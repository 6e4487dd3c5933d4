// The panel's sign-in counters (table panel_sign_in_limits: key, points, expire in epoch ms). An
// attempt is taken — counted, or refused when the key's window is spent — in one statement, so
// parallel attempts cannot all read a count under the limit and all be checked.
import { sql } from 'kysely';
import type { Db } from '../connection.ts';

export interface TakenAttempt {
  /** false: the window's attempts are spent; nothing was counted. */
  taken: boolean;
  /** When the key's window ends (epoch ms), or null when unknown. */
  expireMs: number | null;
}

/** Counts one attempt against `key` unless `limit` are already counted in its live window. */
export async function takeAttempt(db: Db, key: string, limit: number, windowMs: number, nowMs: number): Promise<TakenAttempt> {
  // The outer read sees the row as it was before this statement: the window a refusal waits for.
  const r = await sql<{ points: number | null; expire: string | null }>`
    WITH taken AS (
      INSERT INTO panel_sign_in_limits AS l (key, points, expire) VALUES (${key}, 1, ${nowMs + windowMs})
      ON CONFLICT (key) DO UPDATE SET
        points = CASE WHEN l.expire IS NULL OR l.expire <= ${nowMs} THEN 1 ELSE l.points + 1 END,
        expire = CASE WHEN l.expire IS NULL OR l.expire <= ${nowMs} THEN EXCLUDED.expire ELSE l.expire END
      WHERE l.expire IS NULL OR l.expire <= ${nowMs} OR l.points < ${limit}
      RETURNING points, expire
    )
    SELECT (SELECT points FROM taken) AS points,
      coalesce((SELECT expire FROM taken), (SELECT expire FROM panel_sign_in_limits WHERE key = ${key})) AS expire
  `.execute(db);
  const row = r.rows[0];
  return { taken: row?.points != null, expireMs: row?.expire == null ? null : Number(row.expire) };
}

/** Uncounts an attempt that turned out not to be a failure (the window stays as it is). */
export async function giveBackAttempt(db: Db, key: string, nowMs: number): Promise<void> {
  await sql`UPDATE panel_sign_in_limits SET points = greatest(points - 1, 0) WHERE key = ${key} AND expire > ${nowMs}`.execute(db);
}

/** The window end of a key whose attempts are spent, or null while it may still try. */
export async function spentUntil(db: Db, key: string, limit: number, nowMs: number): Promise<number | null> {
  const r = await sql<{ expire: string }>`
    SELECT expire FROM panel_sign_in_limits WHERE key = ${key} AND expire > ${nowMs} AND points >= ${limit}
  `.execute(db);
  return r.rows[0] ? Number(r.rows[0].expire) : null;
}

/** Counters whose window ended before `nowMs`. */
export async function deleteEndedLimits(db: Db, nowMs: number): Promise<number> {
  const r = await sql`DELETE FROM panel_sign_in_limits WHERE expire IS NULL OR expire < ${nowMs}`.execute(db);
  return Number(r.numAffectedRows ?? 0);
}
