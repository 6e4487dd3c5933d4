// Staff members: invited by an owner with a role, a single-use link to set a password (72 h,
// also queued as a notice), role changes, disabling (which ends sessions and revokes tokens), and
// an owner's reset of another member's two-factor (the member enrols again at the next sign-in).
import {
  findStaffLink, findStaffMember, insertStaffLink, insertStaffMember, listStaffMembers, lockStaffMember, replaceStaffRecoveryCodes,
  revokeMemberSessions, spendStaffLink, updateStaffMember, type StaffFilter,
} from '../../db/queries/staff.ts';
import { revokeMemberTokens } from '../../db/queries/staff-tokens.ts';
import type { StaffMember, StaffRole, StaffStatus } from '../../db/schema.ts';
import { inTransaction, setCompanionTarget } from '../../db/transaction.ts';
import { base62 } from '../ids.ts';
import { ApiError, notFound } from '../errors.ts';
import { queueNotification } from '../notifications/queue.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import { passwordErrors } from '../panel/rules.ts';
import { newToken, sha256 } from '../panel/secrets.ts';
import { hashPassword } from '../sub-users/password.ts';
import type { Db } from '../types.ts';
import type { StaffPrincipal } from './principal.ts';

export const STAFF_LINK_TTL_S = 72 * 3600;

export interface IssuedStaffLink {
  url: string;
  expiresAt: Date;
}

async function issueLink(trx: Db, member: StaffMember, consoleUrl: string, now: Date): Promise<IssuedStaffLink> {
  const token = newToken();
  const expiresAt = new Date(now.getTime() + STAFF_LINK_TTL_S * 1000);
  await insertStaffLink(trx, { token_hash: sha256(token), staff_id: member.id, expires_at: expiresAt }, now);
  const link = { url: `${consoleUrl}/set-password/${token}`, expiresAt };
  await queueNotification(trx, {
    accountId: null,
    toEmail: member.email,
    kind: 'staff.invitation',
    subject: 'You are invited to the Hostcloud console',
    body: `You were invited to the Hostcloud operator console as ${member.email} (${member.role}).\n\n`
      + `Set your password here (the link works once, for ${STAFF_LINK_TTL_S / 3600} hours):\n${link.url}\n\n`
      + 'Then sign in with your email and that password; you will enrol an authenticator app at once.',
  });
  return link;
}

export async function inviteStaff(db: Db, input: { email: string; name: string; role: StaffRole }, consoleUrl: string, now: Date): Promise<{ member: StaffMember; link: IssuedStaffLink }> {
  return inTransaction(db, async (trx) => {
    const member = await insertStaffMember(trx, { id: `stf_${base62(16)}`, email: input.email.trim(), name: input.name.trim(), role: input.role });
    if (!member) throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', [{ field: 'email', code: 'INVALID', message: 'a staff member with this email already exists' }]);
    setCompanionTarget('staff', member.id);
    return { member, link: await issueLink(trx, member, consoleUrl, now) };
  });
}

export async function getStaff(db: Db, id: string): Promise<StaffMember> {
  const m = await findStaffMember(db, id);
  if (!m) throw notFound('Staff member');
  return m;
}

export async function listStaff(db: Db, f: StaffFilter, page: PageRequest): Promise<Paged<StaffMember>> {
  const { rows, total } = await listStaffMembers(db, f, page.perPage, offsetOf(page));
  return { items: rows, total, page: page.page, perPage: page.perPage };
}

/**
 * A member's name, role or status. A member does not change its own role or disable itself (an
 * owner would lock itself out by mistake; another owner or ADMIN_TOKEN does it). Disabling ends
 * every session and revokes every token of the member.
 */
export async function updateStaff(db: Db, actor: StaffPrincipal, id: string, patch: { name?: string; role?: StaffRole; status?: StaffStatus }, now: Date): Promise<StaffMember> {
  if (actor.id === id && (patch.role !== undefined || patch.status !== undefined)) {
    throw new ApiError('STATE_CONFLICT', 'You cannot change your own role or status; ask another owner');
  }
  return inTransaction(db, async (trx) => {
    const m = await lockStaffMember(trx, id);
    if (!m) throw notFound('Staff member');
    const updated = (await updateStaffMember(trx, id, { ...patch, ...(patch.name !== undefined ? { name: patch.name.trim() } : {}) }, now))!;
    if (patch.status === 'disabled' && m.status !== 'disabled') {
      await revokeMemberSessions(trx, id, now);
      await revokeMemberTokens(trx, id, now);
    }
    return updated;
  });
}

/** A new set-password link for a member who has none yet (a lost invitation). */
export async function reinviteStaff(db: Db, id: string, consoleUrl: string, now: Date): Promise<IssuedStaffLink> {
  return inTransaction(db, async (trx) => {
    const m = await lockStaffMember(trx, id);
    if (!m) throw notFound('Staff member');
    if (m.password_hash !== null) throw new ApiError('STATE_CONFLICT', `${m.email} already set a password`);
    return issueLink(trx, m, consoleUrl, now);
  });
}

/** Clears a member's two-factor and ends its sessions: it enrols again at its next sign-in. */
export async function resetTwoFactor(db: Db, actor: StaffPrincipal, id: string, now: Date): Promise<StaffMember> {
  if (actor.id === id) throw new ApiError('STATE_CONFLICT', 'Reset another member\'s two-factor, not your own (turn yours off from your own session)');
  return inTransaction(db, async (trx) => {
    const m = await lockStaffMember(trx, id);
    if (!m) throw notFound('Staff member');
    await replaceStaffRecoveryCodes(trx, id, []);
    await revokeMemberSessions(trx, id, now);
    return (await updateStaffMember(trx, id, { totp_secret: null, totp_enabled_at: null, totp_last_step: null }, now))!;
  });
}

const NOT_VALID = () => new ApiError('RESOURCE_NOT_FOUND', 'This link is not valid: check that it was copied whole');

/** Sets the first password through the invitation link, and spends it. */
export async function setStaffPassword(db: Db, token: string, password: string, now: Date): Promise<StaffMember> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw NOT_VALID();
  const link = await findStaffLink(db, sha256(token));
  if (!link) throw NOT_VALID();
  if (link.used_at) throw new ApiError('STATE_CONFLICT', 'This link was already used; sign in, or ask an owner for a new link');
  if (link.expires_at <= now) throw new ApiError('STATE_CONFLICT', 'This link has expired; ask an owner for a new one');
  const member = await findStaffMember(db, link.staff_id);
  if (!member) throw NOT_VALID();
  const errors = passwordErrors(password, member.email);
  if (errors.length) throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', errors);
  const hash = await hashPassword(password);
  return inTransaction(db, async (trx) => {
    if (!(await spendStaffLink(trx, sha256(token), now))) throw new ApiError('STATE_CONFLICT', 'This link was already used; sign in');
    await revokeMemberSessions(trx, member.id, now);
    return (await updateStaffMember(trx, member.id, { password_hash: hash }, now))!;
  });
}
