// The worker's side of the registrar's contact outbox: every INTERVAL_MS it claims the accounts whose
// profile changed (registrar_contact_sync) and has the registrar bring their registrant contacts up
// to date (core/domains/contact-sync.ts). A claim holds a row LEASE_S, so a worker that dies with
// one leaves it to any worker after that; any number of workers may run this.
import type { Logger } from 'pino';
import { syncAccountContacts } from '../core/domains/contact-sync.ts';
import type { Db } from '../core/types.ts';
import { claimContactSyncs } from '../db/queries/registrar-contacts.ts';
import type { Registrar } from '../providers/registrar/types.ts';

const INTERVAL_MS = 1_000;
const BATCH = 10;
const LEASE_S = 120;

export interface ContactSyncLoop {
  stop(): Promise<void>;
}

export function startContactSync(db: Db, registrar: Registrar | undefined, logger: Logger, every = INTERVAL_MS): ContactSyncLoop | null {
  if (!registrar) return null;
  // A registrar without contacts (the simulated one) has only rows to clear: once a minute is enough.
  const intervalMs = registrar.contacts ? every : Math.max(every, 60_000);
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  /** Passes in a row the database failed: the next waits longer (doubling, up to 30 s). */
  let errors = 0;
  const pass = async () => {
    try {
      for (const row of await claimContactSyncs(db, BATCH, LEASE_S)) {
        if (stopped) break;
        const r = await syncAccountContacts(db, registrar, row);
        const at = { component: 'registrar', account_id: row.account_id, version: row.version };
        if (r.outcome === 'synced') {
          if (r.updated.length) logger.info({ ...at, contacts: r.updated }, 'registrant contacts updated at the registry after a profile change');
        } else if (r.outcome === 'waiting') logger.warn({ ...at, wait_s: r.waitS, err: r.error }, 'updating the registrant contacts failed; trying again later');
        else logger.error({ ...at, err: r.error }, 'the registry refused the account\'s profile as its registrant contact; it waits for the next profile change');
      }
      errors = 0;
    } catch (err) {
      if (errors++ === 0) logger.warn({ component: 'registrar', err }, 'the contact outbox could not be read; trying again');
    }
  };
  const tick = () => {
    running = pass().finally(() => {
      if (!stopped) timer = setTimeout(tick, errors ? Math.min(intervalMs * 2 ** errors, 30_000) : intervalMs);
    });
  };
  timer = setTimeout(tick, intervalMs);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
