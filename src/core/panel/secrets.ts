// Random secrets of the panel (session cookies, mailed links, recovery codes) and how they are
// kept: only a SHA-256 of each is stored. They are long random strings, so a plain hash is a safe
// at-rest form and a fast lookup (as for API keys).
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { base62 } from '../ids.ts';

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A session cookie's or a link's token: 43 URL-safe characters (256 random bits). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A session's public id, shown in the session list and used to revoke it. */
export function newPublicId(): string {
  return `ses_${base62(16)}`;
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** A recovery code as shown once: xxxxx-xxxxx (≈ 49 bits; spent once, throttled like sign-in). */
export function newRecoveryCode(): string {
  const chars = Array.from({ length: 10 }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/** A recovery code as typed (any case, with or without the dash or spaces) → its stored hash. */
export function recoveryCodeHash(typed: string): string {
  return sha256(typed.toLowerCase().replace(/[\s-]/g, ''));
}

/** Whether what was typed has the shape of a recovery code rather than a TOTP code. */
export function looksLikeRecoveryCode(typed: string): boolean {
  return /^[a-z0-9]{5}-?[a-z0-9]{5}$/i.test(typed.replace(/\s/g, ''));
}
