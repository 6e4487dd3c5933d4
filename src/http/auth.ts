// The onRequest hook that runs before any body is read, in this order:
// identify the key → rate limit (headers on every response) → refuse if not authorised.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import { type Identity, authorize, identify, noteKeyUsed } from '../core/api-keys/authenticate.ts';
import type { KeyCache } from '../core/api-keys/key-cache.ts';
import { ApiError } from '../core/errors.ts';
import type { Access, Area, Caller, Db } from '../core/types.ts';
import { type AdminSecret, bearerOf, isAdminToken, sameSecret } from './bearer.ts';
import { checkCsrf, isWrite } from './panel/csrf.ts';
import { hasSessionCookie, refuseImpersonatedWrite, sessionCaller, sessionOf } from './panel/session-auth.ts';
import { adminCaller, authorizeAdmin, staffSessionOf } from './admin/staff-auth.ts';
import type { StaffPrincipal } from '../core/staff/principal.ts';
import { hasHostingCookie, hostingCsrfBinding, hostingPageCaller, hostingPageOf } from './panel/hosting-page-auth.ts';
import type { SessionSettings } from '../core/panel/sessions.ts';
import type { RateLimiter } from './rate-limit.ts';

/**
 * `metrics`: the admin token, or METRICS_TOKEN (which opens nothing else). `panel`: a signed-in
 * customer panel session; `panel-open`: the panel's routes that need none (sign-in, links). Both
 * panel modes refuse a write without its CSRF token. A `customer` route also takes a panel session
 * when no key is sent (the panel calls /v2 with its cookie). `admin`: ADMIN_TOKEN, a staff token or
 * a console session, whose role must hold the route's `right` (admin/staff-auth.ts); `staff-open`:
 * the console's sign-in routes (a write needs its CSRF token).
 */
export type AuthMode = 'customer' | 'admin' | 'staff-open' | 'metrics' | 'panel' | 'panel-open' | 'none';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call. Default: `customer` when `area` is set, else `none`. */
    auth?: AuthMode;
    /** The API area whose scope the route needs (GET → `<area>:read`, otherwise `<area>:write`). */
    area?: Area;
    /**
     * The access the route needs when its method does not say it: a read that hands out what
     * lets a resource leave the account (a domain's transfer code) needs `write`.
     */
    access?: Access;
    /**
     * Areas whose scope also admits the request, for a route serving several families (operations
     * of servers and of VDC VMs): the handler then checks the family of what it found.
     */
    alsoAreas?: readonly Area[];
    /** false exempts the route from rate limiting (health probes). Default true. */
    rateLimit?: boolean;
    /**
     * A route of a hosting account's page (`/web-hosting/:id/…`): a hosting page session (the
     * hc_hosting cookie of a used login link) also admits it, for that account's id only.
     */
    hostingPage?: boolean;
    /** Where a customer route reads the key: v2's `Authorization: Bearer` (default) or v1's `X-API-Key`. */
    credential?: 'bearer' | 'x-api-key';
  }
  interface FastifyRequest {
    /** The authenticated customer; null on admin and public routes. */
    caller: Caller | null;
  }
}

function bearer(request: FastifyRequest): string | null | undefined {
  return bearerOf(request.headers.authorization);
}


/**
 * The budget an unauthenticated caller draws on: its IPv4 address, or its IPv6 /64 (one host
 * usually owns a whole /64, so per-address budgets would be trivially multiplied).
 */
