// Panel sessions: sign-in (password, then a TOTP or recovery code when two-factor is on), the
// session a cookie names, the session list and revocation. Sessions live in PostgreSQL; a session
// ends after PANEL_SESSION_IDLE_S unused or PANEL_SESSION_MAX_S after sign-in, whichever is first.
import {
  findPanelUser, findPanelUserByEmail, type PanelUserStanding,
} from '../../db/queries/panel-users.ts';
import {
  type ListedSession, findSessionStanding, insertSession, listLiveSessions, revokeSessionRow, revokeUserSession, revokeUserSessions, touchSession,
} from '../../db/queries/panel-sessions.ts';
import type { PanelSession, PanelSessionStage, StaffRole } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { ApiError } from '../errors.ts';
import type { SubUserGrant, SubUserStatus } from '../sub-users/access.ts';
import { hashPassword, verifyPassword } from '../sub-users/password.ts';
import type { Db } from '../types.ts';
import { newPublicId, newToken, sha256 } from './secrets.ts';
import { verifySecondFactor } from './two-factor.ts';

export interface SessionSettings {
  idleS: number;
  maxS: number;
}

/** How long a password accepted waits for its TOTP code. */
export const TOTP_STAGE_S = 300;
/** last_seen_at is written at most this often per session: a read per request, not a write. */
const TOUCH_EVERY_MS = 60_000;

export interface ClientMeta {
  ip: string;
  userAgent: string;
}

export interface PanelIdentity {
  sessionId: string;
  publicId: string;
  userId: number;
  accountId: string;
  email: string;
  stage: PanelSessionStage;
  totpEnabled: boolean;
  accountStatus: string;
  /** The sub-user this person is; null for the account's owner. */
  subUser: SubUserGrant | null;
  expiresAt: Date;
  /** A staff member signed in as the customer (core/staff/impersonation.ts), else null. */
  impersonation: Impersonation | null;
}

/** Who acts in an impersonation session, why, and whether it may write. */
export interface Impersonation {
  staffId: string;
  staffName: string;
  staffEmail: string;
  staffRole: StaffRole;
  reason: string;
  readOnly: boolean;
}

export interface StartedSession {
  /** The cookie's value; only its hash is stored. */
  token: string;
  session: PanelSession;
}

async function startSession(db: Db, userId: number, stage: PanelSessionStage, meta: ClientMeta, now: Date, s: SessionSettings): Promise<StartedSession> {
  const token = newToken();
  const ttlS = stage === 'totp' ? TOTP_STAGE_S : s.maxS;
  const session = await insertSession(db, {
    id: sha256(token), public_id: newPublicId(), user_id: userId, stage,
    ip: meta.ip.slice(0, 64), user_agent: meta.userAgent.slice(0, 300),
    created_at: now, expires_at: new Date(now.getTime() + ttlS * 1000),
  });
  return { token, session };
}

// A hash to check against when the email is unknown, so that a wrong email takes as long as a
// wrong password (no telling which emails sign in by timing).
let decoy: Promise<string> | undefined;

const WRONG = () => new ApiError('AUTH_INVALID', 'The email or password is not right');

/** Why a person whose password is right may still not sign in (or act), or null. */
export function standingProblem(u: { account_status: string; sub_user_id: number | null; sub_user_status: string | null; sub_user_deleted: boolean }): ApiError | null {
  if (u.sub_user_id !== null) {
    if (u.sub_user_deleted) return WRONG();
    if (u.sub_user_status === 'inactive') return new ApiError('ACCOUNT_INACTIVE', 'Your access to this account was deactivated by its owner');
    if (u.sub_user_status === 'pending') return new ApiError('ACCOUNT_INACTIVE', 'Your invitation is not accepted yet: set your password through its link');
  }
  if (u.account_status !== 'active') return new ApiError('ACCOUNT_INACTIVE', `The account is ${u.account_status}; contact support`);
  return null;
}

/** The person an email and password name, or AUTH_INVALID. Does not start a session. */
export async function checkPassword(db: Db, email: string, password: string): Promise<PanelUserStanding> {
  const user = await findPanelUserByEmail(db, email);
  if (!user?.password_hash) {
    decoy ??= hashPassword('decoy password that matches nothing');
    await verifyPassword(password, await decoy);
    throw WRONG();
  }
  if (!(await verifyPassword(password, user.password_hash))) throw WRONG();
  return user;
}

export interface SignInResult extends StartedSession {
  /** 'totp': the password is right, a code is needed next. */
  next: 'totp' | 'done';
  user: PanelUserStanding;
}

