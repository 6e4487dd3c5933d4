// Self sign-up (PANEL_SIGNUP=open) and password-reset requests. Both answer the same whatever the
// email, so neither tells a stranger who has an account: what differs goes to the mailbox.
import { findAccountByEmail } from '../../db/queries/accounts.ts';
import { findPanelUserByEmail, insertPanelUser } from '../../db/queries/panel-users.ts';
import { inTransaction } from '../../db/transaction.ts';
import { createAccount } from '../accounts/service.ts';
import { getBranding } from '../branding/branding.ts';
import { ApiError, type FieldError } from '../errors.ts';
import { queueNotification } from '../notifications/queue.ts';
import type { Db } from '../types.ts';
import { issueLink, mailLink } from './links.ts';
import { emailErrors } from './rules.ts';

export interface SignUpInput {
  email: string;
  name: string;
}

/**
 * A new account with a zero balance and its owner, without a password: the mailed link (an
 * invitation) is where the owner chooses it, which proves the email at the same time. So whoever
 * signs up first with someone else's email holds nothing. Signing up again while the owner has no
 * password sends the mailbox a new link (the name given first stays); an email that already signs
 * in, or belongs to a sub-user or an account the operator opened, gets a notice with no link.
 */
export async function signUp(db: Db, input: SignUpInput, panelUrl: string, now: Date): Promise<void> {
  const email = input.email.trim();
  const errors: FieldError[] = [...emailErrors(email)];
  if (input.name.trim() === '') errors.push({ field: 'name', code: 'INVALID', message: 'must not be blank' });
  else if (input.name.length > 200) errors.push({ field: 'name', code: 'INVALID', message: 'must be at most 200 characters' });
  if (errors.length) throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', errors);
  await inTransaction(db, async (trx) => {
    const { name: brand } = await getBranding(trx);
    const user = await findPanelUserByEmail(trx, email);
    if (user?.password_hash) {
      await queueNotification(trx, {
        accountId: user.account_id, kind: 'panel.sign_up_repeated', toEmail: user.email,
        subject: `You already have a ${brand} panel login`,
        body: `Someone tried to sign up with ${user.email}, which already signs in to the panel.\n\nSign in, or reset your password from the sign-in page if you forgot it. If it was not you, nothing changed.`,
      });
      return;
    }
    if (user && user.sub_user_id === null) {
      await mailLink(trx, user, 'sign_up', await issueLink(trx, user, 'invitation', panelUrl, now));
      return;
    }
    const existing = await findAccountByEmail(trx, email);
    if (user || existing) {
      // An invited sub-user, or an account the operator opened: the invitation is the way in.
      const accountId = user?.account_id ?? existing!.id;
      await queueNotification(trx, {
        accountId, kind: 'panel.sign_up_repeated', toEmail: email,
        subject: `You already have a ${brand} account`,
        body: `Someone tried to sign up with ${email}, which already belongs to an account.\n\nUse the invitation you were sent, or ask your provider (or the account's owner) for one. If it was not you, nothing changed.`,
      });
      return;
    }
    const account = await createAccount(trx, { email, name: input.name });
    const owner = (await insertPanelUser(trx, { account_id: account.id, sub_user_id: null, email }))!;
    await mailLink(trx, owner, 'sign_up', await issueLink(trx, owner, 'invitation', panelUrl, now));
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
