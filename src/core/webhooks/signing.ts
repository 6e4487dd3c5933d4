// Standard Webhooks (standardwebhooks.com): a secret is `whsec_` and the base64 of random bytes; a
// delivery is signed `v1,<base64 of HMAC-SHA256("{webhook-id}.{webhook-timestamp}.{body}")>` keyed
// with the secret's decoded bytes. While a rotated-out secret is still honoured, the header carries
// one signature per secret, space-separated, and a receiver accepts any that it can verify.
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/** 32 random bytes: the specification asks for 24 to 64. */
const SECRET_BYTES = 32;
/** How long a rotated-out secret still signs (besides the new one). */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

/** One `v1,…` signature of a message. */
export function sign(secret: string, msgId: string, timestampS: number, body: string): string {
  return `v1,${createHmac('sha256', keyOf(secret)).update(`${msgId}.${timestampS}.${body}`).digest('base64')}`;
}

/** The `webhook-signature` header: one signature per secret in force. */
export function signatureHeader(secrets: readonly string[], msgId: string, timestampS: number, body: string): string {
  return secrets.map((s) => sign(s, msgId, timestampS, body)).join(' ');
}
