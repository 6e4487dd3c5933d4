// Console sign-in of staff: email and password, then the authenticator app's code. A member
// without two-factor gets an `enrol` session that may only enrol (a QR code, then a first code,
// which answers the recovery codes): no staff session acts without two-factor. The rules of a
// session (idle and absolute ends, tokens, TOTP, recovery codes, password hashes) are the panel's.
import {
  claimStaffTotpStep, findStaffByEmail, findStaffSession, insertStaffSession, listMemberSessions, lockStaffMember, replaceStaffRecoveryCodes,
  revokeMemberSession, revokeStaffSessionRow, spendStaffRecoveryCode, touchStaffSession, updateStaffMember,
} from '../../db/queries/staff.ts';
import type { StaffMember, StaffSession, StaffSessionStage } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { ApiError, invalid } from '../errors.ts';
import { looksLikeRecoveryCode, newPublicId, newRecoveryCode, newToken, recoveryCodeHash, sha256 } from '../panel/secrets.ts';
import { type ClientMeta, type SessionSettings, TOTP_STAGE_S, isSessionToken, sessionState } from '../panel/sessions.ts';
import { RECOVERY_CODES } from '../panel/two-factor.ts';
import { type Enrolment, enrolment, newTotpSecret, totpStep } from '../panel/totp.ts';
import { hashPassword, verifyPassword } from '../sub-users/password.ts';
import type { Db } from '../types.ts';

export interface StaffIdentity {
  sessionId: string;
  publicId: string;
  stage: StaffSessionStage;
  member: StaffMember;
}

export interface StartedStaffSession {
  token: string;
  session: StaffSession;
  /** How long the cookie lives. */
  maxAgeS: number;
}

async function start(db: Db, member: StaffMember, stage: StaffSessionStage, meta: ClientMeta, now: Date, s: SessionSettings): Promise<StartedStaffSession> {
  const token = newToken();
  const ttlS = stage === 'full' ? s.maxS : TOTP_STAGE_S;
  const session = await insertStaffSession(db, {
    id: sha256(token), public_id: newPublicId(), staff_id: member.id, stage,
    ip: meta.ip.slice(0, 64), user_agent: meta.userAgent.slice(0, 300),
    created_at: now, expires_at: new Date(now.getTime() + ttlS * 1000),
  });
  return { token, session, maxAgeS: ttlS };
}

let decoy: Promise<string> | undefined;
const WRONG = () => new ApiError('AUTH_INVALID', 'The email or password is not right');

/** The first step: the session waits for a code (`totp`) or for the enrolment (`enrol`). */
export async function staffSignIn(db: Db, email: string, password: string, meta: ClientMeta, now: Date, s: SessionSettings): Promise<StartedStaffSession & { next: 'totp' | 'enrol' }> {
  const member = await findStaffByEmail(db, email);
  if (!member?.password_hash || member.status !== 'active') {
    decoy ??= hashPassword('decoy password that matches nothing');
    await verifyPassword(password, member?.password_hash ?? await decoy);
    throw WRONG();
  }
  if (!(await verifyPassword(password, member.password_hash))) throw WRONG();
  const next = member.totp_enabled_at ? 'totp' : 'enrol';
  return { ...(await start(db, member, next, meta, now, s)), next };
}

const badCode = () => invalid('code', 'is not the current code of your authenticator app, nor an unused recovery code');

async function verifyCode(trx: Db, member: StaffMember, code: string, now: Date): Promise<void> {
  if (!member.totp_secret || !member.totp_enabled_at) throw new ApiError('STATE_CONFLICT', 'Two-factor authentication is not enrolled');
  if (looksLikeRecoveryCode(code)) {
    if (await spendStaffRecoveryCode(trx, member.id, recoveryCodeHash(code), now)) return;
    throw badCode();
  }
  const step = totpStep(member.totp_secret, member.email, code, now);
  if (step === null || !(await claimStaffTotpStep(trx, member.id, step))) throw badCode();
}

async function lockedMember(trx: Db, identity: StaffIdentity): Promise<StaffMember> {
  const m = await lockStaffMember(trx, identity.member.id);
  if (!m || m.status !== 'active') throw new ApiError('AUTH_INVALID', 'The session has ended; sign in again');
  return m;
}

