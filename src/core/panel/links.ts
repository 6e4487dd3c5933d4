// Single-use links mailed to a person: an invitation to set a first password (the operator's, or
// an account's to its sub-user), a password reset, an email verification after a sign-up. Only
// the token's hash is stored; a new link of a kind retires the earlier unused ones.
import { findAccount } from '../../db/queries/accounts.ts';
import {
  findPanelLink, findPanelUser, insertPanelLink, lockPanelUser, retirePanelLinks, spendPanelLink, updatePanelUser,
} from '../../db/queries/panel-users.ts';
import { revokeUserSessions } from '../../db/queries/panel-sessions.ts';
import { lockAccountSubUser, updateSubUserRow } from '../../db/queries/sub-users.ts';
import type { PanelLinkKind, PanelUser } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { revokeAccountKeys, revokeSubUserKeys } from '../../db/queries/api-keys.ts';
import { getBranding } from '../branding/branding.ts';
import { ApiError } from '../errors.ts';
import { queueNotification } from '../notifications/queue.ts';
import { hashPassword } from '../sub-users/password.ts';
import type { Db } from '../types.ts';
import { passwordErrors } from './rules.ts';
import { newToken, sha256 } from './secrets.ts';

export const LINK_TTL_S: Record<PanelLinkKind, number> = {
  invitation: 72 * 3600,
  password_reset: 3600,
  email_verification: 24 * 3600,
};

/** The panel page each kind of link opens (the SPA route; the token is its last segment). */
const LINK_PATH: Record<PanelLinkKind, string> = {
  invitation: 'invitation',
  password_reset: 'reset-password',
  email_verification: 'verify-email',
};

export interface IssuedLink {
  url: string;
  expiresAt: Date;
}

/** `panelUrl`: the panel's public address, e.g. https://cloud.example.com/panel. */
export async function issueLink(trx: Db, user: Pick<PanelUser, 'id'>, kind: PanelLinkKind, panelUrl: string, now: Date): Promise<IssuedLink> {
  // A new invitation or reset replaces both kinds: whichever arrives last is the one that works.
  await retirePanelLinks(trx, user.id, kind === 'email_verification' ? [kind] : ['invitation', 'password_reset'], now);
  const token = newToken();
  const expiresAt = new Date(now.getTime() + LINK_TTL_S[kind] * 1000);
  await insertPanelLink(trx, { token_hash: sha256(token), kind, user_id: user.id, expires_at: expiresAt });
  return { url: `${panelUrl}/${LINK_PATH[kind]}/${token}`, expiresAt };
}

const ALREADY_SET = () => new ApiError('STATE_CONFLICT', 'This invitation was accepted already: sign in, or use "Forgot password" on the sign-in page');
const NOT_VALID = () => new ApiError('RESOURCE_NOT_FOUND', 'This link is not valid: check that it was copied whole');

export interface LinkView {
  kind: PanelLinkKind;
  email: string;
  expiresAt: Date;
}

async function liveLink(db: Db, token: string, now: Date, kinds: PanelLinkKind[]) {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw NOT_VALID();
  const link = await findPanelLink(db, sha256(token));
  if (!link || !kinds.includes(link.kind)) throw NOT_VALID();
  if (link.used_at) throw new ApiError('STATE_CONFLICT', 'This link was already used; sign in, or ask for a new link');
  if (link.expires_at <= now) throw new ApiError('STATE_CONFLICT', 'This link has expired; ask for a new one');
  const user = await findPanelUser(db, link.user_id);
  if (!user) throw NOT_VALID();
  return { link, user };
}

/** What a link is for (to show the right page), without spending it. */
export async function readLink(db: Db, token: string, now: Date): Promise<LinkView> {
  const { link, user } = await liveLink(db, token, now, ['invitation', 'password_reset', 'email_verification']);
  return { kind: link.kind, email: user.email, expiresAt: link.expires_at };
}

export interface PasswordSet {
  user: PanelUser;
  /** How many API keys the reset revoked (when asked to). */
  revokedApiKeys: number;
}

/**
 * Sets the password through an invitation or reset link, and spends it. The link proves the
 * email; an invited sub-user becomes active; every session of the person ends (a reset is often
 * because someone else got in). An invitation sets a first password only: one whose person has
 * set a password since is refused (only a reset, mailed to the person alone, replaces one). A reset
 * may also revoke API keys (someone who had the password may have made some).
 */
