// Requests that fail before routing (an undecodable URL, oversized headers, a broken
// Content-Length) still get the v2 error envelope, never a framework body.
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import { ApiError } from '../core/errors.ts';
import { errorBody } from './errors.ts';

/** Answers on the raw socket: the HTTP parser failed, so there is no request or reply object. */
export function clientErrorHandler(publicUrl: string) {
  return (err: Error & { code?: string }, socket: Socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const message = err.code === 'HPE_HEADER_OVERFLOW' ? 'The request headers are too large' : 'The request could not be read as HTTP';
    const id = `req_${randomBytes(10).toString('hex')}`;
    const body = JSON.stringify(errorBody(publicUrl, id, new ApiError('REQUEST_MALFORMED', message)));
    socket.end(
      `HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`
      + `X-Request-Id: ${id}\r\nConnection: close\r\n\r\n${body}`,
    );
  };
}
