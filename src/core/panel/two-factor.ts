// Two-factor sign-in: enrolment (a secret shown as a QR code, confirmed with a first code), ten
// one-time recovery codes, and turning it off with a code. A TOTP code is accepted once.
import {
  claimTotpStep, countUnusedRecoveryCodes, findPanelUser, lockPanelUser, replaceRecoveryCodes, spendRecoveryCode, updatePanelUser,
} from '../../db/queries/panel-users.ts';
import type { PanelUser } from '../../db/schema.ts';
import { inTransaction } from '../../db/transaction.ts';
import { ApiError, invalid } from '../errors.ts';
import type { Db } from '../types.ts';
import { looksLikeRecoveryCode, newRecoveryCode, recoveryCodeHash } from './secrets.ts';
import { type Enrolment, enrolment, newTotpSecret, totpStep } from './totp.ts';

export const RECOVERY_CODES = 10;

const badCode = () => invalid('code', 'is not the current code of your authenticator app, nor an unused recovery code');

async function userOf(db: Db, id: number): Promise<PanelUser> {
  const user = await lockPanelUser(db, id);
  if (!user) throw new ApiError('AUTH_INVALID', 'The session has ended; sign in again');
  return user;
}

/**
 * Checks a second factor of a person with two-factor on: a TOTP code (each accepted once) or an
 * unused recovery code (spent). Throws VALIDATION_FAILED on `code` otherwise.
 */
export async function verifySecondFactor(db: Db, user: Pick<PanelUser, 'id' | 'email' | 'totp_secret' | 'totp_enabled_at'>, code: string, now: Date): Promise<'totp' | 'recovery'> {
  if (!user.totp_secret || !user.totp_enabled_at) throw new ApiError('STATE_CONFLICT', 'Two-factor authentication is off');
  if (looksLikeRecoveryCode(code)) {
    if (await spendRecoveryCode(db, user.id, recoveryCodeHash(code), now)) return 'recovery';
    throw badCode();
  }
  const step = totpStep(user.totp_secret, user.email, code, now);
  if (step === null || !(await claimTotpStep(db, user.id, step))) throw badCode();
  return 'totp';
}

export interface TwoFactorStatus {
  enabled: boolean;
  recoveryCodesLeft: number;
}

export async function twoFactorStatus(db: Db, userId: number): Promise<TwoFactorStatus> {
  const user = await findPanelUser(db, userId);
  const enabled = Boolean(user?.totp_enabled_at);
  return { enabled, recoveryCodesLeft: enabled ? await countUnusedRecoveryCodes(db, userId) : 0 };
}

/** A new secret to enrol (replacing an unconfirmed one); refused while two-factor is on. */
export async function beginEnrolment(db: Db, userId: number, now: Date): Promise<Enrolment> {
  return inTransaction(db, async (trx) => {
    const user = await userOf(trx, userId);
    if (user.totp_enabled_at) throw new ApiError('STATE_CONFLICT', 'Two-factor authentication is already on; turn it off first to enrol another app');
    const secret = newTotpSecret();
    await updatePanelUser(trx, user.id, { totp_secret: secret, totp_last_step: null }, now);
    return enrolment(secret, user.email);
  });
}

async function freshRecoveryCodes(trx: Db, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  await replaceRecoveryCodes(trx, userId, codes.map(recoveryCodeHash));
  return codes;
}

/** Turns two-factor on with a first code of the enrolled secret; answers the recovery codes (shown once). */
export async function confirmEnrolment(db: Db, userId: number, code: string, now: Date): Promise<string[]> {
  return inTransaction(db, async (trx) => {
    const user = await userOf(trx, userId);
    if (user.totp_enabled_at) throw new ApiError('STATE_CONFLICT', 'Two-factor authentication is already on');
    if (!user.totp_secret) throw new ApiError('STATE_CONFLICT', 'Start the enrolment first: scan the QR code, then enter its code');
    const step = totpStep(user.totp_secret, user.email, code, now);
    if (step === null) throw invalid('code', 'is not the current code of your authenticator app: check the time on your phone and try the next code');
    await updatePanelUser(trx, user.id, { totp_enabled_at: now, totp_last_step: step }, now);
    return freshRecoveryCodes(trx, user.id);
  });
}

/** Turns two-factor off; needs a current code (or a recovery code). */
export async function disableTwoFactor(db: Db, userId: number, code: string, now: Date): Promise<void> {
  await inTransaction(db, async (trx) => {
    const user = await userOf(trx, userId);
    await verifySecondFactor(trx, user, code, now);
    await updatePanelUser(trx, user.id, { totp_secret: null, totp_enabled_at: null, totp_last_step: null }, now);
    await replaceRecoveryCodes(trx, user.id, []);
  });
}

/** New recovery codes (the old ones stop working); needs a current code. */
export async function regenerateRecoveryCodes(db: Db, userId: number, code: string, now: Date): Promise<string[]> {
  return inTransaction(db, async (trx) => {
    const user = await userOf(trx, userId);
    await verifySecondFactor(trx, user, code, now);
    return freshRecoveryCodes(trx, user.id);
  });
}
