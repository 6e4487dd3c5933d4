// Who is calling, and may they? Split in two so the HTTP layer can rate-limit per key between
// finding the key and refusing the request (a refused request still counts against its budget).
import { ApiError } from '../errors.ts';
import { findKeyByHash, touchApiKey } from '../../db/queries/api-keys.ts';
import type { Access, Area, Caller, Db, Scope } from '../types.ts';
import { subUserAccess } from '../sub-users/access.ts';
import { compileAllowlist } from './ip-allowlist.ts';
import type { Identity, KeyCache } from './key-cache.ts';

export type { Identity } from './key-cache.ts';
import { KEY_PATTERN, hashSecret } from './secret.ts';


/**
 * The key a token names, if it exists and is not revoked. Never throws for a bad token. With a
 * cache, a known key costs no round trip (and no hashing).
 */
export async function identify(db: Db, token: string, cache?: KeyCache): Promise<Identity | null> {
  const cached = cache?.get(token);
  if (cached) return cached;
  if (!KEY_PATTERN.test(token)) return null;
  const generation = cache?.generation ?? 0;
  const found = await findKeyByHash(db, hashSecret(token));
  if (!found || found.key.revoked_at) return null;
  const su = found.subUser;
  // Deleting a sub-user revokes its keys; a key that raced the delete is treated the same.
  if (su?.deleted_at) return null;
  const subUser = su && { id: su.id, status: su.status, permissions: su.permissions, deleted: false };
  const identity = { key: found.key, accountStatus: found.account.status, subUser, allows: compileAllowlist(found.key.ip_allowlist) };
  cache?.set(token, identity, generation);
  return identity;
}

export interface AuthorizeInput {
  identity: Identity | null;
  ip: string;
  area: Area;
  access: Access;
}

/** The checks in one fixed order (key, IP allowlist, account status, scope): a request gets the first that fails. */
export function authorize({ identity, ip, area, access }: AuthorizeInput): Caller {
  if (!identity) throw new ApiError('AUTH_INVALID', 'The API key is invalid or has been revoked');
  const { key } = identity;
  if (!identity.allows(ip)) {
    throw new ApiError('AUTH_IP_NOT_ALLOWED', `Requests from ${ip} are not allowed for this API key`);
  }
  if (identity.accountStatus !== 'active') {
    throw new ApiError('ACCOUNT_INACTIVE', `The account is ${identity.accountStatus}`);
  }
  const needed: Scope = `${area}:${access}`;
  const granted = subUserAccess(key.scopes as Scope[] | null, identity.subUser);
  if (!granted.allowed) {
    throw new ApiError('AUTH_SCOPE_INSUFFICIENT', `This API key's ${granted.reason}: its keys can do nothing until it is active`);
  }
  const { scopes } = granted;
  if (scopes !== null && !scopes.includes(needed)) {
    throw new ApiError('AUTH_SCOPE_INSUFFICIENT', identity.subUser
      ? `This API key (of sub-user ${identity.subUser.id}) lacks the scope ${needed}: its scopes and the sub-user's permissions must both grant it`
      : `This API key lacks the scope ${needed}`);
  }
  return { accountId: key.account_id, keyId: key.id, scopes, sandbox: key.is_test, subUserId: identity.subUser?.id ?? null };
}

// last_used_at is a hint, not an audit log: write it at most once a minute per key and process,
// so authentication stays a single read on the hot path.
const TOUCH_INTERVAL_MS = 60_000;
const touched = new Map<string, number>();

export function noteKeyUsed(db: Db, keyId: string, now: Date): void {
  const last = touched.get(keyId) ?? 0;
  if (now.getTime() - last < TOUCH_INTERVAL_MS) return;
  touched.set(keyId, now.getTime());
  if (touched.size > 100_000) touched.clear();
  touchApiKey(db, keyId, now).catch(() => touched.delete(keyId));
}
