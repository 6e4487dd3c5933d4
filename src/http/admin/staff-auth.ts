// Who calls the admin API, and whether the route lets that role: ADMIN_TOKEN (the installation's
// bootstrap owner), a staff token (hc_staff_…, the member's role, its IP allowlist), or a console
// session (the hc_staff_session cookie; its writes carry the CSRF token). Each admin route names
// its right in its config (`right`); this is the one check of it.
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../core/errors.ts';
import type { SessionSettings } from '../../core/panel/sessions.ts';
import { ADMIN_TOKEN_PRINCIPAL, type StaffPrincipal } from '../../core/staff/principal.ts';
import { type AdminRight, requirePermission } from '../../core/staff/roles.ts';
import { type StaffIdentity, identifyStaffSession } from '../../core/staff/sessions.ts';
import { identifyStaffToken } from '../../core/staff/tokens.ts';
import type { Db } from '../../core/types.ts';
import { type AdminSecret, bearerOf, isAdminToken } from '../bearer.ts';
import { STAFF_SESSION_COOKIE, cookiesOf } from '../panel/cookies.ts';
import { checkCsrf, isWrite } from '../panel/csrf.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The admin right the route needs (core/staff/roles.ts): GET → `<right>:read`, otherwise
     * `<right>:write` (or `access`). Every admin route names one; one without does not start.
     */
    right?: AdminRight;
  }
  interface FastifyRequest {
    /** Who called an admin route (set by the auth hook); null elsewhere. */
    staff: StaffPrincipal | null;
  }
}

export interface StaffAuthDeps {
  db: Db;
  adminToken: AdminSecret;
  now: () => Date;
  sessions: SessionSettings;
}

const sessions = new WeakMap<FastifyRequest, Promise<StaffIdentity | null>>();

/** The request's console session (any stage), or null; read at most once per request. */
export function staffSessionOf(request: FastifyRequest, deps: Pick<StaffAuthDeps, 'db' | 'now' | 'sessions'>): Promise<StaffIdentity | null> {
  let p = sessions.get(request);
  if (!p) {
    const token = cookiesOf(request)[STAFF_SESSION_COOKIE];
    p = token ? identifyStaffSession(deps.db, token, deps.now(), deps.sessions) : Promise.resolve(null);
    sessions.set(request, p);
  }
  return p;
}

export function forgetStaffSession(request: FastifyRequest): void {
  sessions.delete(request);
}

/** A session principal, once the session is full. */
export function sessionPrincipal(identity: StaffIdentity): StaffPrincipal {
  return { type: 'staff', id: identity.member.id, email: identity.member.email, role: identity.member.role, via: 'session' };
}

/**
 * The caller of an admin route, or null when the bearer token is wrong (the caller then spends
 * its failure budget). Throws AUTH_REQUIRED without any credential.
 */
export async function adminCaller(request: FastifyRequest, deps: StaffAuthDeps): Promise<StaffPrincipal | null> {
  const token = bearerOf(request.headers.authorization);
  if (token === undefined) {
    if (cookiesOf(request)[STAFF_SESSION_COOKIE] === undefined) {
      throw new ApiError('AUTH_REQUIRED', 'Send the admin token or a staff token as Authorization: Bearer <TOKEN>, or sign in to the console');
    }
    const identity = await staffSessionOf(request, deps);
    if (!identity) throw new ApiError('AUTH_REQUIRED', 'The console session has ended; sign in again');
    if (identity.stage !== 'full') {
      throw new ApiError('AUTH_INVALID', identity.stage === 'enrol' ? 'Enrol your authenticator app first' : 'Finish signing in: enter the code of your authenticator app');
    }
    if (isWrite(request)) checkCsrf(request, identity.publicId);
    return sessionPrincipal(identity);
  }
  if (token === null) return null;
  if (isAdminToken(token, deps.adminToken)) return ADMIN_TOKEN_PRINCIPAL;
  if (token.startsWith('hc_staff_')) return identifyStaffToken(deps.db, token, request.ip, deps.now());
  return null;
}

/** 403 unless the caller's role holds the route's permission. */
export function authorizeAdmin(request: FastifyRequest, principal: StaffPrincipal): void {
  const config = request.routeOptions.config ?? {};
  if (!config.right) throw new Error(`${request.method} ${request.routeOptions.url}: an admin route without a right`);
  const access = config.access ?? (request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write');
  requirePermission(principal.role, `${config.right}:${access}`);
}
