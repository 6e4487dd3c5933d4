// The registrant contacts at the registry follow the account's profile: a profile change queues the
// account (registrar_contact_sync, in the change's transaction) and the worker carries it here — the
// registrar updates the contacts it holds (EPP <contact:update>), each keeping its disclose flags
// (WHOIS privacy). A registry that fails is tried again later, the wait doubling up to
// MAX_WAIT_S; one that refuses the data (a phone or email it does not take) parks the row with its
// error for the operator until the profile changes again.
import { findAccount } from '../../db/queries/accounts.ts';
import { failContactSync, finishContactSync } from '../../db/queries/registrar-contacts.ts';
import type { RegistrarContactSync } from '../../db/schema.ts';
import { ProviderError } from '../../providers/errors.ts';
import type { DomainOwner, Registrar } from '../../providers/registrar/types.ts';
import type { Db } from '../types.ts';

/** The first wait after a failure; it doubles with each failure after it. */
export const FIRST_WAIT_S = 2;
export const MAX_WAIT_S = 3600;

export type ContactSyncOutcome =
  | { outcome: 'synced'; updated: string[] }
  | { outcome: 'waiting'; error: string; waitS: number }
  | { outcome: 'refused'; error: string };

export async function syncAccountContacts(db: Db, registrar: Registrar, row: Pick<RegistrarContactSync, 'account_id' | 'version' | 'attempts'>): Promise<ContactSyncOutcome> {
  const account = await findAccount(db, row.account_id);
  if (!account || !registrar.contacts) {
    // Nothing to carry: the account is gone, or this registrar keeps no contacts of ours.
    await finishContactSync(db, row.account_id, row.version);
    return { outcome: 'synced', updated: [] };
  }
  const owner: DomainOwner = { id: account.id, name: account.name, email: account.email, company: account.company, phone: account.phone, country: account.country };
  try {
    // The token names the change: the registry's log shows which profile version each update carried.
    const { updated } = await registrar.contacts.update(owner, `profile:${row.account_id}:${row.version}`);
    await finishContactSync(db, row.account_id, row.version);
    return { outcome: 'synced', updated };
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    if (!e.retryable) {
      await failContactSync(db, row.account_id, row.version, e.message, null);
      return { outcome: 'refused', error: e.message };
    }
    const waitS = Math.min(FIRST_WAIT_S * 2 ** Math.max(0, row.attempts - 1), MAX_WAIT_S);
    await failContactSync(db, row.account_id, row.version, e.message, waitS);
    return { outcome: 'waiting', error: e.message, waitS };
  }
}
