// Every string a client sends must be text PostgreSQL can store and a client can read back:
// valid Unicode (no lone UTF-16 surrogate, which JSON's \ud800 escapes can produce) and no NUL.
// Checked at the door, for every route, naming the field; never left to fail deep in a query
// (jsonb refuses a lone surrogate, text refuses NUL) as a 500.
//
// Bytes are decoded strictly: a body must be UTF-8 JSON (Content-Type application/json, with no
// charset or charset=utf-8), and bytes that are not UTF-8 — in the body or percent-encoded in the
// query string — are a malformed request (400), never silently replaced with U+FFFD.
import { parse as parseContentType } from 'fast-content-type-parse';
import fastQuerystring from 'fast-querystring';
import secureJson from 'secure-json-parse';
import { ApiError, type FieldError } from '../core/errors.ts';

declare global {
  interface String {
    // ES2024, in Node 20; the project's TypeScript lib is ES2023.
    isWellFormed(): boolean;
    toWellFormed(): string;
  }
}

function problemOf(s: string): string | null {
  if (!s.isWellFormed()) return 'is not valid Unicode text (it holds a lone UTF-16 surrogate)';
  if (s.includes('\u0000')) return 'must not contain the NUL character';
  return null;
}

/** `a.b[0].c`, as schema errors name fields (validation.ts). */
function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return parent === '' ? key : `${parent}.${key}`;
}

/**
 * Every string and object key in `value` that is not storable text, one FieldError each (a field
 * name that is itself bad is shown with U+FFFD in place of the bad part).
 */
export function textProblems(value: unknown, path = ''): FieldError[] {
  const out: FieldError[] = [];
  const walk = (v: unknown, at: string) => {
    if (typeof v === 'string') {
      const problem = problemOf(v);
      if (problem) out.push({ field: at.toWellFormed() || 'body', code: 'INVALID', message: problem });
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, childPath(at, i)));
    } else if (typeof v === 'object' && v !== null) {
      for (const [k, item] of Object.entries(v)) {
        const keyProblem = problemOf(k);
        if (keyProblem) out.push({ field: childPath(at, k).toWellFormed(), code: 'INVALID', message: `the field name ${keyProblem}` });
        walk(item, childPath(at, k));
      }
    }
  };
  walk(value, path);
  return out;
}

export function refuseBadText(value: unknown, path = ''): void {
  const problems = textProblems(value, path);
  if (problems.length) throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', problems);
}

/** How deep a body's arrays and objects may nest (the API's deepest body is 3 levels). */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether JSON text nests arrays/objects deeper than `max`, counting brackets outside strings in
 * one pass. Run before parsing so that no recursive walk (ours, Ajv's, a serializer's) ever meets
 * a body nested thousands deep; malformed text is left to JSON.parse to refuse.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  // Fewer characters than max + 1 opening brackets cannot nest deeper.
  if (text.length <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character (\" or \\)
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

const UNSUPPORTED = 'Send the request body as UTF-8 JSON: Content-Type: application/json (optionally ; charset=utf-8)';
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The JSON body parser: the charset, then strict UTF-8, then the nesting depth, then JSON (no
 * __proto__ / constructor tricks), then the text of every string and key. An empty body is no body (actions without one).
 */
export function parseJsonBody(contentType: string | undefined, raw: Buffer): unknown {
  let charset: string | undefined;
  try {
    charset = parseContentType(contentType ?? '').parameters.charset;
  } catch {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `The Content-Type header could not be read. ${UNSUPPORTED}`);
  }
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `charset=${charset} is not accepted. ${UNSUPPORTED}`);
  }
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw new ApiError('REQUEST_MALFORMED', 'The request body is not valid UTF-8');
  }
  if (text.trim() === '') return undefined;
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new ApiError('REQUEST_MALFORMED', `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`);
  }
  let body: unknown;
  try {
    body = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    throw new ApiError('REQUEST_MALFORMED', 'The request body is not valid JSON');
  }
  refuseBadText(body);
  return body;
}

/**
 * A form body (application/x-www-form-urlencoded, the simulated checkout page's): the charset,
 * strict UTF-8 of the bytes and of every percent-encoded name and value, then their text.
 */
export function parseFormBody(contentType: string | undefined, raw: Buffer): Record<string, unknown> {
  let charset: string | undefined;
  try {
    charset = parseContentType(contentType ?? '').parameters.charset;
  } catch {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'The Content-Type header could not be read');
  }
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `charset=${charset} is not accepted: send the form as UTF-8`);
  }
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw new ApiError('REQUEST_MALFORMED', 'The request body is not valid UTF-8');
  }
  const form = parseQueryString(text);
  refuseMalformedUrl(`?${text}`, form);
  refuseBadText(form);
  return { ...form };
}

const MALFORMED = Symbol('hostcloud.malformedQuery');

/**
 * Fastify's own query parser (fast-querystring) keeps a value it cannot decode as the raw
 * "%ED%A0%80" — a silent repair. This one parses the same way and marks the parameters whose
 * percent-encoding is not UTF-8 (or is broken, like a bare "%"); refuseMalformedUrl answers 400.
 * A parser cannot answer itself: an exception thrown here would escape the request.
 */
export function parseQueryString(raw: string): Record<string, unknown> {
  const parsed = fastQuerystring.parse(raw) as Record<string, unknown>;
  const bad: string[] = [];
  for (const part of raw.split('&')) {
    if (!part.includes('%')) continue;
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      const name = part.split('=')[0]!;
      let shown = name;
      try {
        shown = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // The name itself is undecodable: show it as sent.
      }
      bad.push(shown);
    }
  }
  if (bad.length) Object.defineProperty(parsed, MALFORMED, { value: bad, enumerable: false });
  return parsed;
}

/**
 * A URL must be ASCII with UTF-8 percent-encoding (RFC 3986). Raw bytes above 0x7F are read by
 * Node as Latin-1, which would silently turn "é" into "Ã©", so they are refused; so are query
 * values whose percent-encoding is not UTF-8 (the path's are refused by the router already).
 */
export function refuseMalformedUrl(url: string, query: unknown): void {
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(url)) {
    throw new ApiError('REQUEST_MALFORMED', 'The URL must be ASCII; percent-encode other characters as UTF-8');
  }
  const bad = (query as Record<symbol, string[] | undefined> | null)?.[MALFORMED];
  if (bad?.length) {
    throw new ApiError('REQUEST_MALFORMED', `The query parameter${bad.length > 1 ? 's' : ''} ${bad.join(', ')} ${bad.length > 1 ? 'are' : 'is'} not validly percent-encoded UTF-8`);
  }
}
