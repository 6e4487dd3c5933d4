// EPP result codes (RFC 5730 §3) as the registrar's errors: what the customer can fix is a
// refusal (a 422 naming the field, or a failed operation with its refund); what the registry
// or the connection did wrong is a retryable provider error (the session is re-opened).
import { RegistrarError, type RegistrarRefusal } from '../types.ts';
import type { EppResponse } from './protocol.ts';

export const isSuccess = (code: number) => code >= 1000 && code < 2000;

/** What a failure code means for the command at hand. `about` names what was asked, for the message. */
export function failureOf(r: EppResponse, about: string, opts: { authCode?: boolean; field?: string } = {}): RegistrarError {
  const words = `${about}: ${r.code} ${r.message}${r.reason ? ` (${r.reason})` : ''}`;
  const refuse = (refusal: RegistrarRefusal, field = opts.field) => new RegistrarError(words, { refusal, field });
  switch (r.code) {
    case 2302: return refuse('unavailable');
    case 2303: return refuse('not_registered');
    case 2201: return opts.authCode ? refuse('auth_code_invalid', 'auth_code') : refuse('policy');
    case 2202: return refuse('auth_code_invalid', 'auth_code');
    case 2105: case 2106: return refuse('policy');
    case 2300: case 2301: case 2304: case 2305: case 2308: return refuse('policy');
    case 2003: case 2004: case 2005: case 2306: return refuse('policy');
    // Our own mistakes (a command the registry does not know, bad syntax): no retry fixes them.
    case 2000: case 2001: case 2002: case 2100: case 2101: case 2102: case 2103: case 2104:
      return new RegistrarError(words, { retryable: false });
    default:
      // 2400 command failed, 2500–2502 session ended, anything unknown: worth another try.
      return new RegistrarError(words, { retryable: true });
  }
}
