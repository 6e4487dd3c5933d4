// What every panel route file is given, and the helpers they share.
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../core/errors.ts';
import type { ClientMeta, PanelIdentity, SessionSettings } from '../../core/panel/sessions.ts';
import type { RouteDeps } from '../route-types.ts';
import { sessionOf } from './session-auth.ts';
import type { SignInThrottle, ThrottleKey } from '../../core/panel/throttle.ts';
import { ipBudget } from '../auth.ts';

export interface PanelDeps extends RouteDeps {
  sessions: SessionSettings;
  throttle: SignInThrottle;
}

/** The panel's own address: where mailed links point. */
export function panelUrl(deps: Pick<RouteDeps, 'config'>): string {
  return `${deps.config.publicUrl}/panel`;
}

export function clientMeta(request: FastifyRequest): ClientMeta {
  const ua = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof ua === 'string' ? ua : '' };
}

/** The throttle's key of the client's address (an IPv6 /64 counts as one). */
export function addressKey(request: FastifyRequest): ThrottleKey {
  return `addr:${ipBudget(request.ip)}`;
}

/** The signed-in session of a `panel` route (the auth hook has refused any request without one). */
export async function identityOf(request: FastifyRequest, deps: PanelDeps): Promise<PanelIdentity> {
  const identity = await sessionOf(request, deps.db, deps.sessions, deps.now());
  if (!identity) throw new ApiError('AUTH_REQUIRED', 'Sign in to the panel first');
  return identity;
}

/** Who the person is, for a notice ("Ada Lovelace (ada@example.com) invited you…"). */
export function inviterName(identity: PanelIdentity): string {
  return identity.email;
}
