import { ApiError, invalid, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import { type AccountFilter, findAccount, insertAccount, listAccountsPage, updateAccountRow } from '../../db/queries/accounts.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import { queueContactSync } from '../../db/queries/registrar-contacts.ts';
import { isUniqueViolation } from '../../db/refusals.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Account } from '../../db/schema.ts';
import type { Db } from '../types.ts';

export type AccountStatus = Account['status'];

/** The profile fields the registrant contact at the registry is made of. */
const CONTACT_FIELDS = ['email', 'name', 'company', 'phone', 'country'];

export interface AccountProfile {
  email: string;
  name: string;
  company?: string | null;
  phone?: string | null;
  /** ISO 3166-1 alpha-2, stored upper case. */
  country?: string | null;
}

function emailTaken(): ApiError {
  return new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', [
    { field: 'email', code: 'INVALID', message: 'an account with this email already exists' },
  ]);
}

/** Names are trimmed; one of only spaces would be stored empty, so it is refused. */
function nameOf(text: string): string {
  const name = text.trim();
  if (!name) throw invalid('name', 'must not be blank');
  return name;
}

export async function createAccount(db: Db, input: AccountProfile): Promise<Account> {
  const name = nameOf(input.name);
  try {
    return await insertAccount(db, {
      id: newId('acc'),
      email: input.email.trim(),
      name,
      company: input.company ?? null,
      phone: input.phone ?? null,
      country: input.country?.toUpperCase() ?? null,
      status: 'active',
      discount_type: null,
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw emailTaken();
    throw e;
  }
}

export async function getAccount(db: Db, id: string): Promise<Account> {
  const account = await findAccount(db, id);
  if (!account) throw notFound('Account');
  return account;
}

export async function updateAccount(
  db: Db,
  id: string,
  patch: Partial<AccountProfile> & { status?: AccountStatus },
): Promise<Account> {
  const set: Record<string, unknown> = {};
  if (patch.email !== undefined) set.email = patch.email.trim();
  if (patch.name !== undefined) set.name = nameOf(patch.name);
  if (patch.company !== undefined) set.company = patch.company;
  if (patch.phone !== undefined) set.phone = patch.phone;
  if (patch.country !== undefined) set.country = patch.country?.toUpperCase() ?? null;
  if (patch.status !== undefined) set.status = patch.status;
  if (Object.keys(set).length === 0) return getAccount(db, id);
  try {
    return await inTransaction(db, async (trx) => {
      const row = await updateAccountRow(trx, id, set);
      if (!row) throw notFound('Account');
      // The registrant contacts at the registry follow the profile: queued with the change, carried by the worker.
      if (CONTACT_FIELDS.some((k) => k in set)) await queueContactSync(trx, id);
      return row;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw emailTaken();
    throw e;
  }
}

/** The operator's account search: part of the email (or of the email or name, or the id's beginning: `q`), a status, newest first. */
export async function listAccounts(db: Db, filter: AccountFilter, page: PageRequest): Promise<Paged<Account>> {
  const { rows, total } = await listAccountsPage(db, { email: filter.email?.trim() || undefined, q: filter.q?.trim() || undefined, status: filter.status }, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}
