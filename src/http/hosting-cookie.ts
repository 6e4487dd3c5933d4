// The hc_hosting cookie: a hosting page session's token, set when a login link is used (v2) and
// read by the panel's hosting page auth (panel/hosting-page-auth.ts). HttpOnly, SameSite=Lax,
// Path=/ (the page calls /v2 and /panel/api with it), Secure over https — as the panel's session.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { serialize } from 'cookie';

export const HOSTING_COOKIE = 'hc_hosting';

function write(request: FastifyRequest, reply: FastifyReply, publicUrl: string, value: string, maxAgeS: number): void {
  const secure = request.protocol === 'https' || publicUrl.startsWith('https:');
  const prev = reply.getHeader('set-cookie');
  const list = prev === undefined ? [] : Array.isArray(prev) ? prev : [String(prev)];
  reply.header('set-cookie', [...list, serialize(HOSTING_COOKIE, value, { httpOnly: true, sameSite: 'lax', secure, path: '/', maxAge: maxAgeS })]);
}

export function setHostingCookie(request: FastifyRequest, reply: FastifyReply, publicUrl: string, token: string, maxAgeS: number): void {
  write(request, reply, publicUrl, token, maxAgeS);
}

export function clearHostingCookie(request: FastifyRequest, reply: FastifyReply, publicUrl: string): void {
  write(request, reply, publicUrl, '', 0);
}
