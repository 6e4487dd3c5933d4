// Who may sign in: the operator invites an account's owner; an account invites its sub-users
// (email and permissions). Each invitation is a single-use link to set a password, returned to
// whoever invited and queued as a notice to the invited person.
import { findAccount } from '../../db/queries/accounts.ts';
import { findOwnerUser, findSubUserPanelUsers, insertPanelUser } from '../../db/queries/panel-users.ts';
import type { PanelUser, SubUser } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { ApiError, type FieldError, notFound } from '../errors.ts';
import { checkPermissions, inviteProblems } from '../sub-users/rules.ts';
import { lockAccountSubUser } from '../../db/queries/sub-users.ts';
import { type AccountScope, type Actor, createSubUser, refuseEscalation, replacePermissions } from '../sub-users/service.ts';
import type { Db } from '../types.ts';
import { type IssuedLink, issueLink, mailLink } from './links.ts';

const emailInUse = (field = 'email'): FieldError => ({ field, code: 'INVALID', message: 'this email already signs in to the panel; use another address' });

/** What a person who already set a password is told instead of a new set-password link. */
export const HAS_PASSWORD = (who: string) => new ApiError('STATE_CONFLICT',
  `${who} already set a password, and an invitation link never replaces one: a forgotten password is reset with "Forgot password" on the sign-in page (the link goes to that person's mailbox only)`);

/**
 * The owner's panel user: made on the first invitation, with the account's email as it is then.
 * An owner who already set a password is 409: the operator's link would otherwise replace it.
 */
export async function inviteOwner(db: Db, accountId: string, panelUrl: string, now: Date): Promise<IssuedLink & { user: PanelUser }> {
  return inTransaction(db, async (trx) => {
    const account = await findAccount(trx, accountId);
    if (!account) throw notFound('Account');
    let user = await findOwnerUser(trx, accountId);
    if (!user) {
      user = await insertPanelUser(trx, { account_id: accountId, sub_user_id: null, email: account.email });
      if (!user) throw new ApiError('STATE_CONFLICT', `${account.email} already signs in to the panel as another user; change the account's email first`);
    }
    if (user.password_hash !== null) throw HAS_PASSWORD(`The owner (${user.email})`);
    const link = await issueLink(trx, user, 'invitation', panelUrl, now);
    await mailLink(trx, user, 'invitation', link);
    return { ...link, user };
  });
}

export interface SubUserInvite {
  email: string;
  first_name: string;
  last_name: string;
  permissions: string[];
}

/**
 * A new sub-user (the core's invitation: `pending`) with its permissions, its panel user and a
 * link; it becomes `active` when it sets its password. All or nothing.
 */
export async function inviteSubUser(s: AccountScope, input: SubUserInvite, actor: Actor, panelUrl: string, inviter: string): Promise<IssuedLink & { subUser: SubUser }> {
  const errors = [...inviteProblems(input), ...checkPermissions(input.permissions).errors];
  if (errors.length) throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', errors);
  return inTransaction(s.db, async (trx) => {
    const created = await createSubUser(trx, s.accountId, input);
    const subUser = await replacePermissions({ ...s, db: trx }, created.id, input.permissions, actor);
    const user = await insertPanelUser(trx, { account_id: s.accountId, sub_user_id: subUser.id, email: subUser.email });
    if (!user) throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', [emailInUse()]);
    const link = await issueLink(trx, user, 'invitation', panelUrl, s.now);
    await mailLink(trx, user, 'invitation', link, inviter);
    return { ...link, subUser };
  });
}

/**
 * A new link for a sub-user that has not accepted its invitation yet (one the operator invited has
 * no panel user yet: it gets one). Whoever receives the link becomes that sub-user, so it takes
 * what inviting takes: a sub-user may re-invite only one holding no permission it lacks itself.
 * An active sub-user gets no link (it has its password, or resets it through its own mailbox).
 */
export async function reinviteSubUser(s: AccountScope, id: number, actor: Actor, panelUrl: string, inviter: string): Promise<IssuedLink & { subUser: SubUser }> {
  return inTransaction(s.db, async (trx) => {
    const subUser = await lockAccountSubUser(trx, s.accountId, id);
    if (!subUser) throw new ApiError('RESOURCE_NOT_FOUND', `Sub-user ${id} not found`);
    if (subUser.status === 'inactive') throw new ApiError('STATE_CONFLICT', `Sub-user ${id} is inactive; activate it before inviting it again`);
    if (subUser.status === 'active') {
      throw new ApiError('STATE_CONFLICT', `Sub-user ${id} is active: it signs in with its own password, and a forgotten one is reset with "Forgot password" on the sign-in page (mailed to it only)`);
    }
    refuseEscalation(actor, subUser.permissions, 'invite again a sub-user');
    let [user] = await findSubUserPanelUsers(trx, s.accountId, [id]);
    if (user?.password_hash) throw HAS_PASSWORD(`Sub-user ${id}`);
    if (!user) {
      user = await insertPanelUser(trx, { account_id: s.accountId, sub_user_id: id, email: subUser.email });
      if (!user) throw new ApiError('STATE_CONFLICT', `${subUser.email} already signs in to the panel as another user`);
    }
    const link = await issueLink(trx, user, 'invitation', panelUrl, s.now);
    await mailLink(trx, user, 'invitation', link, inviter);
    return { ...link, subUser };
  });
}

/** Which of these sub-users can sign in to the panel (have set a password). */
export async function panelAccessOf(db: Db, accountId: string, subUserIds: number[]): Promise<Map<number, { invited: boolean; signed_up: boolean; two_factor: boolean }>> {
  const users = await findSubUserPanelUsers(db, accountId, subUserIds);
  return new Map(users.map((u) => [u.sub_user_id!, { invited: true, signed_up: u.password_hash !== null, two_factor: u.totp_enabled_at !== null }]));
}
