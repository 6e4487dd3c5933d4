// What a signed-in person changes about themselves (password) and their account (profile).
import { findPanelUser, updatePanelUser } from '../../db/queries/panel-users.ts';
import { revokeUserSessions } from '../../db/queries/panel-sessions.ts';
import type { Account } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { profileProblems } from '../accounts/rules.ts';
import { type AccountProfile, updateAccount } from '../accounts/service.ts';
import { ApiError, invalid } from '../errors.ts';
import { hashPassword, verifyPassword } from '../sub-users/password.ts';
import type { Db } from '../types.ts';
import { passwordErrors } from './rules.ts';
import type { PanelIdentity } from './sessions.ts';

/** A new password, given the current one; every other session of the person ends. */
export async function changePassword(db: Db, identity: Pick<PanelIdentity, 'userId' | 'sessionId'>, current: string, next: string, now: Date): Promise<void> {
  const user = await findPanelUser(db, identity.userId);
  if (!user?.password_hash) throw new ApiError('AUTH_INVALID', 'The session has ended; sign in again');
  if (!(await verifyPassword(current, user.password_hash))) throw invalid('current_password', 'is not your current password');
  const errors = passwordErrors(next, user.email, 'new_password');
  if (errors.length) throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', errors);
  const hash = await hashPassword(next);
  await inTransaction(db, async (trx) => {
    await updatePanelUser(trx, user.id, { password_hash: hash }, now);
    await revokeUserSessions(trx, user.id, now, identity.sessionId);
  });
}

/**
 * The account's profile, as the operator edits it (the same core function and rules); the
 * account's status is the operator's alone. The email here is the account's contact address, not
 * the email anyone signs in with.
 */
export async function updateProfile(db: Db, accountId: string, patch: Partial<AccountProfile>): Promise<Account> {
  const errors = profileProblems(patch, false);
  if (errors.length) throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', errors);
  return updateAccount(db, accountId, patch);
}
