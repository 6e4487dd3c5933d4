import { createHash } from 'node:crypto';
import { base62 } from '../ids.ts';

/** Live keys `hc_live_<40 base62>`, test keys `hc_test_<40 base62>` (≈ 238 random bits). */
export const KEY_PATTERN = /^hc_(live|test)_[0-9A-Za-z]{32,64}$/;

export function generateSecret(isTest: boolean): { secret: string; prefix: string; hash: string } {
  const secret = `hc_${isTest ? 'test' : 'live'}_${base62(40)}`;
  // Enough to recognise a key in a list, far too little to guess the rest (12 of 48 characters).
  return { secret, prefix: secret.slice(0, 12), hash: hashSecret(secret) };
}

/** Keys are long random strings, so a plain SHA-256 is a safe at-rest hash and a fast lookup. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