export async function signIn(db: Db, email: string, password: string, meta: ClientMeta, now: Date, s: SessionSettings): Promise<SignInResult> {
  const user = await checkPassword(db, email, password);
  const problem = standingProblem(user);
  if (problem) throw problem;
  if (user.email_verified_at === null) throw new ApiError('AUTH_INVALID', 'Confirm your email first: open the link in the email we sent you');
  const stage = user.totp_enabled_at ? 'totp' : 'full';
  const started = await startSession(db, user.id, stage, meta, now, s);
  return { ...started, next: stage === 'totp' ? 'totp' : 'done', user };
}

/**
 * The second step: a TOTP code or a recovery code. The waiting session ends and a new one starts
 * (a new cookie: the one that only knew the password never becomes a full session).
 */
export async function completeSignIn(db: Db, identity: PanelIdentity, code: string, meta: ClientMeta, now: Date, s: SessionSettings): Promise<StartedSession> {
  if (identity.stage !== 'totp') throw new ApiError('STATE_CONFLICT', 'This session is already signed in');
  return inTransaction(db, async (trx) => {
    const user = await findPanelUser(trx, identity.userId);
    if (!user) throw WRONG();
    await verifySecondFactor(trx, user, code, now);
    await revokeSessionRow(trx, identity.sessionId, now);
    return startSession(trx, user.id, 'full', meta, now, s);
  });
}

/**
 * Whether a session row may still act: `ended` (revoked, past its absolute end, or idle too long),
 * `live`, or `touch` (live, and its last_seen_at is due to be written). Shared by the console's
 * staff sessions (core/staff/sessions.ts), which keep the same rules in their own table.
 */
export function sessionState(session: { revoked_at: Date | null; expires_at: Date; last_seen_at: Date }, now: Date, s: SessionSettings): 'ended' | 'live' | 'touch' {
  if (session.revoked_at || session.expires_at <= now) return 'ended';
  const idleMs = now.getTime() - session.last_seen_at.getTime();
  if (idleMs > s.idleS * 1000) return 'ended';
  return idleMs > TOUCH_EVERY_MS ? 'touch' : 'live';
}

/** A cookie's token has the shape newToken() makes (anything else is not looked up). */
export function isSessionToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

/** The session a cookie's token names while it may still act, else null. */
export async function identifySession(db: Db, token: string, now: Date, s: SessionSettings): Promise<PanelIdentity | null> {
  if (!isSessionToken(token)) return null;
  const st = await findSessionStanding(db, sha256(token));
  if (!st) return null;
  const { session, impersonator } = st;
  const state = sessionState(session, now, s);
  if (state === 'ended') return null;
  // A member disabled since signing in as the customer acts no more, here as in the console.
  if (session.impersonator_staff_id !== null && impersonator?.status !== 'active') return null;
  // A hint for the idle limit and the session list; a failed write only shortens the session.
  if (state === 'touch') touchSession(db, session.id, now).catch(() => {});
  return {
    sessionId: session.id,
    publicId: session.public_id,
    userId: st.user_id,
    accountId: st.account_id,
    email: st.email,
    stage: session.stage,
    totpEnabled: st.totp_enabled,
    accountStatus: st.account_status,
    subUser: st.sub_user_id === null ? null : {
      id: st.sub_user_id,
      status: st.sub_user_status as SubUserStatus,
      permissions: st.sub_user_permissions ?? [],
      deleted: st.sub_user_deleted,
    },
    expiresAt: session.expires_at,
    impersonation: impersonator && session.reason !== null ? {
      staffId: impersonator.id, staffName: impersonator.name, staffEmail: impersonator.email, staffRole: impersonator.role,
      reason: session.reason, readOnly: session.read_only,
    } : null,
  };
}

export async function signOut(db: Db, identity: Pick<PanelIdentity, 'sessionId'>, now: Date): Promise<void> {
  await revokeSessionRow(db, identity.sessionId, now);
}

export function listSessions(db: Db, identity: Pick<PanelIdentity, 'userId'>, now: Date, s: SessionSettings): Promise<ListedSession[]> {
  return listLiveSessions(db, identity.userId, now, s.idleS);
}

/** Ends one of the person's own sessions; another person's id is not found. */
export async function revokeSession(db: Db, identity: Pick<PanelIdentity, 'userId'>, publicId: string, now: Date): Promise<void> {
  if (!(await revokeUserSession(db, identity.userId, publicId, now))) throw new ApiError('RESOURCE_NOT_FOUND', `Session ${publicId} not found`);
}

/** Ends every other session of the person (after a password change, or on request). */
export function revokeOtherSessions(db: Db, identity: Pick<PanelIdentity, 'userId' | 'sessionId'>, now: Date): Promise<number> {
  return revokeUserSessions(db, identity.userId, now, identity.sessionId);
}
