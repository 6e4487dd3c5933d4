// The account's SSH public keys: listed, added (validated and fingerprinted by parse.ts; the same
// key twice is 409), deleted — from the account only: servers already built keep them. A server
// create picks keys by id (resolveSshKeys) and hands their public keys to the compute provider.
import { deleteSshKeyRow, findAccountSshKeys, findSshKeyByFingerprint, insertSshKey, listSshKeysPage } from '../../db/queries/ssh-keys.ts';
import type { SshKey } from '../../db/schema.ts';
import type { Ctx } from '../context.ts';
import { ApiError, invalid } from '../errors.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';
import { parsePublicKey } from './parse.ts';

export const NAME_MAX = 100;

type Scope = Pick<Ctx, 'db' | 'accountId' | 'now'>;

export async function listSshKeys(s: Pick<Ctx, 'db' | 'accountId'>, page: PageRequest): Promise<Paged<SshKey>> {
  const { rows, total } = await listSshKeysPage(s.db, s.accountId, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}

export async function addSshKey(s: Scope, input: { name: string; public_key: string }): Promise<SshKey> {
  const name = input.name.trim();
  const errors = [];
  if (name === '') errors.push({ field: 'name', code: 'INVALID', message: 'must not be blank' });
  else if ([...name].length > NAME_MAX) errors.push({ field: 'name', code: 'INVALID', message: `must be at most ${NAME_MAX} characters` });
  const parsed = parsePublicKey(input.public_key);
  if (!parsed.ok) errors.push({ field: 'public_key', code: 'INVALID', message: parsed.problem });
  if (errors.length || !parsed.ok) throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', errors);
  const { key } = parsed;
  const row = await insertSshKey(s.db, {
    account_id: s.accountId, name, public_key: key.normalised, key_type: key.type, bits: key.bits, fingerprint: key.fingerprint, created_at: s.now,
  });
  if (row) return row;
  const existing = await findSshKeyByFingerprint(s.db, s.accountId, key.fingerprint);
  throw new ApiError('STATE_CONFLICT', `This key (${key.fingerprint}) is already in the account${existing ? ` as SSH key ${existing.id} "${existing.name}"` : ''}`);
}

export async function deleteSshKey(s: Pick<Ctx, 'db' | 'accountId'>, id: number): Promise<SshKey> {
  const row = await deleteSshKeyRow(s.db, s.accountId, id);
  if (!row) throw new ApiError('RESOURCE_NOT_FOUND', `SSH key ${id} not found`);
  return row;
}

/**
 * The public keys a server create asked for by id, in the order given. Ids of another account's
 * keys, or of none, are refused naming `ssh_key_ids` (a reference the customer got wrong).
 */
export async function resolveSshKeys(db: Db, accountId: string, ids: readonly number[]): Promise<string[]> {
  return sshKeysOf(ids, await findAccountSshKeys(db, accountId, [...new Set(ids)]));
}

/** The public keys of `ids` among the account's keys `found`, in the order asked; 422 naming those not found. */
export function sshKeysOf(ids: readonly number[], found: readonly { id: number; public_key: string }[]): string[] {
  const unique = [...new Set(ids)];
  const missing = unique.filter((id) => !found.some((k) => k.id === id));
  if (missing.length) {
    throw invalid('ssh_key_ids', `no SSH key ${missing.join(', ')} in this account (see GET /ssh-keys)`);
  }
  return unique.map((id) => found.find((k) => k.id === id)!.public_key);
}