export function ipBudget(ip: string): string {
  try {
    const addr = ipaddr.process(ip);
    if (addr.kind() === 'ipv6') {
      const parts = (addr as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
      return `ip6:${parts.join(':')}::/64`;
    }
    return `ip:${addr.toString()}`;
  } catch {
    return `ip:${ip}`;
  }
}

const HOW = 'send the key as Authorization: Bearer <API_KEY>';

/** v1's header: undefined when absent, null when not one plain token (never echoed). */
function xApiKey(request: FastifyRequest): string | null | undefined {
  const h = request.headers['x-api-key'];
  if (h === undefined) return undefined;
  const m = typeof h === 'string' ? /^[ \t]*(\S+)[ \t]*$/.exec(h) : null;
  return m ? m[1]! : null;
}

/** No Authorization header: say where the key goes, naming what the client tried instead. */
function missingKey(request: FastifyRequest): ApiError {
  if (typeof (request.query as Record<string, unknown> | undefined)?.api_key === 'string') {
    return new ApiError('AUTH_REQUIRED', `The ?api_key= query parameter is not supported in v2; ${HOW}`);
  }
  if (request.headers['x-api-key'] !== undefined) {
    return new ApiError('AUTH_REQUIRED', `X-API-Key is the v1 header; in v2 ${HOW}`);
  }
  return new ApiError('AUTH_REQUIRED', `No API key was sent; ${HOW}`);
}

/** An Authorization header in another form ("Token …", "Basic …", a bare key). Never echoes the value. */
function notBearer(header: string): ApiError {
  const scheme = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)[ \t]+\S/.exec(header.trim())?.[1];
  if (/^bearer$/i.test(header.trim())) return new ApiError('AUTH_INVALID', `The Bearer token is empty; ${HOW}`);
  if (scheme && /^bearer$/i.test(scheme)) return new ApiError('AUTH_INVALID', `Bearer takes exactly one key; ${HOW}`);
  return new ApiError('AUTH_INVALID', scheme
    ? `The Authorization scheme "${scheme.slice(0, 20)}" is not supported; ${HOW}`
    : `The Authorization header has no scheme; ${HOW}`);
}


export interface AuthDeps {
  db: Db;
  rateLimiter: RateLimiter;
  adminToken: AdminSecret;
  /** METRICS_TOKEN: reads `metrics` routes only. */
  metricsToken?: string;
  now: () => Date;
  /** Known keys, so that authenticating costs no round trip (see key-cache.ts). */
  keys?: KeyCache;
  /** Customer panel sessions' idle and absolute limits. */
  panelSessions: SessionSettings;
}

