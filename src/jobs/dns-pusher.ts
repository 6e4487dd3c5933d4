// The worker's DNS pusher: carries the DNS outbox to the provider (core/dns/push.ts does one
// zone). Up to PUSHERS zones are pushed at once by this process, never one zone twice (the
// claim's locks keep every pusher, of this process or another, off a zone being pushed). Woken by the
// NOTIFY at each outbox insert; it also looks when the next retry falls due, and every POLL_MS
// while NOTIFYs cannot be heard. A provider that is down makes each zone's rows wait, doubling up
// to MAX_WAIT_S; a database error pauses the pusher with backoff. Any number of workers may run one.
import type { Logger } from 'pino';
import { type PushOutcome, pushNextZone } from '../core/dns/push.ts';
import type { Db } from '../core/types.ts';
import { poolOf } from '../db/connection.ts';
import { DNS_DUE_CHANNEL } from '../db/names.ts';
import { nextDnsDueS } from '../db/queries/dns.ts';
import { listenOn } from '../db/notify-listener.ts';
import type { DnsProvider } from '../providers/dns/types.ts';
import type { Metrics } from '../telemetry/metrics.ts';

const PUSHERS = 4;
const POLL_MS = 1_000;
const IDLE_MAX_MS = 30_000;
/** The longest a zone's rows wait between attempts while the provider fails. */
export const MAX_WAIT_S = 30;
const MAX_ERROR_WAIT_MS = 30_000;

export interface DnsPusherDeps {
  db: Db;
  dns: DnsProvider;
  logger: Logger;
  metrics?: Metrics;
}

export interface DnsPusher {
  stop(): Promise<void>;
}

export function startDnsPusher(deps: DnsPusherDeps): DnsPusher {
  const { db, dns, logger, metrics } = deps;
  let stopping = false;
  // Every slot may sleep at once: each sleeper is kept, a NOTIFY wakes one, stop() wakes them all.
  const sleepers = new Set<() => void>();
  let woken = false;
  const poke = () => {
    const first = sleepers.values().next();
    if (first.done) woken = true;
    else first.value();
  };
  const sleep = (ms: number) => new Promise<void>((resolve) => {
    if (woken || stopping) {
      woken = false;
      return resolve();
    }
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      sleepers.delete(done);
      resolve();
    }
    sleepers.add(done);
  });
  const pool = poolOf(db);
  const listener = pool && listenOn(pool, DNS_DUE_CHANNEL, { notify: poke, up: poke, down: () => {} }, 'hostcloud dns pusher');

  const report = (o: PushOutcome) => {
    metrics?.dnsPushes.inc({ result: o.result });
    if (o.result === 'pushed' && o.latencyS !== undefined) metrics?.dnsPushLatency.observe(o.latencyS);
    if (o.result === 'failed') logger.warn({ component: 'dns', zone: o.zone, changes: o.rows, error: o.error }, 'DNS push failed; will retry');
  };

  // One slot: pushes zones one after another while any is due, then waits for a wake-up.
  const slot = async () => {
    let errors = 0;
    while (!stopping) {
      let outcome: PushOutcome | null;
      try {
        outcome = await pushNextZone(db, dns, { maxWaitS: MAX_WAIT_S, });
        errors = 0;
      } catch (err) {
        errors += 1;
        const wait = Math.min(POLL_MS * 2 ** errors, MAX_ERROR_WAIT_MS);
        logger.error({ err, component: 'dns', retry_in_ms: wait }, 'claiming DNS changes failed; trying again');
        await sleep(wait);
        continue;
      }
      if (outcome) {
        report(outcome);
        // Another zone may be due: the other slots look too.
        poke();
        continue;
      }
      let untilDue: number | null = null;
      try {
        untilDue = await nextDnsDueS(db);
      } catch { /* looked at again at the next wake-up */ }
      const due = untilDue === null ? IDLE_MAX_MS : Math.max(5, Math.ceil(untilDue * 1000) + 5);
      await sleep(Math.min(due, listener?.listening ? IDLE_MAX_MS : POLL_MS));
    }
  };
  // The slots keep apart as any two pushers do: the claim's row locks and the zone's advisory lock.
  const slots = Array.from({ length: PUSHERS }, () => slot());

  logger.info({ component: 'dns', provider: dns.name, pushers: PUSHERS }, 'DNS pusher started');
  return {
    async stop() {
      stopping = true;
      for (const wakeUp of [...sleepers]) wakeUp();
      await Promise.all(slots);
      await listener?.close();
    },
  };
}
