// Self sign-up (PANEL_SIGNUP=open) and password-reset requests. Both answer the same whatever the
// email, so neither tells a stranger who has an account: what differs goes to the mailbox.
import { findAccountByEmail } from '../../db/queries/accounts.ts';
import { findPanelUserByEmail, insertPanelUser, updatePanelUser } from '../../db/queries/panel-users.ts';
import { inTransaction } from '../../db/transaction.ts';
import { createAccount, updateAccount } from '../accounts/service.ts';
import { ApiError, type FieldError } from '../errors.ts';
import { queueNotification } from '../notifications/queue.ts';
import { hashPassword } from '../sub-users/password.ts';
import type { Db } from '../types.ts';
import { issueLink, mailLink } from './links.ts';
import { emailErrors, passwordErrors } from './rules.ts';

export interface SignUpInput {
  email: string;
  name: string;
  password: string;
}

/**
 * A new account with a zero balance and its owner, who signs in once the email is confirmed.
 * Signing up again before confirming replaces the password and sends a new link; an email that
 * already signs in gets a notice instead.
 */
export async function signUp(db: Db, input: SignUpInput, panelUrl: string, now: Date): Promise<void> {
  const email = input.email.trim();
  const errors: FieldError[] = [...emailErrors(email), ...passwordErrors(input.password, email)];
  if (input.name.trim() === '') errors.push({ field: 'name', code: 'INVALID', message: 'must not be blank' });
  else if (input.name.length > 200) errors.push({ field: 'name', code: 'INVALID', message: 'must be at most 200 characters' });
  if (errors.length) throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', errors);
  const hash = await hashPassword(input.password);
  await inTransaction(db, async (trx) => {
    const user = await findPanelUserByEmail(trx, email);
    if (user?.email_verified_at) {
      await queueNotification(trx, {
        accountId: user.account_id, kind: 'panel.sign_up_repeated', toEmail: user.email,
        subject: 'You already have a Hostcloud panel login',
        body: `Someone tried to sign up with ${user.email}, which already signs in to the panel.\n\nSign in, or reset your password from the sign-in page if you forgot it. If it was not you, nothing changed.`,
      });
      return;
    }
    if (user && user.sub_user_id === null) {
      await updateAccount(trx, user.account_id, { name: input.name });
      await updatePanelUser(trx, user.id, { password_hash: hash }, now);
      await mailLink(trx, user, 'email_verification', await issueLink(trx, user, 'email_verification', panelUrl, now));
      return;
    }
    const existing = await findAccountByEmail(trx, email);
    if (user || existing) {
      // An invited sub-user, or an account the operator opened: the invitation is the way in.
      const accountId = user?.account_id ?? existing!.id;
      await queueNotification(trx, {
        accountId, kind: 'panel.sign_up_repeated', toEmail: email,
        subject: 'You already have a Hostcloud account',
        body: `Someone tried to sign up with ${email}, which already belongs to an account.\n\nUse the invitation you were sent, or ask your provider (or the account's owner) for one. If it was not you, nothing changed.`,
      });
      return;
    }
    const account = await createAccount(trx, { email, name: input.name });
    const owner = (await insertPanelUser(trx, { account_id: account.id, sub_user_id: null, email, password_hash: hash }))!;
    await mailLink(trx, owner, 'email_verification', await issueLink(trx, owner, 'email_verification', panelUrl, now));
  });
}

/** A reset link to a person who signs in to the panel; nothing for any other email. */
export async function requestPasswordReset(db: Db, email: string, panelUrl: string, now: Date): Promise<void> {
  const errors = emailErrors(email);
  if (errors.length) throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', errors);
  await inTransaction(db, async (trx) => {
    const user = await findPanelUserByEmail(trx, email);
    if (!user || user.sub_user_deleted || user.sub_user_status === 'inactive') return;
    // A person who never set a password gets an invitation: its link works for longer.
    const kind = user.password_hash === null ? 'invitation' : 'password_reset';
    await mailLink(trx, user, kind, await issueLink(trx, user, kind, panelUrl, now));
  });
}