export function registerAuth(app: FastifyInstance, deps: AuthDeps): void {
  // The operator is never throttled, but guessing is: wrong tokens spend a per-IP budget.
  const spendAdminFailure = async (request: FastifyRequest) => {
    const d = await deps.rateLimiter.consume(`admin-fail:${ipBudget(request.ip)}`);
    if (!d.allowed) throw new ApiError('RATE_LIMITED', `Too many failed admin logins; retry in ${d.resetS} s`, [], { retryAfterS: d.resetS });
  };
  app.decorateRequest('caller', null);
  app.decorateRequest('staff', null);
  const staffDeps = { db: deps.db, adminToken: deps.adminToken, now: deps.now, sessions: deps.panelSessions };

  app.addHook('onRequest', async (request, reply) => {
    const config = request.routeOptions.config ?? {};
    const mode: AuthMode = config.auth ?? (config.area ? 'customer' : 'none');

    if (mode === 'staff-open') {
      const identity = await staffSessionOf(request, staffDeps);
      if (isWrite(request)) checkCsrf(request, identity?.publicId ?? null);
      return;
    }
    if (mode === 'admin') {
      let principal: StaffPrincipal | null;
      try {
        principal = await adminCaller(request, staffDeps);
      } catch (e) {
        if (e instanceof ApiError && e.code === 'AUTH_IP_NOT_ALLOWED') await spendAdminFailure(request);
        throw e;
      }
      if (!principal) {
        await spendAdminFailure(request);
        throw new ApiError('AUTH_INVALID', 'The admin token or staff token is invalid');
      }
      request.staff = principal;
      authorizeAdmin(request, principal);
      return;
    }
    if (mode === 'metrics') {
      const token = bearer(request);
      if (token === undefined) throw new ApiError('AUTH_REQUIRED', 'Send METRICS_TOKEN (or the admin token) as Authorization: Bearer <TOKEN>');
      const accepted = token !== null && (isAdminToken(token, deps.adminToken) || (deps.metricsToken !== undefined && sameSecret(token, deps.metricsToken)));
      if (!accepted) {
        await spendAdminFailure(request);
        throw new ApiError('AUTH_INVALID', 'The token is invalid for /metrics');
      }
      return;
    }

    const v1 = config.credential === 'x-api-key';
    if (config.hostingPage && mode === 'customer' && request.headers.authorization === undefined && hasHostingCookie(request)) {
      const page = await hostingPageOf(request, deps.db, deps.now());
      // A page of another account's hosting (or an ended one) falls through to the panel session, if any.
      const id = (request.params as { id?: string } | undefined)?.id;
      if (page && (page.hostingId === id || !hasSessionCookie(request))) {
        if (config.rateLimit !== false) {
          const d = await deps.rateLimiter.consume(`hosting-page:${page.publicId}`);
          reply.header('RateLimit-Limit', d.limit).header('RateLimit-Remaining', d.remaining).header('RateLimit-Reset', d.resetS);
          if (!d.allowed) throw new ApiError('RATE_LIMITED', `Too many requests; retry in ${d.resetS} s`, [], { retryAfterS: d.resetS });
        }
        if (isWrite(request)) checkCsrf(request, hostingCsrfBinding(page));
        const access = config.access ?? (request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write');
        request.caller = hostingPageCaller(page, id, access);
        return;
      }
    }
    if (mode === 'panel' || mode === 'panel-open' || (mode === 'customer' && !v1 && request.headers.authorization === undefined && hasSessionCookie(request))) {
      const identity = await sessionOf(request, deps.db, deps.panelSessions, deps.now());
      if (config.rateLimit !== false) {
        const d = await deps.rateLimiter.consume(identity ? `panel:${identity.userId}` : ipBudget(request.ip));
        reply.header('RateLimit-Limit', d.limit).header('RateLimit-Remaining', d.remaining).header('RateLimit-Reset', d.resetS);
        if (!d.allowed) throw new ApiError('RATE_LIMITED', `Too many requests; retry in ${d.resetS} s`, [], { retryAfterS: d.resetS });
      }
      if (mode === 'panel-open') {
        if (isWrite(request)) checkCsrf(request, identity?.publicId ?? null);
        return;
      }
      if (!identity) throw new ApiError('AUTH_REQUIRED', mode === 'panel' ? 'Sign in to the panel first' : 'The panel session has ended; sign in again');
      if (isWrite(request)) checkCsrf(request, identity.publicId);
      const access = config.access ?? (request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write');
      // (A read that hands out what writes — a transfer code, a login link — counts as a write.)
      if (access === 'write' || isWrite(request)) refuseImpersonatedWrite(identity, config.impersonation);
      request.caller = sessionCaller(identity, config.area ? { areas: [config.area, ...config.alsoAreas ?? []], access } : undefined);
      return;
    }
    const token = v1 ? xApiKey(request) : bearer(request);
    let identity: Identity | null = null;
    if (token) identity = await identify(deps.db, token, deps.keys);

    if (config.rateLimit !== false) {
      // A key spends its own budget only when used from an address it allows: a leaked key used
      // from elsewhere spends that caller's IP budget and cannot exhaust the owner's.
      const ownBudget = identity !== null && identity.allows(request.ip);
      const d = await deps.rateLimiter.consume(ownBudget ? `key:${identity!.key.id}` : ipBudget(request.ip));
      reply.header('RateLimit-Limit', d.limit).header('RateLimit-Remaining', d.remaining).header('RateLimit-Reset', d.resetS);
      if (!d.allowed) {
        throw new ApiError('RATE_LIMITED', `Too many requests; retry in ${d.resetS} s`, [], { retryAfterS: d.resetS });
      }
    }

    if (mode === 'none') return;
    if (token === undefined) throw v1 ? new ApiError('AUTH_REQUIRED', 'No API key was sent; send it as X-API-Key: <API_KEY>') : missingKey(request);
    if (token === null) throw v1 ? new ApiError('AUTH_INVALID', 'The X-API-Key header must hold exactly one key') : notBearer(request.headers.authorization!);
    const access = config.access ?? (request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write');
    const area = [config.area!, ...config.alsoAreas ?? []].find((a) => identity?.key.scopes?.includes(`${a}:${access}`) ?? true) ?? config.area!;
    request.caller = authorize({ identity, ip: request.ip, area, access });
    noteKeyUsed(deps.db, request.caller.keyId!, deps.now());
  });
}
