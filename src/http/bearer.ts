// The admin token's check, shared by the API's auth hook and the worker's metrics listener (which
// has no Fastify).
import { createHash, timingSafeEqual } from 'node:crypto';

/** The token of `Authorization: Bearer <token>`: undefined without the header, null when it is not that form. */
export function bearerOf(h: string | undefined): string | null | undefined {
  if (h === undefined) return undefined;
  const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(h);
  return m ? m[1]! : null;
}

/** Equal secrets, compared in constant time (of their digests, so lengths do not leak either). */
export function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/**
 * The admin token as a process knows it: the token itself (ADMIN_TOKEN, tests), or only the
 * SHA-256 the installation keeps in its database (a generated token, which only the process that
 * made it ever held in full).
 */
export type AdminSecret = string | { sha256: string };

/** The SHA-256 of a token, hex: what the database keeps of a generated admin token. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** `token` is the admin token, compared in constant time. */
export function isAdminToken(token: string, secret: AdminSecret): boolean {
  if (typeof secret === 'string') return sameSecret(token, secret);
  const given = createHash('sha256').update(token).digest();
  const kept = Buffer.from(secret.sha256, 'hex');
  return kept.length === given.length && timingSafeEqual(given, kept);
}
