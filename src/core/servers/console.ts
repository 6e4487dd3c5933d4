// Console sessions. The platform hands out an opaque single-use ticket; the customer gets OUR URL
// around it, signed (HMAC-SHA256) over the ticket and its expiry, so the platform's endpoint is
// never exposed and a link cannot be forged or stretched. Opening the link spends the ticket at
// the platform, which is what makes it single-use across every API process.
//
// The signing key lives in the database (app_secrets), created by the first process that needs
// it: every API process signs and checks alike with no setting to keep in sync, and it survives
// restarts. Each process caches it; deleting the row rotates it at the next restart.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { findOrCreateSecret } from '../../db/queries/app-secrets.ts';
import type { ComputeProvider } from '../../providers/compute/types.ts';
import type { Ctx } from '../context.ts';
import { ApiError } from '../errors.ts';
import type { Db } from '../types.ts';
import { liveRead, providerFailure, requireMachine } from './upstream.ts';

/** Lifetime of a console URL (the spec's limit). */
export const CONSOLE_TTL_S = 300;

const KEY_NAME = 'console_signing_key';
const keys = new WeakMap<Db, Promise<Buffer>>();

/** The shared signing key. Pass the pool, not a sandbox transaction: a key made there would be rolled back. */
export function consoleSigningKey(db: Db): Promise<Buffer> {
  let key = keys.get(db);
  if (!key) {
    key = findOrCreateSecret(db, KEY_NAME, randomBytes(32).toString('hex')).then((hex) => Buffer.from(hex, 'hex'));
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}

/** The signed parts of a console link, as they arrive in its URL. */
export interface ConsoleLink {
  ticket: string;
  expires: string;
  signature: string;
  /** "1" on links made by a test key: opening them calls no platform. */
  sandbox?: string;
}

function sign(key: Buffer, ticket: string, expires: string, sandbox: boolean): string {
  return createHmac('sha256', key).update(`console-v1\n${ticket}\n${expires}\n${sandbox ? 'sandbox' : 'live'}`).digest('hex');
}

export interface ConsoleSession {
  viewerUrl: string;
  expiresAt: Date;
  expiresIn: number;
}

/** A console URL for a running server. `publicUrl` is where this API is reached. */
export async function openConsoleSession(ctx: Ctx, serverId: string, key: Buffer, publicUrl: string): Promise<ConsoleSession> {
  const { server, ref } = await requireMachine(ctx, serverId);
  if (server.status !== 'active' || server.power_state !== 'running') {
    throw new ApiError('STATE_CONFLICT', `Server ${server.id} is ${server.status === 'active' ? server.power_state : server.status}; the console needs a running active server`);
  }
  const { ticket } = await liveRead(() => ctx.compute.openConsole(ref, CONSOLE_TTL_S), ctx.providerTimeoutMs, 'console');
  // Whole seconds: the expiry travels as a unix time in the URL.
  const expiresUnix = Math.floor(ctx.now.getTime() / 1000) + CONSOLE_TTL_S;
  const expires = String(expiresUnix);
  const query = new URLSearchParams({ expires, ...(ctx.sandbox ? { sandbox: '1' } : {}), signature: sign(key, ticket, expires, ctx.sandbox) });
  return { viewerUrl: `${publicUrl}/v2/console/${encodeURIComponent(ticket)}?${query}`, expiresAt: new Date(expiresUnix * 1000), expiresIn: CONSOLE_TTL_S };
}

function validSignature(key: Buffer, link: ConsoleLink): boolean {
  if (!/^[0-9a-f]{64}$/.test(link.signature) || !/^\d{1,12}$/.test(link.expires)) return false;
  if (link.sandbox !== undefined && link.sandbox !== '1') return false;
  const expected = Buffer.from(sign(key, link.ticket, link.expires, link.sandbox === '1'), 'hex');
  return timingSafeEqual(expected, Buffer.from(link.signature, 'hex'));
}

/**
 * Opens the console behind a link, once. A link we did not sign (tampered, made up) names no
 * session at all: RESOURCE_NOT_FOUND, telling a prober nothing. A genuine link past its expiry
 * or already used is a session in a state that cannot be opened: STATE_CONFLICT.
 */
export async function redeemConsoleLink(compute: ComputeProvider, key: Buffer, link: ConsoleLink, now: Date): Promise<{ sandbox: boolean }> {
  if (!validSignature(key, link)) throw new ApiError('RESOURCE_NOT_FOUND', 'This console link is not valid');
  if (now.getTime() >= Number(link.expires) * 1000) {
    throw new ApiError('STATE_CONFLICT', 'This console link has expired; request a new one with GET /servers/{id}/console');
  }
  // A test key's link leads to no platform session; there is nothing to spend.
  if (link.sandbox === '1') return { sandbox: true };
  let redeemed: boolean;
  try {
    redeemed = await compute.redeemConsole(link.ticket);
  } catch (e) {
    throw providerFailure(e);
  }
  if (!redeemed) throw new ApiError('STATE_CONFLICT', 'This console link was already used (or its session ended); request a new one with GET /servers/{id}/console');
  return { sandbox: false };
}
