// The panel's rows that no longer do anything: sessions and links that ended long enough ago that
// nobody needs them to explain an answer, and sign-in counters whose window ended. Run by the
// worker's hourly maintenance.
import { deleteEndedSessions } from '../../db/queries/panel-sessions.ts';
import { deleteEndedLinks } from '../../db/queries/panel-users.ts';
import type { Db } from '../types.ts';
import { sweepSignInLimits } from './throttle.ts';

/** Ended sessions and links are kept this long (a session list shows live ones only). */
export const KEEP_ENDED_DAYS = 30;

export async function sweepPanel(db: Db, now: Date): Promise<{ sessions: number; links: number; limits: number }> {
  const before = new Date(now.getTime() - KEEP_ENDED_DAYS * 86_400_000);
  return { sessions: await deleteEndedSessions(db, before), links: await deleteEndedLinks(db, before), limits: await sweepSignInLimits(db, now) };
}
