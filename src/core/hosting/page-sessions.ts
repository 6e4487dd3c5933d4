// Sessions of the customer's hosting page. A used login link (login.ts) starts one: it opens that
// one hosting account's page — its site, SFTP and databases — in the customer panel, with no panel
// password and nothing else of the account. It does what its link's maker could when making it
// (write for the owner and writers, read for a reader), never more than they can now: a sub-user
// deactivated, deleted or stripped of hosting:read ends it, one who lost hosting:write makes it
// read-only, and an account that is no longer active ends it. It lasts HOSTING_PAGE_SESSION_S from
// the link's use; the browser holds its token in a cookie and we keep only the token's hash.
import { deleteEndedHostingPageSessions, findHostingPageStanding, insertHostingPageSession } from '../../db/queries/hosting-page-sessions.ts';
import type { SpentLoginLink } from '../../db/queries/web-hosting.ts';
import type { HostingPageAccess } from '../../db/schema.ts';
import { newPublicId, newToken, sha256 } from '../panel/secrets.ts';
import type { Scope } from '../types.ts';
import type { Db } from '../types.ts';

/** How long a hosting page opened by a link works: an hour from the link's use. */
export const HOSTING_PAGE_SESSION_S = 3600;

export interface HostingPageIdentity {
  /** Binds the session's CSRF tokens. */
  publicId: string;
  hostingId: string;
  accountId: string;
  subUserId: number | null;
  access: HostingPageAccess;
  expiresAt: Date;
}

/** The access a caller with these scopes (null: every scope) gives a link it makes. */
export function linkAccess(scopes: readonly Scope[] | null): HostingPageAccess {
  return scopes === null || scopes.includes('hosting:write') ? 'write' : 'read';
}

/** Starts the session of a link just spent (in the caller's transaction): the cookie's token. */
export async function startHostingPageSession(db: Db, link: SpentLoginLink, accountId: string, now: Date): Promise<{ token: string; expiresAt: Date }> {
  await deleteEndedHostingPageSessions(db, now);
  const token = newToken();
  const expiresAt = new Date(now.getTime() + HOSTING_PAGE_SESSION_S * 1000);
  await insertHostingPageSession(db, {
    id: sha256(token), public_id: newPublicId(), hosting_id: link.hosting_id, account_id: accountId,
    sub_user_id: link.sub_user_id, access: link.access, created_at: now, expires_at: expiresAt,
  });
  return { token, expiresAt };
}

/** The session a cookie's token names while it may still act, else null. */
export async function identifyHostingPage(db: Db, token: string, now: Date): Promise<HostingPageIdentity | null> {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const s = await findHostingPageStanding(db, sha256(token));
  if (!s || s.expires_at <= now || s.account_status !== 'active') return null;
  let access = s.access;
  if (s.sub_user_id !== null) {
    const held = s.sub_user_permissions ?? [];
    if (s.sub_user_deleted || s.sub_user_status !== 'active' || !held.includes('hosting:read')) return null;
    if (!held.includes('hosting:write')) access = 'read';
  }
  return { publicId: s.public_id, hostingId: s.hosting_id, accountId: s.account_id, subUserId: s.sub_user_id, access, expiresAt: s.expires_at };
}
