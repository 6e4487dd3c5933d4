import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform base62 string (rejection sampling, so no character is favoured). */
export function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Public ids of customer resources: a type prefix and 16 base62 characters (≈ 95 bits). */
export function newId(prefix: 'acc' | 'key' | 'srv' | 'op' | 'vm' | 'wh'): string {
  return `${prefix}_${base62(16)}`;
}
