// Requests that fail before routing (an undecodable URL, raw bytes in it, oversized headers, a
// broken Content-Length) still get the envelope of the API their path names — v1's under /v1,
// v2's everywhere else — and the RateLimit-* headers: the auth hook never ran for them, so each
// spends its address's budget here, as any request that reaches no route does.
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import { ApiError } from '../core/errors.ts';
import { ERROR_CODES } from './error-codes.ts';
import { errorBody, hintHeaders } from './errors.ts';
import { type RateDecision, type RateLimiter, rateLimitHeaders, rateLimited } from './rate-limit.ts';
import { v1ErrorBody, v1Mapping } from './v1/errors.ts';

/** Whether a request target is under /v1 (`//v1/…` too: the router does not fold slashes, so it reaches no route). */
export function isV1Url(url: string): boolean {
  return /^\/+v1(?:[/?#]|$)/.test(url);
}

/** The request target of a request line that could not be parsed (Node keeps the bytes it read). */
function targetOf(err: { rawPacket?: unknown }): string {
  const raw = Buffer.isBuffer(err.rawPacket) ? err.rawPacket.subarray(0, 2048).toString('latin1') : '';
  return /^[A-Z]+ +(\S+)/.exec(raw)?.[1] ?? '';
}

/** Spends the address's budget; null when the limiter cannot say (the answer goes out without the headers). */
export async function spendAddressBudget(rateLimiter: RateLimiter, budget: string): Promise<RateDecision | null> {
  try {
    return await rateLimiter.consume(budget);
  } catch {
    return null;
  }
}

/** Answers on the raw socket: the HTTP parser failed, so there is no request or reply object. */
export function clientErrorHandler(publicUrl: string, rateLimiter: RateLimiter, budgetOf: (ip: string) => string) {
  return (err: Error & { code?: string; rawPacket?: unknown }, socket: Socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const target = targetOf(err);
    let api = new ApiError('REQUEST_MALFORMED', err.code === 'HPE_HEADER_OVERFLOW' ? 'The request headers are too large' : 'The request could not be read as HTTP');
    // eslint-disable-next-line no-control-regex
    if (/[^\x00-\x7f]/.test(target)) api = new ApiError('REQUEST_MALFORMED', 'The URL must be ASCII; percent-encode other characters as UTF-8');
    void spendAddressBudget(rateLimiter, budgetOf(socket.remoteAddress ?? '')).then((d) => {
      if (!socket.writable) return socket.destroy();
      if (d && !d.allowed) api = rateLimited(d);
      const id = `req_${randomBytes(10).toString('hex')}`;
      const v1 = isV1Url(target);
      const body = JSON.stringify(v1 ? v1ErrorBody(id, api) : errorBody(publicUrl, id, api));
      const status = v1 ? v1Mapping(api.code).status : ERROR_CODES[api.code].status;
      const headers = { ...(d ? rateLimitHeaders(d) : {}), ...hintHeaders(api) };
      socket.end(
        `HTTP/1.1 ${status} ${status === 429 ? 'Too Many Requests' : 'Bad Request'}\r\nContent-Type: application/json; charset=utf-8\r\n`
        + `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${id}\r\n`
        + Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')
        + `Connection: close\r\n\r\n${body}`,
      );
    });
  };
}
