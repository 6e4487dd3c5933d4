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
