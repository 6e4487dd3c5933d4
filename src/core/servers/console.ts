// Console sessions. The platform hands out an opaque single-use ticket; the customer gets OUR URL
// around it, signed (src/core/signed-links.ts), so the platform's endpoint is never exposed and a
// link cannot be forged or stretched. Opening the link spends the ticket at the platform, which is
// what makes it single-use across every API process.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ComputeProvider } from '../../providers/compute/types.ts';
import type { Ctx } from '../context.ts';
import { ApiError } from '../errors.ts';
import { type LinkKind, LINK_TTL_S, type SignedLink, linkSigningKey, signLink, verifyLink } from '../signed-links.ts';
import type { Db } from '../types.ts';
import { liveRead, providerFailure, requireMachine } from './upstream.ts';

/** Lifetime of a console URL (300 seconds, as GET /v2/servers/{id}/console's description says). */
export const CONSOLE_TTL_S = LINK_TTL_S;

const CONSOLE_LINK: LinkKind = { label: 'console-v1', name: 'console link', renew: 'GET /servers/{id}/console' };

/** The shared signing key. Pass the pool, not a sandbox transaction: a key made there would be rolled back. */
export function consoleSigningKey(db: Db): Promise<Buffer> {
  return linkSigningKey(db);
}

/** The signed parts of a console link, as they arrive in its URL. */
export type ConsoleLink = SignedLink;

export interface ConsoleSession {
  viewerUrl: string;
  expiresAt: Date;
  expiresIn: number;
  /**
   * The session's VNC password, for clients that ask for one (v1 shows it): derived from the
   * ticket with the signing key, so it names this session only and needs no storage.
   */
  vncPassword: string;
}

/** A console URL for a running server. `publicUrl` is where this API is reached. */
export async function openConsoleSession(ctx: Ctx, serverId: string, key: Buffer, publicUrl: string): Promise<ConsoleSession> {
  const { server, ref } = await requireMachine(ctx, serverId);
  if (server.status !== 'active' || server.power_state !== 'running') {
    throw new ApiError('STATE_CONFLICT', `Server ${server.id} is ${server.status === 'active' ? server.power_state : server.status}; the console needs a running active server`);
  }
  const { ticket } = await liveRead(() => ctx.compute.openConsole(ref, CONSOLE_TTL_S), ctx.providerTimeoutMs, 'console');
  const { query, expiresAt } = signLink(key, CONSOLE_LINK, ticket, ctx.now, ctx.sandbox);
  // VNC authentication uses at most 8 characters of a password.
  const vncPassword = createHmac('sha256', key).update(`vnc:${ticket}`).digest('base64url').slice(0, 8);
  return { viewerUrl: `${publicUrl}/v2/console/${encodeURIComponent(ticket)}?${query}`, expiresAt, expiresIn: CONSOLE_TTL_S, vncPassword };
}

/**
 * Checks a link without opening it, for a HEAD (link previews, prefetchers): forged →
 * RESOURCE_NOT_FOUND, expired → STATE_CONFLICT, nothing spent. Whether a genuine, unexpired link
 * was already used only the platform knows, and asking it would be opening it: GET tells.
 */
export function checkConsoleLink(key: Buffer, link: ConsoleLink, now: Date): void {
  verifyLink(key, CONSOLE_LINK, link, now);
}

/**
 * Opens the console behind a link, once. A link we did not sign (tampered, made up) names no
 * session at all: RESOURCE_NOT_FOUND, telling a prober nothing. A genuine link past its expiry
 * or already used is a session in a state that cannot be opened: STATE_CONFLICT.
 */
export async function redeemConsoleLink(compute: ComputeProvider, key: Buffer, link: ConsoleLink, now: Date): Promise<{ sandbox: boolean }> {
  // A test key's link leads to no platform session; there is nothing to spend.
  if (verifyLink(key, CONSOLE_LINK, link, now).sandbox) return { sandbox: true };
  let redeemed: boolean;
  try {
    redeemed = await compute.redeemConsole(link.ticket);
  } catch (e) {
    throw providerFailure(e);
  }
  if (!redeemed) throw new ApiError('STATE_CONFLICT', 'This console link was already used (or its session ended); request a new one with GET /servers/{id}/console');
  return { sandbox: false };
}

/** How long the terminal page may take to attach after the link was opened. */
export const ATTACH_TTL_S = 60;

const attachMac = (key: Buffer, ticket: string, expires: number) => createHmac('sha256', key).update(`console-attach:${ticket}:${expires}`).digest('base64url');

/** The token the terminal page attaches with: bound to the ticket, good for ATTACH_TTL_S. */
export function attachToken(key: Buffer, ticket: string, now: Date): { expires: number; token: string } {
  const expires = Math.floor(now.getTime() / 1000) + ATTACH_TTL_S;
  return { expires, token: attachMac(key, ticket, expires) };
}

/** Whether an attach token is ours, for this ticket, and unexpired (the platform spends the attach). */
export function attachTokenValid(key: Buffer, ticket: string, expires: string, token: string, now: Date): boolean {
  const exp = Number(expires);
  if (!Number.isInteger(exp) || exp * 1000 < now.getTime()) return false;
  const want = Buffer.from(attachMac(key, ticket, exp));
  const got = Buffer.from(token);
  return want.length === got.length && timingSafeEqual(want, got);
}