/** The second step: a code of the app or a recovery code; the waiting session becomes a full one (a new cookie). */
export async function staffCompleteSignIn(db: Db, identity: StaffIdentity, code: string, meta: ClientMeta, now: Date, s: SessionSettings): Promise<StartedStaffSession> {
  if (identity.stage !== 'totp') throw new ApiError('STATE_CONFLICT', identity.stage === 'enrol' ? 'Enrol your authenticator app first' : 'This session is already signed in');
  return inTransaction(db, async (trx) => {
    const member = await lockedMember(trx, identity);
    await verifyCode(trx, member, code, now);
    await revokeStaffSessionRow(trx, identity.sessionId, now);
    return start(trx, member, 'full', meta, now, s);
  });
}

/** The enrolment's QR code (a new secret each time it is asked for, until it is confirmed). */
export async function staffBeginEnrolment(db: Db, identity: StaffIdentity, now: Date): Promise<Enrolment> {
  if (identity.stage !== 'enrol') throw new ApiError('STATE_CONFLICT', 'Two-factor authentication is already enrolled');
  return inTransaction(db, async (trx) => {
    const member = await lockedMember(trx, identity);
    if (member.totp_enabled_at) throw new ApiError('STATE_CONFLICT', 'Two-factor authentication is already enrolled');
    const secret = newTotpSecret();
    await updateStaffMember(trx, member.id, { totp_secret: secret, totp_last_step: null }, now);
    return enrolment(secret, member.email);
  });
}

/** Confirms the enrolment with a first code: two-factor is on, the recovery codes are answered once, the session becomes full. */
export async function staffConfirmEnrolment(db: Db, identity: StaffIdentity, code: string, meta: ClientMeta, now: Date, s: SessionSettings): Promise<StartedStaffSession & { recoveryCodes: string[] }> {
  if (identity.stage !== 'enrol') throw new ApiError('STATE_CONFLICT', 'Two-factor authentication is already enrolled');
  return inTransaction(db, async (trx) => {
    const member = await lockedMember(trx, identity);
    if (!member.totp_secret) throw new ApiError('STATE_CONFLICT', 'Start the enrolment first: scan the QR code, then enter its code');
    const step = totpStep(member.totp_secret, member.email, code, now);
    if (step === null) throw invalid('code', 'is not the current code of your authenticator app: check the time on your phone and try the next code');
    const updated = (await updateStaffMember(trx, member.id, { totp_enabled_at: now, totp_last_step: step }, now))!;
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    await replaceStaffRecoveryCodes(trx, member.id, codes.map(recoveryCodeHash));
    await revokeStaffSessionRow(trx, identity.sessionId, now);
    return { ...(await start(trx, updated, 'full', meta, now, s)), recoveryCodes: codes };
  });
}

/** The session a cookie's token names while it may still act (any stage), else null. */
export async function identifyStaffSession(db: Db, token: string, now: Date, s: SessionSettings): Promise<StaffIdentity | null> {
  if (!isSessionToken(token)) return null;
  const st = await findStaffSession(db, sha256(token));
  if (!st || st.member.status !== 'active') return null;
  const state = sessionState(st.session, now, s);
  if (state === 'ended') return null;
  if (state === 'touch') touchStaffSession(db, st.session.id, now).catch(() => {});
  return { sessionId: st.session.id, publicId: st.session.public_id, stage: st.session.stage, member: st.member };
}

export async function staffSignOut(db: Db, identity: Pick<StaffIdentity, 'sessionId'>, now: Date): Promise<void> {
  await revokeStaffSessionRow(db, identity.sessionId, now);
}

export function listStaffSessions(db: Db, staffId: string, now: Date, s: SessionSettings): Promise<StaffSession[]> {
  return listMemberSessions(db, staffId, now, s.idleS);
}

export async function revokeStaffSession(db: Db, staffId: string, publicId: string, now: Date): Promise<void> {
  await inTransaction(db, async (trx) => {
    if (!(await revokeMemberSession(trx, staffId, publicId, now))) throw new ApiError('RESOURCE_NOT_FOUND', `Session ${publicId} not found`);
  });
}
