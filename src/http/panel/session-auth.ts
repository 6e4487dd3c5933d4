// Who a panel request is: the session its hc_session cookie names (read once per request), and
// what that session may do — on the panel's own routes and on /v2, where a session stands in for
// an API key: the owner has every scope, a sub-user its permissions (exactly as through its keys).
import type { FastifyRequest } from 'fastify';
import { type PanelIdentity, type SessionSettings, identifySession, standingProblem } from '../../core/panel/sessions.ts';
import { ApiError } from '../../core/errors.ts';
import { subUserAccess } from '../../core/sub-users/access.ts';
import type { Access, Area, Caller, Db, Scope } from '../../core/types.ts';
import type { Config } from '../../config.ts';
import { SESSION_COOKIE, cookiesOf } from './cookies.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * How a write meets a staff member signed in as the customer (an impersonation): by default a
     * read-only one is refused and a write-capable one goes through; `always` lets even a
     * read-only one through (ending the session); `never` refuses every one (the person's own
     * password and two-factor, which stay the person's).
     */
    impersonation?: 'always' | 'never';
  }
}

export function sessionSettings(config: Pick<Config, 'panelSessionIdleS' | 'panelSessionMaxS'>): SessionSettings {
  return { idleS: config.panelSessionIdleS, maxS: config.panelSessionMaxS };
}

const identities = new WeakMap<FastifyRequest, Promise<PanelIdentity | null>>();

/** The request's session (any stage), or null; read at most once per request. */
export function sessionOf(request: FastifyRequest, db: Db, settings: SessionSettings, now: Date): Promise<PanelIdentity | null> {
  let p = identities.get(request);
  if (!p) {
    const token = cookiesOf(request)[SESSION_COOKIE];
    p = token ? identifySession(db, token, now, settings) : Promise.resolve(null);
    identities.set(request, p);
  }
  return p;
}

/** Forgets the request's session (after a sign-in or sign-out changed it). */
export function forgetSession(request: FastifyRequest): void {
  identities.delete(request);
}

/** A request with no Authorization header but a session cookie is the panel's. */
export function hasSessionCookie(request: FastifyRequest): boolean {
  return request.headers.cookie !== undefined && cookiesOf(request)[SESSION_COOKIE] !== undefined;
}

/** The scopes a session holds: all for the owner, the sub-user's permissions otherwise. */
export function sessionScopes(identity: PanelIdentity): Scope[] | null {
  const granted = subUserAccess(null, identity.subUser);
  if (!granted.allowed) throw new ApiError('ACCOUNT_INACTIVE', `Your access to this account has ended (${granted.reason})`);
  return granted.scopes;
}

/** The caller a full session is, refused as a key would be (account inactive, sub-user without the scope). */
export function sessionCaller(identity: PanelIdentity, need?: { areas: readonly Area[]; access: Access }): Caller {
  if (identity.stage !== 'full') throw new ApiError('AUTH_INVALID', 'Finish signing in: enter the code of your authenticator app');
  const problem = standingProblem({
    account_status: identity.accountStatus,
    sub_user_id: identity.subUser?.id ?? null,
    sub_user_status: identity.subUser?.status ?? null,
    sub_user_deleted: identity.subUser?.deleted ?? false,
  });
  if (problem) throw problem.code === 'AUTH_INVALID' ? new ApiError('AUTH_INVALID', 'The session has ended; sign in again') : problem;
  const scopes = sessionScopes(identity);
  if (need && scopes !== null) {
    const wanted = need.areas.map((a) => `${a}:${need.access}` as Scope);
    if (!wanted.some((s) => scopes.includes(s))) {
      throw new ApiError('AUTH_SCOPE_INSUFFICIENT', `Your permissions on this account do not include ${wanted[0]}; ask the account's owner`);
    }
  }
  return { accountId: identity.accountId, keyId: null, scopes, sandbox: false, subUserId: identity.subUser?.id ?? null };
}

/**
 * The one check of what an impersonation session may write (auth.ts calls it for every write made
 * with a panel session, on the panel's routes and on /v2): 403 AUTH_SCOPE_INSUFFICIENT, saying so.
 */
export function refuseImpersonatedWrite(identity: PanelIdentity, rule: 'always' | 'never' | undefined): void {
  const imp = identity.impersonation;
  if (!imp || rule === 'always') return;
  if (rule === 'never') {
    throw new ApiError('AUTH_SCOPE_INSUFFICIENT', `Staff signed in as the customer (${imp.staffName}) never change the person's own password or two-factor`);
  }
  if (imp.readOnly) {
    throw new ApiError('AUTH_SCOPE_INSUFFICIENT', `Read-only staff session: ${imp.staffName} signed in as the customer may look but not change anything (the ${imp.staffRole} role does not write to customers' accounts)`);
  }
}