export async function setPasswordWithLink(db: Db, token: string, password: string, now: Date, opts: { revokeApiKeys?: boolean } = {}): Promise<PasswordSet> {
  const { link, user } = await liveLink(db, token, now, ['invitation', 'password_reset']);
  if (link.kind === 'invitation' && user.password_hash !== null) throw ALREADY_SET();
  const errors = passwordErrors(password, user.email);
  if (opts.revokeApiKeys && link.kind !== 'password_reset') {
    errors.push({ field: 'revoke_api_keys', code: 'INVALID', message: 'only a password reset revokes API keys; revoke them on the API keys page' });
  }
  if (errors.length) throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', errors);
  const hash = await hashPassword(password);
  return inTransaction(db, async (trx) => {
    if (!(await spendPanelLink(trx, sha256(token), now))) throw new ApiError('STATE_CONFLICT', 'This link was already used; sign in, or ask for a new link');
    const current = await lockPanelUser(trx, user.id);
    if (!current) throw NOT_VALID();
    if (link.kind === 'invitation' && current.password_hash !== null) throw ALREADY_SET();
    if (user.sub_user_id !== null) {
      const sub = await lockAccountSubUser(trx, user.account_id, user.sub_user_id);
      if (!sub) throw NOT_VALID();
      // Accepting the invitation is what makes it active; one the account deactivated stays so.
      if (sub.status === 'pending') await updateSubUserRow(trx, sub.id, { status: 'active' }, now);
    }
    await revokeUserSessions(trx, user.id, now);
    // The owner's reset revokes every key of the account; a sub-user's, its own keys only.
    const revokedApiKeys = !opts.revokeApiKeys ? 0
      : user.sub_user_id === null ? await revokeAccountKeys(trx, user.account_id, now) : await revokeSubUserKeys(trx, user.account_id, user.sub_user_id, now);
    const updated = (await updatePanelUser(trx, user.id, { password_hash: hash, email_verified_at: user.email_verified_at ?? now }, now))!;
    return { user: updated, revokedApiKeys };
  });
}

/** Confirms a sign-up's email through its link. */
export async function verifyEmailWithLink(db: Db, token: string, now: Date): Promise<PanelUser> {
  const { user } = await liveLink(db, token, now, ['email_verification']);
  return inTransaction(db, async (trx) => {
    if (!(await spendPanelLink(trx, sha256(token), now))) throw new ApiError('STATE_CONFLICT', 'This link was already used; sign in');
    return (await updatePanelUser(trx, user.id, { email_verified_at: user.email_verified_at ?? now }, now))!;
  });
}

/** What a mailed link is for: a kind of link, or a sign-up's invitation (its own words). */
export type LinkMail = PanelLinkKind | 'sign_up';

/** Queues the mail that carries a link, to the person (not the account's contact address). */
export async function mailLink(trx: Db, user: Pick<PanelUser, 'account_id' | 'email'>, kind: LinkMail, link: IssuedLink, inviter?: string): Promise<void> {
  const [account, { name: brand }] = await Promise.all([findAccount(trx, user.account_id), getBranding(trx)]);
  const hours = Math.round(LINK_TTL_S[kind === 'sign_up' ? 'invitation' : kind] / 3600);
  const text = {
    invitation: {
      subject: `You are invited to the ${brand} panel${account ? ` of ${account.name}` : ''}`,
      body: `${inviter ?? 'Your provider'} invited you to sign in to the ${brand} customer panel as ${user.email}.\n\n`
        + `Set your password here (the link works once, for ${hours} hours):\n${link.url}\n\nThen sign in with your email and that password.`,
    },
    password_reset: {
      subject: `Reset your ${brand} panel password`,
      body: `Someone (hopefully you) asked to reset the password of ${user.email}.\n\nSet a new password here (the link works once, for ${hours} hour${hours === 1 ? '' : 's'}):\n${link.url}\n\n`
        + 'If you did not ask for this, ignore this email: your password stays as it is.',
    },
    sign_up: {
      subject: `Choose your password for ${brand}`,
      body: `Someone (hopefully you) signed up to ${brand} with ${user.email}.\n\nChoose your password here to confirm the email and sign in (the link works once, for ${hours} hours):\n${link.url}\n\n`
        + 'If you did not sign up, ignore this email: nobody can sign in with this email without the link.',
    },
    email_verification: {
      subject: `Confirm your email for ${brand}`,
      body: `Confirm that ${user.email} is yours to finish signing up (the link works once, for ${hours} hours):\n${link.url}\n\nIf you did not sign up, ignore this email.`,
    },
  }[kind];
  await queueNotification(trx, { accountId: user.account_id, kind: `panel.${kind}`, subject: text.subject, body: text.body, toEmail: user.email });
}
