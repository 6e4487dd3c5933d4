// Signed single-use links: URLs of ours that a browser opens without an API key (the server
// console, the web-hosting control-panel login). The URL carries an opaque ticket and its expiry,
// signed with HMAC-SHA256, so a link cannot be forged or stretched, and the upstream system's own
// address is never exposed before the link is used. What makes a link single-use is the caller's:
// spending its ticket once (at the platform for a console, in our table for a panel login).
//
// The signing key lives in the database (app_secrets), made with the database (migration 0002):
// every API process signs and checks alike with no setting to keep in sync, and it survives
// restarts. Each process caches it; deleting the row rotates it at the next restart. Every kind of
// link signs under a label of its own, so a ticket of one kind is never accepted as another.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { findOrCreateSecret } from '../db/queries/app-secrets.ts';
import { withoutCompanion } from '../db/transaction.ts';
import { ApiError } from './errors.ts';
import type { Db } from './types.ts';

/** Lifetime of every signed link (a console URL's 300 seconds, also the panel login's). */
export const LINK_TTL_S = 300;

// Named after its first user, the console; renaming it would rotate the key of running installations.
const KEY_NAME = 'console_signing_key';
const keys = new WeakMap<Db, Promise<Buffer>>();

/** The shared signing key. Pass the pool, not a sandbox transaction: a key made there would be rolled back. */
export function linkSigningKey(db: Db): Promise<Buffer> {
  let key = keys.get(db);
  if (!key) {
    // Made once per installation, whatever becomes of the request that needed it first: not part of its audit row's transaction.
    key = withoutCompanion(() => findOrCreateSecret(db, KEY_NAME, randomBytes(32).toString('hex'))).then((hex) => Buffer.from(hex, 'hex'));
    key.catch(() => keys.delete(db));
    keys.set(db, key);
  }
  return key;
}

/** The signed parts of a link, as they arrive in its URL. */
export interface SignedLink {
  ticket: string;
  expires: string;
  signature: string;
  /** "1" on links made by a test key: opening them reaches no upstream system. */
  sandbox?: string;
}

/** A kind of link: the label it is signed under, and how its errors name it. */
export interface LinkKind {
  /** Signed into every link of the kind, e.g. `console-v1`. */
  label: string;
  /** "console link" */
  name: string;
  /** Where a new link is asked for: "GET /servers/{id}/console". */
  renew: string;
}

function sign(key: Buffer, kind: LinkKind, ticket: string, expires: string, sandbox: boolean): string {
  return createHmac('sha256', key).update(`${kind.label}\n${ticket}\n${expires}\n${sandbox ? 'sandbox' : 'live'}`).digest('hex');
}

/** A fresh random ticket: 24 bytes, URL-safe. */
export function newTicket(): string {
  return randomBytes(24).toString('base64url');
}

/** The link's query (`expires`, `sandbox` for a test key, `signature`) and when it expires. */
export function signLink(key: Buffer, kind: LinkKind, ticket: string, now: Date, sandbox: boolean): { query: URLSearchParams; expiresAt: Date } {
  // Whole seconds: the expiry travels as a unix time in the URL.
  const expiresUnix = Math.floor(now.getTime() / 1000) + LINK_TTL_S;
  const expires = String(expiresUnix);
  const query = new URLSearchParams({ expires, ...(sandbox ? { sandbox: '1' } : {}), signature: sign(key, kind, ticket, expires, sandbox) });
  return { query, expiresAt: new Date(expiresUnix * 1000) };
}

function validSignature(key: Buffer, kind: LinkKind, link: SignedLink): boolean {
  if (!/^[0-9a-f]{64}$/.test(link.signature) || !/^\d{1,12}$/.test(link.expires)) return false;
  if (link.sandbox !== undefined && link.sandbox !== '1') return false;
  const expected = Buffer.from(sign(key, kind, link.ticket, link.expires, link.sandbox === '1'), 'hex');
  return timingSafeEqual(expected, Buffer.from(link.signature, 'hex'));
}

/**
 * Checks a link before it is spent. A link we did not sign (tampered, made up, another kind's)
 * names nothing at all: RESOURCE_NOT_FOUND, telling a prober nothing. A genuine link past its
 * expiry cannot be opened: STATE_CONFLICT. Says whether it is a test key's link.
 */
export function verifyLink(key: Buffer, kind: LinkKind, link: SignedLink, now: Date): { sandbox: boolean } {
  if (!validSignature(key, kind, link)) throw new ApiError('RESOURCE_NOT_FOUND', `This ${kind.name} is not valid`);
  if (now.getTime() >= Number(link.expires) * 1000) {
    throw new ApiError('STATE_CONFLICT', `This ${kind.name} has expired; request a new one with ${kind.renew}`);
  }
  return { sandbox: link.sandbox === '1' };
}
