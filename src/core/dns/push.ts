// Pushing the outbox to the DNS provider, one zone at a time. A pusher claims one zone's due rows
// (SKIP LOCKED, and an advisory lock on the zone's name so no other pusher works on it: a zone's
// changes reach the provider in order), reads the zone as it stands and sends it:
//  - the zone is gone: the provider's zone is deleted;
//  - a `sync` or `delete` among the rows (a new zone, a resync, a name deleted and made again):
//    the whole zone is put (the provider's copy made exactly ours);
//  - else the changed rrsets, as they stand now, and the SOA (a provider that lost the zone
//    gets it whole instead).
// Success deletes the rows and, if no change came in meanwhile, sets the zone's synced_at; a
// failure keeps them, and the zone's other rows, with a doubling wait (up to maxWaitS). The transaction holds the claim only
// while the provider answers (each call has its timeout).
import {
  claimZonePush, finishPush, findZoneByName, listZoneRecords, listZonesForResync, markSynced, postponePush, queueDnsPush,
} from '../../db/queries/dns.ts';
import { type DnsProvider, DnsZoneMissing } from '../../providers/dns/types.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Db } from '../types.ts';
import { rrsetKey, zoneRrsets } from './render.ts';

export type PushResult = 'pushed' | 'failed';

export interface PushOutcome {
  zone: string;
  result: PushResult;
  rows: number;
  error?: string;
  /** Seconds from the oldest row's commit to the provider's answer (pushed only). */
  latencyS?: number;
}

/** Pushes one zone's due rows; null when nothing is due (or every due zone is another pusher's). */
export async function pushNextZone(db: Db, provider: DnsProvider, opts: { maxWaitS: number; skipZones?: readonly string[] }): Promise<PushOutcome | null> {
  return db.transaction().execute(async (trx) => {
    const claim = await claimZonePush(trx, opts.skipZones ?? []);
    if (!claim || claim.rows.length === 0) return null;
    const ids = claim.rows.map((r) => r.id);
    const zoneName = claim.zoneName;
    try {
      const zone = await findZoneByName(trx, zoneName);
      if (!zone) {
        await provider.deleteZone(zoneName);
      } else {
        const records = await listZoneRecords(trx, zone.id);
        // The SOA announces the newest change this push carries. The zone's serial, read now, may
        // count changes committed after the claim, whose rows wait for the next push: announced
        // early, a secondary would see that serial, transfer, and never learn of them. Changes
        // commit in serial order (each bumps the zone's row) and the claim takes every committed
        // row, so the newest claimed serial covers every change before it. Whole-zone and PTR rows carry none: the zone's, read
        // before its records, which then hold at least what it counts.
        const serials = claim.rows.map((r) => (r.serial === null ? null : Number(r.serial)));
        const serial = serials.every((n) => n !== null) && claim.rows.every((r) => r.action === 'rrset' && r.zone_id === zone.id)
          ? Math.max(...(serials as number[])) : zone.serial;
        const all = zoneRrsets(zone.name, records, serial);
        const whole = claim.rows.some((r) => r.action !== 'rrset' || r.zone_id !== zone.id);
        if (whole) {
          await provider.putZone(zone.name, [...all.values()]);
        } else {
          const keys = new Set(claim.rows.map((r) => rrsetKey(r.rr_name!, r.rr_type!)));
          keys.add(rrsetKey(zone.name, 'SOA'));
          const changed = [...keys].map((k) => all.get(k) ?? { name: k.slice(0, k.lastIndexOf(' ')), type: k.slice(k.lastIndexOf(' ') + 1), ttl: 3600, contents: [] });
          try {
            await provider.patchZone(zone.name, changed);
          } catch (e) {
            if (!(e instanceof DnsZoneMissing)) throw e;
            await provider.putZone(zone.name, [...all.values()]);
          }
        }
        await finishPush(trx, ids);
        await markSynced(trx, zone.id, serial);
      }
      if (!zone) await finishPush(trx, ids);
      const oldest = Math.min(...claim.rows.map((r) => r.created_at.getTime()));
      return { zone: zoneName, result: 'pushed' as const, rows: ids.length, latencyS: (Date.now() - oldest) / 1000 };
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      await postponePush(trx, zoneName, ids, error, opts.maxWaitS);
      return { zone: zoneName, result: 'failed' as const, rows: ids.length, error };
    }
  });
}

/** Queues a whole-zone push of every zone (or the one named); how many were queued. */
export async function queueResync(db: Db, zoneName?: string): Promise<number> {
  const zones = await listZonesForResync(db, zoneName);
  await inTransaction(db, (trx) => queueDnsPush(trx, zones.map((z) => ({ zone_id: z.id, zone_name: z.name, action: 'sync' as const }))));
  return zones.length;
}
