// A registration's one read (core/domains/register-request.ts): everything its rules need before
// the registrar is asked, then writeBillableCreate (billable-create.ts) writes it.
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres';
import type { Db } from '../connection.ts';
import type { TldPrice } from '../schema.ts';
import { keyTaken } from './server-create.ts';

export interface RegistrationBasis {
  /** Whether a live idempotency record holds the key (it replays, or conflicts). */
  key_taken: boolean;
  /** The price-list rows of `tlds`. */
  prices: TldPrice[];
  /** The live domain holding the name, whoever's; null when none. */
  held: { account_id: string } | null;
  /** null when the account does not exist. */
  balance_cents: number | null;
}

export function readRegistrationBasis(db: Db, ids: { accountId: string; key: string | null; tlds: string[]; name: string }): Promise<RegistrationBasis> {
  // Every column read here is JSON-safe (no dates), so the rows come back as typed.
  return db.selectNoFrom((eb) => [
    keyTaken(eb, ids.accountId, ids.key),
    jsonArrayFrom(eb.selectFrom('tld_prices').selectAll().where('tld', 'in', ids.tlds.length ? ids.tlds : [''])).as('prices'),
    jsonObjectFrom(eb.selectFrom('domains').select('account_id').where('name', '=', ids.name).where('status', '<>', 'cancelled').limit(1)).as('held'),
    eb.selectFrom('accounts').select('balance_cents').where('id', '=', ids.accountId).as('balance_cents'),
  ]).executeTakeFirstOrThrow();
}
