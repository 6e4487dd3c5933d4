// The customer panel at /panel: its page and assets, and its own JSON API under /panel/api (the
// parts v2 leaves to a panel: sign-in, two-factor, sessions, API keys, profile, sub-user
// invitations). Everything else the page does, it does through /v2 with its session cookie
// (auth.ts). One file per endpoint below; the page's own structure is in panel/src.
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../core/errors.ts';
import { sendAsset } from '../static-asset.ts';
import { type UndocumentedError, applyRouteConventions, checkDocumentedErrors } from '../route-conventions.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import type { RateLimiter } from '../rate-limit.ts';
import { panelBundle, panelPage } from './assets.ts';
import { panelBrand, registerLogo } from './branding.ts';
import { CLIENT_PAGE_HEADERS } from '../client-bundle.ts';
import type { PanelDeps } from './deps.ts';
import { sessionSettings } from './session-auth.ts';
import { createSignInThrottle } from '../../core/panel/throttle.ts';
import * as beginTwoFactor from './api/begin-two-factor.ts';
import * as createApiKey from './api/create-api-key.ts';
import * as disableTwoFactor from './api/disable-two-factor.ts';
import * as endSession from './api/end-session.ts';
import * as openImpersonation from './api/open-impersonation.ts';
import * as enableTwoFactor from './api/enable-two-factor.ts';
import * as getTwoFactor from './api/get-two-factor.ts';
import * as inviteSubUser from './api/invite-sub-user.ts';
import * as listApiKeys from './api/list-api-keys.ts';
import * as listSubUsers from './api/list-sub-users.ts';
import * as regenerateRecoveryCodes from './api/regenerate-recovery-codes.ts';
import * as reinviteSubUser from './api/reinvite-sub-user.ts';
import * as revokeApiKey from './api/revoke-api-key.ts';
import * as changePassword from './api/change-password.ts';
import * as getLink from './api/get-link.ts';
import * as getMe from './api/get-me.ts';
import * as hostingPage from './api/hosting-page.ts';
import * as listSessions from './api/list-sessions.ts';
import * as requestPasswordReset from './api/request-password-reset.ts';
import * as revokeSession from './api/revoke-session.ts';
import * as serverDeletePreview from './api/server-delete-preview.ts';
import * as setLinkPassword from './api/set-link-password.ts';
import * as signIn from './api/sign-in.ts';
import * as signInCode from './api/sign-in-code.ts';
import * as signOut from './api/sign-out.ts';
import * as signUp from './api/sign-up.ts';
import * as updateProfile from './api/update-profile.ts';
import * as verifyEmail from './api/verify-email.ts';

const ROUTES: { register(app: TypedApp, deps: PanelDeps): void }[] = [
  getMe, signIn, signInCode, signOut, endSession, openImpersonation, signUp, requestPasswordReset,
  getLink, setLinkPassword, verifyEmail,
  changePassword, listSessions, revokeSession,
  getTwoFactor, beginTwoFactor, enableTwoFactor, disableTwoFactor, regenerateRecoveryCodes,
  listApiKeys, createApiKey, revokeApiKey, updateProfile,
  listSubUsers, inviteSubUser, reinviteSubUser, serverDeletePreview, hostingPage,
];

export interface PanelOptions extends RouteDeps {
  rateLimiter: RateLimiter;
  onUndocumentedError?: (e: UndocumentedError) => void;
}

const PAGE_HEADERS = CLIENT_PAGE_HEADERS;

export async function registerPanel(app: FastifyInstance, opts: PanelOptions): Promise<void> {
  // (Unknown query parameters are refused on every /panel/api route by app.ts, as on the APIs.)
  app.addHook('onRoute', (r) => {
    if (r.url.startsWith('/panel/api/')) applyRouteConventions(r);
  });
  if (opts.onUndocumentedError) checkDocumentedErrors(app, opts.onUndocumentedError);
  const deps: PanelDeps = { ...opts, sessions: sessionSettings(opts.config), throttle: createSignInThrottle(opts.db, opts.now) };
  for (const r of ROUTES) r.register(app as TypedApp, deps);

  // An unknown /panel/api path is an API 404, never the page.
  app.all('/api/*', async (request) => {
    throw new ApiError('ENDPOINT_NOT_FOUND', `No endpoint ${request.method} ${request.url.split('?')[0]}`);
  });

  app.get('/assets/app.js', { config: { rateLimit: false } }, async (request, reply) => sendAsset(request, reply, (await panelBundle()).js));
  app.get('/assets/app.css', { config: { rateLimit: false } }, async (request, reply) => sendAsset(request, reply, (await panelBundle()).css));
  registerLogo(app, opts.db);
  // Every other path under /panel is a page of the panel: the same document, which routes itself,
  // with the branding as it is now.
  const servePage = async (request: Parameters<typeof sendAsset>[0], reply: Parameters<typeof sendAsset>[1]) => {
    reply.headers(PAGE_HEADERS);
    const [bundle, brand] = await Promise.all([panelBundle(), panelBrand(opts.db)]);
    return sendAsset(request, reply, panelPage(bundle, brand));
  };
  app.get('/', { config: { rateLimit: false } }, servePage);
  app.get('/*', { config: { rateLimit: false } }, servePage);
}
