// Staff signing in as a customer ("impersonation"). A member with accounts:read asks for it on an
// account with a reason; the answer is a signed single-use link (signed-links.ts) whose opening
// starts a panel session of the account's owner marked with the member, the reason and whether
// it may write. The customer's own session list shows it as done by staff; its start is the
// admin write's audit row, its end one written here (the member's "End", or the sweep for a
// session that lapsed or that the customer revoked). Never for a staff member's own account, a
// closed (or suspended) account, or ADMIN_TOKEN (the customer is shown a person).
import { findAccount } from '../../db/queries/accounts.ts';
import {
  claimEndedImpersonations, deleteExpiredImpersonationLinks, endImpersonationSession, findStaffByAnyEmail,
  insertImpersonationLink, spendImpersonationLink,
} from '../../db/queries/impersonation.ts';
import { insertSession, revokeSessionRow } from '../../db/queries/panel-sessions.ts';
import { findOwnerUser, findPanelUser, insertPanelUser } from '../../db/queries/panel-users.ts';
import { findStaffMember } from '../../db/queries/staff.ts';
import type { Account, StaffRole } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { ApiError, invalid, notFound } from '../errors.ts';
import { newPublicId, newToken, sha256 } from '../panel/secrets.ts';
import type { ClientMeta, PanelIdentity, SessionSettings } from '../panel/sessions.ts';
import { type LinkKind, type SignedLink, newTicket, signLink, verifyLink } from '../signed-links.ts';
import type { Db } from '../types.ts';
import { recordAudit } from './audit.ts';
import type { StaffPrincipal } from './principal.ts';
import { type AdminRight, mayDo } from './roles.ts';

/** An impersonation session's absolute end (the panel's idle limit applies too). */
export const IMPERSONATION_SESSION_S = 3_600;
export const REASON_MIN = 3;
export const REASON_MAX = 500;

/**
 * What a role must be able to write on the admin API for its impersonation to write in the panel:
 * everything a customer's panel changes (profile, credentials, money, services). Owner and admin
 * hold all four; billing (no access or services writes), support and readonly get read-only sessions.
 */
export const IMPERSONATION_WRITE_RIGHTS: readonly AdminRight[] = ['accounts', 'access', 'billing', 'services'];

export function impersonationMayWrite(role: StaffRole): boolean {
  return IMPERSONATION_WRITE_RIGHTS.every((r) => mayDo(role, `${r}:write`));
}

const LINK: LinkKind = { label: 'impersonation-v1', name: 'sign-in link', renew: 'POST /admin/v1/accounts/{id}/impersonation' };

export interface StartedImpersonation {
  url: string;
  expiresAt: Date;
  readOnly: boolean;
}

async function refuseStaffOwned(db: Db, account: Account, ownerEmail: string | undefined): Promise<void> {
  const member = await findStaffByAnyEmail(db, ownerEmail === undefined ? [account.email] : [account.email, ownerEmail]);
  if (member) {
    throw new ApiError('AUTH_SCOPE_INSUFFICIENT', `Account ${account.id} is a staff member's own (${member.email} is staff): nobody signs in as a staff member's account`);
  }
}

function refuseInactive(account: Account): void {
  if (account.status !== 'active') {
    throw new ApiError('STATE_CONFLICT', `Account ${account.id} is ${account.status}: only an active account's panel can be signed in to`);
  }
}

/** Starts an impersonation: the link to open (single-use, LINK_TTL_S). `reason` is as typed. */
export async function startImpersonation(
  db: Db, actor: StaffPrincipal, accountId: string, reason: string, key: Buffer, publicUrl: string, now: Date,
): Promise<StartedImpersonation> {
  const why = reason.trim();
  if (why.length < REASON_MIN || why.length > REASON_MAX) throw invalid('reason', `say why in ${REASON_MIN} to ${REASON_MAX} characters`);
  if (actor.type !== 'staff' || actor.id === null) {
    throw new ApiError('AUTH_SCOPE_INSUFFICIENT', 'Signing in as a customer needs a staff member (a console session or a staff token), not ADMIN_TOKEN: the customer is shown who acted');
  }
  const staffId = actor.id;
  return inTransaction(db, async (trx) => {
    const account = await findAccount(trx, accountId);
    if (!account) throw notFound(`Account ${accountId}`);
    refuseInactive(account);
    let owner = await findOwnerUser(trx, accountId);
    await refuseStaffOwned(trx, account, owner?.email);
    // An account opened by the operator has no panel user until its owner is invited: made here
    // as an invitation makes it (no password: nobody else signs in with it).
    if (!owner) {
      owner = await insertPanelUser(trx, { account_id: accountId, sub_user_id: null, email: account.email });
      if (!owner) throw new ApiError('STATE_CONFLICT', `${account.email} already signs in to the panel as another user; change the account's email first`);
    }
    const readOnly = !impersonationMayWrite(actor.role);
    const ticket = newTicket();
    const { query, expiresAt } = signLink(key, LINK, ticket, now, false);
    await deleteExpiredImpersonationLinks(trx, now);
    await insertImpersonationLink(trx, {
      ticket_hash: sha256(ticket), account_id: accountId, user_id: owner.id, staff_id: staffId, reason: why, read_only: readOnly, expires_at: expiresAt,
    });
    return { url: `${publicUrl}/panel/impersonation/${ticket}?${query}`, expiresAt, readOnly };
  });
}

