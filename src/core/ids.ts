import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// Random bytes drawn 4 KiB at a time: one call into the CSPRNG per ~150 ids rather than one per
// id (each is a synchronous system call; request ids are made on every request).
const POOL = 4096;
let pool = Buffer.alloc(0);
let at = POOL;

function nextByte(): number {
  if (at >= pool.length) {
    pool = randomBytes(POOL);
    at = 0;
  }
  return pool[at++]!;
}

/** Uniform base62 string (rejection sampling, so no character is favoured). */
export function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = nextByte();
    if (byte < 248) out += ALPHABET[byte % 62];
  }
  return out;
}

/** Public ids of customer resources: a type prefix and 16 base62 characters (≈ 95 bits). */
export function newId(prefix: 'acc' | 'key' | 'srv' | 'op' | 'vm' | 'wh' | 'whk'): string {
  return `${prefix}_${base62(16)}`;
}
