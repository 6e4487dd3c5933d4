// What a handled command answers (before it becomes a <response>), and the result codes of RFC 5730 §3 the registry uses.
import type { BuildEl } from '../xml.ts';

export interface Answer {
  code: number;
  msg?: string;
  /** extValue/reason: why a command failed, in words. */
  reason?: string;
  resData?: BuildEl;
}

export const MESSAGES: Record<number, string> = {
  1000: 'Command completed successfully',
  1001: 'Command completed successfully; action pending',
  1300: 'Command completed successfully; no messages',
  1301: 'Command completed successfully; ack to dequeue',
  1500: 'Command completed successfully; ending session',
  2001: 'Command syntax error',
  2002: 'Command use error',
  2003: 'Required parameter missing',
  2004: 'Parameter value range error',
  2005: 'Parameter value syntax error',
  2101: 'Unimplemented command',
  2106: 'Object is not eligible for transfer',
  2200: 'Authentication error',
  2201: 'Authorization error',
  2202: 'Invalid authorization information',
  2300: 'Object pending transfer',
  2301: 'Object not pending transfer',
  2302: 'Object exists',
  2303: 'Object does not exist',
  2304: 'Object status prohibits operation',
  2305: 'Object association prohibits operation',
  2306: 'Parameter value policy error',
  2400: 'Command failed',
  2501: 'Authentication error; server closing connection',
  2502: 'Session limit exceeded; server closing connection',
};

export const ok = (resData?: BuildEl, code = 1000): Answer => ({ code, resData });
export const fail = (code: number, reason?: string): Answer => ({ code, reason });

/** Thrown by a handler to answer with a failure code. */
export class Refuse extends Error {
  constructor(readonly code: number, readonly reason?: string) {
    super(reason ?? MESSAGES[code] ?? String(code));
  }
}

export const eppDate = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, '.0Z');
