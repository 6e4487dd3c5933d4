// The hosting page's session on /v2: a request with no API key and the hc_hosting cookie of a used
// login link (core/hosting/page-sessions.ts) acts on that one hosting account, on the routes
// marked `hostingPage`, as the link's maker could — every other id is not found, every other route
// ignores the cookie. Its writes need a CSRF token bound to it (GET /panel/api/hosting-page gives
// the page one).
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../core/errors.ts';
import { type HostingPageIdentity, identifyHostingPage } from '../../core/hosting/page-sessions.ts';
import type { Access, Caller, Db, Scope } from '../../core/types.ts';
import { HOSTING_COOKIE } from '../hosting-cookie.ts';
import { cookiesOf } from './cookies.ts';

/** What a hosting page session's CSRF tokens are bound to (never a panel session's id). */
export const hostingCsrfBinding = (identity: HostingPageIdentity) => `hosting:${identity.publicId}`;

const sessions = new WeakMap<FastifyRequest, Promise<HostingPageIdentity | null>>();

/** The request's hosting page session, or null; read at most once per request. */
export function hostingPageOf(request: FastifyRequest, db: Db, now: Date): Promise<HostingPageIdentity | null> {
  let p = sessions.get(request);
  if (!p) {
    const token = cookiesOf(request)[HOSTING_COOKIE];
    p = token ? identifyHostingPage(db, token, now) : Promise.resolve(null);
    sessions.set(request, p);
  }
  return p;
}

export function hasHostingCookie(request: FastifyRequest): boolean {
  return request.headers.cookie !== undefined && cookiesOf(request)[HOSTING_COOKIE] !== undefined;
}

/**
 * The caller a hosting page session is on a route of its page: another hosting account's id is
 * not found (as for a key of another account), a write of a read-only session is refused.
 */
export function hostingPageCaller(identity: HostingPageIdentity, hostingId: string | undefined, access: Access): Caller {
  if (hostingId !== identity.hostingId) throw new ApiError('RESOURCE_NOT_FOUND', 'Web hosting account not found');
  if (access === 'write' && identity.access !== 'write') {
    throw new ApiError('AUTH_SCOPE_INSUFFICIENT', 'This hosting page is read-only: the login link was made by someone with hosting:read only');
  }
  const scopes: Scope[] = identity.access === 'write' ? ['hosting:read', 'hosting:write'] : ['hosting:read'];
  return { accountId: identity.accountId, keyId: null, scopes, sandbox: false, subUserId: identity.subUserId };
}
