// CSRF protection of every write the panel makes (its own /panel/api and /v2 with a session), on
// @fastify/csrf: a secret in the HttpOnly hc_csrf cookie, tokens made from it and bound to the
// session (or to "signed-out" before sign-in, so sign-in itself is protected), sent back in the
// X-CSRF-Token header. A cross-site page can neither read a token nor set the header.
import type { FastifyReply, FastifyRequest } from 'fastify';
import Tokens from '@fastify/csrf';
import { ApiError } from '../../core/errors.ts';
import { CSRF_COOKIE, cookiesOf, setCsrfCookie } from './cookies.ts';

// The typings pick the overload without userInfo for a plain call; this is the userInfo kind.
const tokens = Tokens({ userInfo: true }) as unknown as Tokens.TokensUserinfo;
export const CSRF_HEADER = 'x-csrf-token';
const SIGNED_OUT = 'signed-out';

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isWrite(request: FastifyRequest): boolean {
  return !SAFE.has(request.method);
}

/** A token for the page to send with its writes (a secret cookie is set first if there is none). */
export function csrfToken(request: FastifyRequest, reply: FastifyReply, publicUrl: string, sessionPublicId: string | null): string {
  const had = cookiesOf(request)[CSRF_COOKIE];
  let secret: string;
  if (had && /^[A-Za-z0-9_-]{20,64}$/.test(had)) secret = had;
  else {
    secret = tokens.secretSync();
    setCsrfCookie(request, reply, publicUrl, secret);
  }
  return tokens.create(secret, sessionPublicId ?? SIGNED_OUT);
}

/** Refuses a write whose X-CSRF-Token is missing or not made for this browser and session. */
export function checkCsrf(request: FastifyRequest, sessionPublicId: string | null): void {
  const secret = cookiesOf(request)[CSRF_COOKIE];
  const header = request.headers[CSRF_HEADER];
  const token = typeof header === 'string' ? header : undefined;
  if (!token) throw new ApiError('CSRF_TOKEN_INVALID', 'This write needs the X-CSRF-Token header: reload the panel and try again');
  if (!secret || !tokens.verify(secret, token, sessionPublicId ?? SIGNED_OUT)) {
    throw new ApiError('CSRF_TOKEN_INVALID', 'The CSRF token is not valid for this session: reload the panel and try again');
  }
}
