// Staff API tokens: `hc_staff_<40 base62>`, one or more per member, acting with the member's role
// (as it is at each request), optionally only from an IP allowlist. Only an owner makes or
// revokes tokens of another member; the secret is answered once and kept as a SHA-256.
import { findStaffMember } from '../../db/queries/staff.ts';
import { findStaffToken, findTokenByHash, insertStaffToken, listStaffTokens, noteStaffTokenUsed, revokeStaffTokenRow } from '../../db/queries/staff-tokens.ts';
import type { StaffToken } from '../../db/schema.ts';
import { compileAllowlist, normaliseEntry } from '../api-keys/ip-allowlist.ts';
import { MAX_ALLOWLIST_ENTRIES } from '../api-keys/rules.ts';
import { hashSecret } from '../api-keys/secret.ts';
import { ApiError, type FieldError, notFound } from '../errors.ts';
import { base62 } from '../ids.ts';
import { inTransaction, setCompanionTarget } from '../../db/transaction.ts';
import type { Db } from '../types.ts';
import { type StaffPrincipal, mayActOn } from './principal.ts';

export const STAFF_TOKEN_PATTERN = /^hc_staff_[0-9A-Za-z]{40}$/;

export async function createStaffToken(db: Db, actor: StaffPrincipal, staffId: string, input: { name: string; ipAllowlist?: string[] }): Promise<{ token: StaffToken; secret: string }> {
  mayActOn(actor, staffId);
  const member = await findStaffMember(db, staffId);
  if (!member) throw notFound('Staff member');
  if (member.status !== 'active') throw new ApiError('STATE_CONFLICT', `${member.email} is disabled`);
  const errors: FieldError[] = [];
  let entries: string[] | null = null;
  if (input.ipAllowlist !== undefined) {
    entries = [];
    if (input.ipAllowlist.length === 0) errors.push({ field: 'ip_allowlist', code: 'INVALID', message: 'leave it out for no restriction, or name at least one address or range' });
    if (input.ipAllowlist.length > MAX_ALLOWLIST_ENTRIES) errors.push({ field: 'ip_allowlist', code: 'INVALID', message: `at most ${MAX_ALLOWLIST_ENTRIES} entries` });
    input.ipAllowlist.forEach((raw, i) => {
      const e = normaliseEntry(raw);
      if (e === null) errors.push({ field: `ip_allowlist[${i}]`, code: 'INVALID', message: `"${raw}" is not an IP address or CIDR range` });
      else if (!entries!.includes(e)) entries!.push(e);
    });
  }
  if (input.name.trim() === '') errors.push({ field: 'name', code: 'INVALID', message: 'must not be blank' });
  if (errors.length) throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', errors);
  const secret = `hc_staff_${base62(40)}`;
  const token = await inTransaction(db, async (trx) => {
    const row = await insertStaffToken(trx, {
      id: `stt_${base62(16)}`, staff_id: staffId, name: input.name.trim(), prefix: secret.slice(0, 13), token_hash: hashSecret(secret), ip_allowlist: entries,
    });
    setCompanionTarget('staff_token', row.id);
    return row;
  });
  return { token, secret };
}

export async function listTokensOf(db: Db, actor: StaffPrincipal, staffId: string): Promise<StaffToken[]> {
  mayActOn(actor, staffId);
  if (!(await findStaffMember(db, staffId))) throw notFound('Staff member');
  return listStaffTokens(db, staffId);
}

export async function revokeStaffToken(db: Db, actor: StaffPrincipal, id: string, now: Date): Promise<StaffToken> {
  const token = await findStaffToken(db, id);
  // Another member's token is not found for a non-owner: its id says nothing about it.
  if (!token || (actor.role !== 'owner' && actor.id !== token.staff_id)) throw notFound('Staff token');
  return (await inTransaction(db, (trx) => revokeStaffTokenRow(trx, id, now)))!;
}

/**
 * The principal a presented token is, or why not: null when it is no live token of an active
 * member; AUTH_IP_NOT_ALLOWED from an address its allowlist does not hold.
 */
export async function identifyStaffToken(db: Db, secret: string, ip: string, now: Date): Promise<StaffPrincipal | null> {
  if (!STAFF_TOKEN_PATTERN.test(secret)) return null;
  const found = await findTokenByHash(db, hashSecret(secret));
  if (!found || found.member.status !== 'active') return null;
  if (found.token.ip_allowlist && !compileAllowlist(found.token.ip_allowlist)(ip)) {
    throw new ApiError('AUTH_IP_NOT_ALLOWED', `This staff token is not allowed from ${ip}`);
  }
  noteStaffTokenUsed(db, found.token.id, now).catch(() => {});
  return { type: 'staff', id: found.member.id, email: found.member.email, role: found.member.role, via: 'token' };
}
