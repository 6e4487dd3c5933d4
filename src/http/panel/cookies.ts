// The panel's two cookies, read and written with the `cookie` package (jshttp):
//  - hc_session: the session token. HttpOnly, SameSite=Lax, Path=/ (the panel calls /v2 with it),
//    Secure when the panel is reached over https;
//  - hc_csrf: the secret the CSRF tokens are made from (csrf.ts). HttpOnly, SameSite=Strict;
// (hc_hosting, a hosting page session's token, is ../hosting-cookie.ts's: v2 sets it.)
// Neither is readable by scripts; the CSRF token itself travels in JSON and in X-CSRF-Token.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parse, serialize } from 'cookie';

export const SESSION_COOKIE = 'hc_session';
/** The operator console's staff session (the same rules, its own cookie). */
export const STAFF_SESSION_COOKIE = 'hc_staff_session';
export const CSRF_COOKIE = 'hc_csrf';

const parsed = new WeakMap<FastifyRequest, Record<string, string | undefined>>();

export function cookiesOf(request: FastifyRequest): Record<string, string | undefined> {
  let c = parsed.get(request);
  if (!c) {
    const header = request.headers.cookie;
    c = header ? parse(header) : {};
    parsed.set(request, c);
  }
  return c;
}

/** Over https (directly, or behind a trusted proxy, or as PUBLIC_URL says) cookies are Secure. */
export function isSecure(request: FastifyRequest, publicUrl: string): boolean {
  return request.protocol === 'https' || publicUrl.startsWith('https:');
}

function append(reply: FastifyReply, value: string): void {
  const prev = reply.getHeader('set-cookie');
  const list = prev === undefined ? [] : Array.isArray(prev) ? prev : [String(prev)];
  reply.header('set-cookie', [...list, value]);
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, publicUrl: string, token: string, maxAgeS: number, name = SESSION_COOKIE): void {
  append(reply, serialize(name, token, { httpOnly: true, sameSite: 'lax', secure: isSecure(request, publicUrl), path: '/', maxAge: maxAgeS }));
  // What this request reads from now on (a sign-in answers with the new session's state).
  cookiesOf(request)[name] = token;
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply, publicUrl: string, name = SESSION_COOKIE): void {
  append(reply, serialize(name, '', { httpOnly: true, sameSite: 'lax', secure: isSecure(request, publicUrl), path: '/', maxAge: 0 }));
  delete cookiesOf(request)[name];
}

export function setCsrfCookie(request: FastifyRequest, reply: FastifyReply, publicUrl: string, secret: string): void {
  append(reply, serialize(CSRF_COOKIE, secret, { httpOnly: true, sameSite: 'strict', secure: isSecure(request, publicUrl), path: '/', maxAge: 400 * 86_400 }));
  cookiesOf(request)[CSRF_COOKIE] = secret;
}

