// How much disk a simulated hosting account uses: a few MB of skeleton files when it is new, then
// growth that slows as the site matures, levelling off at a share of the quota fixed per account
// (10–60 %). Computed from the account's age, so it grows with time, never shrinks, and is the
// same in every process that asks.
import { createHash } from 'node:crypto';

const DAY_MS = 86_400_000;
/** Days in which an account reaches about 63 % of where it levels off. */
const GROWTH_DAYS = 90;

/** Two numbers in [0, 1) fixed per account id. */
function traitsOf(id: string): [number, number] {
  const h = createHash('sha256').update(id).digest();
  return [h.readUInt32BE(0) / 2 ** 32, h.readUInt32BE(4) / 2 ** 32];
}

export function diskUsedMb(account: { id: string; quota_mb: number; created_at: Date }, now: Date): number {
  const [skeleton, share] = traitsOf(account.id);
  const days = Math.max(0, (now.getTime() - account.created_at.getTime()) / DAY_MS);
  const fresh = 2 + skeleton * 8;
  const levelsOff = account.quota_mb * (0.1 + 0.5 * share);
  return Math.min(account.quota_mb, Math.round(fresh + levelsOff * (1 - Math.exp(-days / GROWTH_DAYS))));
}
