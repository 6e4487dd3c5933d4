// Control-panel login. The customer gets OUR signed link (src/core/signed-links.ts, like the
// server console's), valid 300 seconds and single-use; opening it spends its row in
// hosting_login_links (one UPDATE, so one opener wins across every API process) and only then asks
// the panel for its own single-use SSO URL, which the browser is redirected to. The panel's URL is
// fetched at that moment, not when the link is made, because panel sessions are short-lived; and
// it is never shown to anyone who has not used our link.
import { findWebHostingById, deleteExpiredLoginLinks, findOpenLoginLink, insertLoginLink, spendLoginLink, unspendLoginLink } from '../../db/queries/web-hosting.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { HostingPanel } from '../../providers/hosting/types.ts';
import type { Ctx } from '../context.ts';
import { ApiError } from '../errors.ts';
import { suspendedConflict } from '../billing/suspension.ts';
import { type LinkKind, LINK_TTL_S, type SignedLink, newTicket, signLink, verifyLink } from '../signed-links.ts';
import type { Db } from '../types.ts';
import { panelCall } from './panel-calls.ts';
import { requireHosting } from './read.ts';

const LOGIN_LINK: LinkKind = { label: 'hosting-login-v1', name: 'login link', renew: 'GET /web-hosting/{id}/login' };

export interface HostingLogin {
  id: string;
  username: string;
  loginUrl: string;
  expiresAt: Date;
  note: string;
}

/** A login link for an active account. `publicUrl` is where this API is reached. */
export async function hostingLoginLink(ctx: Ctx, id: string, key: Buffer, publicUrl: string): Promise<HostingLogin> {
  const hosting = await requireHosting(ctx, id);
  if (hosting.status !== 'active' || !hosting.username) {
    throw new ApiError('STATE_CONFLICT', suspendedConflict('Web hosting', id, hosting.status) ?? `Web hosting ${id} is ${hosting.status}; only an active account can log in to its control panel`);
  }
  const ticket = newTicket();
  const { query, expiresAt } = signLink(key, LOGIN_LINK, ticket, ctx.now, ctx.sandbox);
  // A test key's link leads to no panel session: nothing to record (the sandbox keeps nothing anyway).
  if (!ctx.sandbox) {
    await inTransaction(ctx.db, async (trx) => {
      await deleteExpiredLoginLinks(trx, id);
      await insertLoginLink(trx, ticket, id, expiresAt);
    });
  }
  return {
    id,
    username: hosting.username,
    loginUrl: `${publicUrl}/v2/web-hosting-login/${ticket}?${query}`,
    expiresAt,
    note: `Opens the control panel on ${hosting.server_hostname} logged in as ${hosting.username}. `
      + `The link works once, within ${LINK_TTL_S} seconds, in a browser and without an API key.`,
  };
}

export interface LoginLinkDeps {
  db: Db;
  hosting: HostingPanel;
  providerTimeoutMs: number;
}

/**
 * Checks a link without opening it, for a HEAD (link previews, prefetchers): the errors opening it
 * would give now — forged, expired, used, the account no longer active — and nothing spent.
 */
export async function checkHostingLoginLink(db: Db, key: Buffer, link: SignedLink, now: Date): Promise<void> {
  if (verifyLink(key, LOGIN_LINK, link, now).sandbox) return;
  const hostingId = await findOpenLoginLink(db, link.ticket);
  if (!hostingId) throw new ApiError('STATE_CONFLICT', `This login link was already used; request a new one with ${LOGIN_LINK.renew}`);
  const hosting = await findWebHostingById(db, hostingId);
  if (!hosting || hosting.status !== 'active' || !hosting.panel_ref) {
    throw new ApiError('STATE_CONFLICT', `Web hosting ${hostingId} is ${hosting?.status ?? 'gone'}; only an active account can log in to its control panel`);
  }
}

/**
 * Opens the panel behind a link, once: the panel's SSO URL to redirect to, or `sandbox` for a test
 * key's link. Forged → RESOURCE_NOT_FOUND; expired or used, or the account no longer active →
 * STATE_CONFLICT; the panel failing → UPSTREAM_ERROR, and the link may be used again.
 */
export async function openHostingLoginLink(deps: LoginLinkDeps, key: Buffer, link: SignedLink, now: Date): Promise<{ sandbox: true } | { sandbox: false; url: string }> {
  if (verifyLink(key, LOGIN_LINK, link, now).sandbox) return { sandbox: true };
  const hostingId = await spendLoginLink(deps.db, link.ticket);
  if (!hostingId) throw new ApiError('STATE_CONFLICT', `This login link was already used; request a new one with ${LOGIN_LINK.renew}`);
  const hosting = await findWebHostingById(deps.db, hostingId);
  if (!hosting || hosting.status !== 'active' || !hosting.panel_ref) {
    throw new ApiError('STATE_CONFLICT', `Web hosting ${hostingId} is ${hosting?.status ?? 'gone'}; only an active account can log in to its control panel`);
  }
  const ref = hosting.panel_ref;
  try {
    const session = await panelCall(() => deps.hosting.ssoUrl(ref), deps.providerTimeoutMs, 'login');
    return { sandbox: false, url: session.url };
  } catch (e) {
    // The customer never reached the panel: the link is theirs to try again while it lasts.
    await unspendLoginLink(deps.db, link.ticket).catch(() => undefined);
    throw e;
  }
}
