// Verifying a webhook delivery as the Standard Webhooks specification signs it: headers
// `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature` (space-separated
// `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, keyed with the secret's decoded bytes;
// two while a rotated secret overlaps the old one). WebCrypto does the HMAC, so this runs in
// Node 20+, browsers, Deno and workers alike; the comparison is crypto.subtle.verify's.
import type { Event } from './types.js';

export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

/** Headers as fetch gives them, or as Node's IncomingMessage does (lower-case keys). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** How far the timestamp may be from now, either way. Default 300 s. */
  toleranceS?: number;
  /** The clock (tests). */
  now?: () => Date;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const rec = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(rec).find((k) => k.toLowerCase() === name);
  const v = key === undefined ? undefined : rec[key];
  return Array.isArray(v) ? v.join(' ') : v;
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    const bin = atob(text);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

/**
 * Checks a delivery and returns its event. `secret` is the endpoint's `whsec_…` secret; `body`
 * the raw request body exactly as received (parse it only afterwards: re-serialised JSON does
 * not verify). Throws WebhookVerificationError when a header is missing, the timestamp is out
 * of tolerance (a replay), or no signature matches.
 */
export async function verifyWebhook(secret: string, headers: WebhookHeaders, body: string | Uint8Array, opts: VerifyWebhookOptions = {}): Promise<Event> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature header');
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not Unix seconds');
  const now = Math.floor((opts.now?.() ?? new Date()).getTime() / 1000);
  const tolerance = opts.toleranceS ?? 300;
  if (Math.abs(now - Number(timestamp)) > tolerance) throw new WebhookVerificationError('webhook-timestamp is too far from now (a replayed or delayed delivery)');

  const keyBytes = base64Bytes(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
  if (!keyBytes || keyBytes.length === 0) throw new WebhookVerificationError('the secret is not whsec_ followed by base64');
  const key = await globalThis.crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const encoder = new TextEncoder();
  const bodyBytes = typeof body === 'string' ? encoder.encode(body) : body;
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + bodyBytes.length);
  signed.set(prefix);
  signed.set(bodyBytes, prefix.length);

  for (const entry of signatures.split(' ')) {
    const [version, sig] = entry.split(',', 2);
    if (version !== 'v1' || !sig) continue;
    const sigBytes = base64Bytes(sig);
    if (sigBytes && await globalThis.crypto.subtle.verify('HMAC', key, sigBytes, signed)) {
      const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
      try {
        return JSON.parse(text) as Event;
      } catch {
        throw new WebhookVerificationError('the signature matches but the body is not JSON');
      }
    }
  }
  throw new WebhookVerificationError('no webhook-signature matches this body and secret');
}