export interface OpenedImpersonation {
  /** The panel session cookie's value. */
  token: string;
  maxAgeS: number;
}

/**
 * Opens a link, once: a panel session of the account's owner, marked as the member's. Forged →
 * RESOURCE_NOT_FOUND; expired, used, the member disabled, the account no longer active →
 * STATE_CONFLICT; the account now a staff member's → AUTH_SCOPE_INSUFFICIENT.
 */
export async function openImpersonationLink(db: Db, key: Buffer, link: SignedLink, meta: ClientMeta, now: Date, s: SessionSettings): Promise<OpenedImpersonation> {
  verifyLink(key, LINK, link, now);
  return inTransaction(db, async (trx) => {
    const spent = await spendImpersonationLink(trx, sha256(link.ticket), now);
    if (!spent) throw new ApiError('STATE_CONFLICT', `This sign-in link was already used; start a new one with ${LINK.renew}`);
    const member = await findStaffMember(trx, spent.staff_id);
    if (member?.status !== 'active') throw new ApiError('STATE_CONFLICT', 'The staff member who asked for this link is disabled');
    const account = await findAccount(trx, spent.account_id);
    const owner = await findPanelUser(trx, spent.user_id);
    if (!account || !owner) throw new ApiError('STATE_CONFLICT', `Account ${spent.account_id} has no panel owner any more`);
    refuseInactive(account);
    await refuseStaffOwned(trx, account, owner.email);
    const maxAgeS = Math.min(IMPERSONATION_SESSION_S, s.maxS);
    const token = newToken();
    await insertSession(trx, {
      id: sha256(token), public_id: newPublicId(), user_id: spent.user_id, stage: 'full',
      ip: meta.ip.slice(0, 64), user_agent: meta.userAgent.slice(0, 300),
      created_at: now, expires_at: new Date(now.getTime() + maxAgeS * 1000),
      impersonator_staff_id: spent.staff_id, reason: spent.reason, read_only: spent.read_only,
    });
    return { token, maxAgeS };
  });
}

export interface EndContext {
  ip: string | null;
  requestId: string | null;
}

/**
 * Ends the request's own panel session: a plain sign-out, or for an impersonation its "End",
 * audited (`endImpersonation`, the member as actor) in the transaction that ends it.
 */
export async function endPanelSession(db: Db, identity: Pick<PanelIdentity, 'sessionId' | 'publicId' | 'accountId' | 'impersonation'>, end: EndContext, now: Date): Promise<void> {
  const imp = identity.impersonation;
  if (!imp) {
    await revokeSessionRow(db, identity.sessionId, now);
    return;
  }
  await inTransaction(db, async (trx) => {
    if (!(await endImpersonationSession(trx, identity.sessionId, now))) return;
    await recordAudit(trx, {
      actor: { type: 'staff', id: imp.staffId, email: imp.staffEmail, role: imp.staffRole, via: 'session' },
      ip: end.ip, action: 'endImpersonation', target: { type: 'account', id: identity.accountId },
      changes: { session: identity.publicId, reason: imp.reason, read_only: imp.readOnly, ended: 'by the staff member' },
      requestId: end.requestId,
    });
  });
}

/**
 * Audits the end of impersonation sessions that ended without "End" (revoked by the customer, or
 * past their absolute end — an idle one is found there too, at most an hour later), once each; run
 * by the panel's sweep (worker maintenance) before it deletes old sessions. The session itself
 * stopped working at its end (sessions.ts): this only writes the trail.
 */
export async function auditEndedImpersonations(db: Db, now: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await inTransaction(db, async (trx) => {
      const ended = await claimEndedImpersonations(trx, now, 100);
      for (const e of ended) {
        await recordAudit(trx, {
          actor: null, ip: null, action: 'endImpersonation', target: { type: 'account', id: e.account_id },
          changes: {
            session: e.public_id, staff_id: e.staff_id, staff_email: e.staff_email, reason: e.reason, read_only: e.read_only,
            ended: e.revoked_at ? 'revoked' : 'expired',
            ended_at: (e.revoked_at ?? e.expires_at).toISOString(), last_seen_at: e.last_seen_at.toISOString(),
          },
          requestId: null,
        });
      }
      return ended.length;
    });
    total += n;
    if (n < 100) return total;
  }
}
