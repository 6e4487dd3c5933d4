// Sub-users: invited by the operator (or v1) as `pending`; the account reads them, edits their
// profile and status, sets their permissions (scope names) and deletes them — which revokes their
// API keys in the same transaction. What a sub-user's key may do is decided at authentication
// (access.ts); here a sub-user acting through its key is kept from handing out more than it holds.
import { findAccount } from '../../db/queries/accounts.ts';
import { revokeSubUserKeys } from '../../db/queries/api-keys.ts';
import { deletePanelUserOfSubUser } from '../../db/queries/panel-users.ts';
import {
  type SubUserPatch, findAccountSubUser, insertSubUser, listSubUsersPage, lockAccountSubUser, markSubUserDeleted, updateSubUserRow,
} from '../../db/queries/sub-users.ts';
import type { SubUser, SubUserStatus } from '../../db/schema.ts';
import { inTransaction, setCompanionTarget } from '../../db/transaction.ts';
import { ApiError, type FieldError, notFound } from '../errors.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import { checkPassword } from '../servers/rules.ts';
import type { Db, Scope } from '../types.ts';
import { hashPassword } from './password.ts';
import { type InviteInput, type ProfilePatch, checkPermissions, inviteProblems, patchProblems } from './rules.ts';

/** Whose account, on which handle (a rolled-back transaction in the sandbox), and when. */
export interface AccountScope {
  db: Db;
  accountId: string;
  now: Date;
}

/** Who makes a change: the account itself (subUserId null), or a sub-user through its key, with the scopes that key holds. */
export interface Actor {
  subUserId: number | null;
  scopes: Scope[] | null;
}

export const ACCOUNT_ACTOR: Actor = { subUserId: null, scopes: null };

function failed(errors: FieldError[]): never {
  throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', errors);
}

const subUserNotFound = (id: number) => new ApiError('RESOURCE_NOT_FOUND', `Sub-user ${id} not found`);

/**
 * A new `pending` sub-user, as the panel's invitation (the admin API) or v1 makes it. A password
 * (v1) must pass the password rule and is stored only as a hash.
 */
export async function createSubUser(db: Db, accountId: string, input: InviteInput): Promise<SubUser> {
  const errors = inviteProblems(input);
  if (errors.length) failed(errors);
  if (input.password !== undefined) checkPassword(input.password);
  if (!(await findAccount(db, accountId))) throw notFound('Account');
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  const row = await inTransaction(db, async (trx) => {
    const made = await insertSubUser(trx, {
      account_id: accountId,
      email: input.email.trim(),
      first_name: input.first_name.trim(),
      last_name: input.last_name.trim(),
      password_hash: passwordHash,
    });
    if (!made) failed([{ field: 'email', code: 'INVALID', message: 'a sub-user of this account already has this email' }]);
    setCompanionTarget('sub_user', made.id);
    return made;
  });
  return row;
}

export async function listSubUsers(s: Pick<AccountScope, 'db' | 'accountId'>, status: SubUserStatus | undefined, page: PageRequest): Promise<Paged<SubUser>> {
  const { rows, total } = await listSubUsersPage(s.db, s.accountId, status, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}

/** The account's live sub-user; another account's id, or a deleted one, is not found. */
export async function getSubUser(s: Pick<AccountScope, 'db' | 'accountId'>, id: number): Promise<SubUser> {
  const row = await findAccountSubUser(s.db, s.accountId, id);
  if (!row) throw subUserNotFound(id);
  return row;
}

/** A sub-user's key may not give any sub-user (itself included) a permission the key does not hold. */
export function refuseEscalation(actor: Actor, permissions: readonly string[], what: string): void {
  if (actor.subUserId === null || actor.scopes === null) return;
  const held = new Set<string>(actor.scopes);
  const beyond = permissions.filter((p) => !held.has(p));
  if (beyond.length) {
    throw new ApiError('AUTH_SCOPE_INSUFFICIENT', `A sub-user's API key cannot ${what} holding permissions the key itself lacks: ${beyond.join(', ')}`);
  }
}

export async function updateSubUser(s: AccountScope, id: number, patch: ProfilePatch, actor: Actor = ACCOUNT_ACTOR): Promise<SubUser> {
  const errors = patchProblems(patch);
  if (errors.length) failed(errors);
  return inTransaction(s.db, async (trx) => {
    const current = await lockAccountSubUser(trx, s.accountId, id);
    if (!current) throw subUserNotFound(id);
    // Activating (a pending invitation too: the account vouches for it) hands the sub-user's permissions out again.
    if (patch.status === 'active' && current.status !== 'active') refuseEscalation(actor, current.permissions, 'activate a sub-user');
    const change: SubUserPatch = {};
    if (patch.first_name !== undefined) change.first_name = patch.first_name.trim();
    if (patch.last_name !== undefined) change.last_name = patch.last_name.trim();
    if (patch.phone !== undefined) change.phone = patch.phone.trim();
    if (patch.phone_country_code !== undefined) change.phone_country_code = patch.phone_country_code;
    if (patch.status !== undefined) change.status = patch.status as SubUserStatus;
    return (await updateSubUserRow(trx, id, change, s.now))!;
  });
}

/** Replaces the whole permission set (an empty list removes every permission). */
export async function replacePermissions(s: AccountScope, id: number, list: readonly string[], actor: Actor = ACCOUNT_ACTOR): Promise<SubUser> {
  const { permissions, errors } = checkPermissions(list);
  if (errors.length) failed(errors);
  return inTransaction(s.db, async (trx) => {
    if (!(await lockAccountSubUser(trx, s.accountId, id))) throw subUserNotFound(id);
    refuseEscalation(actor, permissions, 'give a sub-user permissions');
    return (await updateSubUserRow(trx, id, { permissions }, s.now))!;
  });
}

export interface DeletedSubUser {
  subUser: SubUser;
  revokedKeys: number;
}

/**
 * The sub-user leaves every list, loses its permissions, each of its API keys is revoked and its
 * panel login goes (with its sessions and links) — together.
 */
export async function deleteSubUser(s: AccountScope, id: number): Promise<DeletedSubUser> {
  return inTransaction(s.db, async (trx) => {
    if (!(await lockAccountSubUser(trx, s.accountId, id))) throw subUserNotFound(id);
    const subUser = (await markSubUserDeleted(trx, id, s.now))!;
    const revokedKeys = await revokeSubUserKeys(trx, s.accountId, id, s.now);
    await deletePanelUserOfSubUser(trx, s.accountId, id);
    return { subUser, revokedKeys };
  });
}
