import { ApiError, invalid, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import { findAccount } from '../../db/queries/accounts.ts';
import { findApiKey, insertApiKey, listAccountKeysPage, listSubUserKeysPage, revokeAccountKeyRow, revokeApiKeyRow } from '../../db/queries/api-keys.ts';
import { lockAccountSubUser } from '../../db/queries/sub-users.ts';
import type { ApiKey } from '../../db/schema.ts';
import { inTransaction, setCompanionTarget } from '../../db/transaction.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';
import { checkKeyInput } from './rules.ts';
import { generateSecret } from './secret.ts';

export interface CreateKeyInput {
  name: string;
  ipAllowlist: string[];
  isTest?: boolean;
  /** Omitted → every scope. */
  scopes?: string[];
  /**
   * A key of this sub-user of the account: it acts with its scopes narrowed to the sub-user's
   * permissions, and not at all while the sub-user is not active (sub-users/access.ts).
   */
  subUserId?: number;
}

export async function createApiKey(db: Db, accountId: string, input: CreateKeyInput): Promise<{ key: ApiKey; secret: string }> {
  const { entries, scopes, errors } = checkKeyInput(input);
  if (errors.length) throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', errors);
  return inTransaction(db, async (trx) => {
    if (!(await findAccount(trx, accountId))) throw notFound('Account');
    // Shared lock: a delete of the sub-user (which revokes its keys) waits for this key, or this sees it deleted.
    if (input.subUserId !== undefined && !(await lockAccountSubUser(trx, accountId, input.subUserId, 'share'))) {
      throw invalid('sub_user_id', `the account has no sub-user ${input.subUserId}`);
    }
    const { secret, prefix, hash } = generateSecret(input.isTest ?? false);
    const key = await insertApiKey(trx, {
      id: newId('key'),
      account_id: accountId,
      name: input.name,
      prefix,
      key_hash: hash,
      is_test: input.isTest ?? false,
      scopes,
      ip_allowlist: entries,
      sub_user_id: input.subUserId ?? null,
    });
    setCompanionTarget('api_key', key.id);
    return { key, secret };
  });
}

export async function revokeApiKey(db: Db, id: string): Promise<ApiKey> {
  return inTransaction(db, async (trx) => {
    const key = await revokeApiKeyRow(trx, id);
    if (!key) throw notFound('API key');
    return key;
  });
}

export async function getApiKey(db: Db, id: string): Promise<ApiKey> {
  const key = await findApiKey(db, id);
  if (!key) throw notFound('API key');
  return key;
}

/** The IP allowlist of one key (the calling key, for GET /account/ip-allowlist), paged. */
export async function listKeyAllowlist(db: Db, keyId: string, page: PageRequest): Promise<Paged<string>> {
  const key = await getApiKey(db, keyId);
  const start = offsetOf(page);
  return { items: key.ip_allowlist.slice(start, start + page.perPage), total: key.ip_allowlist.length, ...page };
}

export async function listApiKeys(db: Db, accountId: string, page: PageRequest): Promise<Paged<ApiKey>> {
  const { rows, total } = await listAccountKeysPage(db, accountId, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}

/**
 * The keys a panel user manages: every key of the account for its owner (subUserId null), only its
 * own for a sub-user.
 */
export async function listManagedApiKeys(db: Db, accountId: string, subUserId: number | null, page: PageRequest): Promise<Paged<ApiKey>> {
  const { rows, total } = subUserId === null
    ? await listAccountKeysPage(db, accountId, page.perPage, offsetOf(page))
    : await listSubUserKeysPage(db, accountId, subUserId, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}

/** Revokes a key of the account (of the sub-user, for a sub-user); any other id is not found. */
export async function revokeManagedApiKey(db: Db, accountId: string, subUserId: number | null, id: string, now: Date): Promise<ApiKey> {
  const key = await revokeAccountKeyRow(db, accountId, subUserId, id, now);
  if (!key) throw notFound('API key');
  return key;
}
