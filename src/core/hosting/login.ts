// Control-panel login. The customer gets OUR signed link (src/core/signed-links.ts, like the
// server console's), valid 300 seconds and single-use; opening it spends its row in
// hosting_login_links (one UPDATE, so one opener wins across every API process) and starts a
// hosting page session (page-sessions.ts): the browser lands on that account's hosting page in
// the customer panel, signed in to it alone, with no panel password. The link remembers who made
// it, so the page can do what they could: a reader's link opens a read-only page.
import type { HostingPageAccess } from '../../db/schema.ts';
import { findWebHostingById, deleteExpiredLoginLinks, findOpenLoginLink, insertLoginLink, spendLoginLink } from '../../db/queries/web-hosting.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Ctx } from '../context.ts';
import { ApiError } from '../errors.ts';
import { suspendedConflict } from '../billing/suspension.ts';
import { type LinkKind, LINK_TTL_S, type SignedLink, newTicket, signLink, verifyLink } from '../signed-links.ts';
import type { Db } from '../types.ts';
import { startHostingPageSession } from './page-sessions.ts';
import { requireHosting } from './read.ts';

const LOGIN_LINK: LinkKind = { label: 'hosting-login-v1', name: 'login link', renew: 'GET /web-hosting/{id}/login' };

export interface HostingLogin {
  id: string;
  username: string;
  loginUrl: string;
  expiresAt: Date;
  note: string;
}

/** Who makes a link: what the page it opens may do, and the sub-user (null: the account itself). */
export interface LinkMaker {
  access: HostingPageAccess;
  subUserId: number | null;
}

/** A login link for an active account. `publicUrl` is where this API is reached. */
export async function hostingLoginLink(ctx: Ctx, id: string, key: Buffer, publicUrl: string, maker: LinkMaker): Promise<HostingLogin> {
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
      await insertLoginLink(trx, ticket, id, expiresAt, maker);
    });
  }
  return {
    id,
    username: hosting.username,
    loginUrl: `${publicUrl}/v2/web-hosting-login/${ticket}?${query}`,
    expiresAt,
    note: `Opens the hosting page of ${hosting.domain} (on ${hosting.server_hostname}, user ${hosting.username}) in the customer panel`
      + `${maker.access === 'read' ? ', read-only' : ''}, without a password. `
      + `The link works once, within ${LINK_TTL_S} seconds, in a browser and without an API key.`,
  };
}

/**
 * Checks a link without opening it, for a HEAD (link previews, prefetchers): the errors opening it
 * would give now — forged, expired, used, the account no longer active — and nothing spent.
 */
export async function checkHostingLoginLink(db: Db, key: Buffer, link: SignedLink, now: Date): Promise<void> {
  if (verifyLink(key, LOGIN_LINK, link, now).sandbox) return;
  const hostingId = await findOpenLoginLink(db, link.ticket);
  if (!hostingId) throw new ApiError('STATE_CONFLICT', `This login link was already used; request a new one with ${LOGIN_LINK.renew}`);
  await requireActive(db, hostingId);
}

async function requireActive(db: Db, hostingId: string): Promise<{ accountId: string }> {
  const hosting = await findWebHostingById(db, hostingId);
  if (!hosting || hosting.status !== 'active' || !hosting.panel_ref) {
    throw new ApiError('STATE_CONFLICT', `Web hosting ${hostingId} is ${hosting?.status ?? 'gone'}; only an active account can log in to its control panel`);
  }
  return { accountId: hosting.account_id };
}

export type OpenedLoginLink =
  | { sandbox: true }
  | { sandbox: false; hostingId: string; token: string; expiresAt: Date };

/**
 * Opens a link, once: the hosting page session it starts (the cookie's token), or `sandbox` for a
 * test key's link. Forged → RESOURCE_NOT_FOUND; expired or used, or the account no longer active →
 * STATE_CONFLICT.
 */
export async function openHostingLoginLink(db: Db, key: Buffer, link: SignedLink, now: Date): Promise<OpenedLoginLink> {
  if (verifyLink(key, LOGIN_LINK, link, now).sandbox) return { sandbox: true };
  return inTransaction(db, async (trx) => {
    const spent = await spendLoginLink(trx, link.ticket);
    if (!spent) throw new ApiError('STATE_CONFLICT', `This login link was already used; request a new one with ${LOGIN_LINK.renew}`);
    const { accountId } = await requireActive(trx, spent.hosting_id);
    const session = await startHostingPageSession(trx, spent, accountId, now);
    return { sandbox: false as const, hostingId: spent.hosting_id, ...session };
  });
}
