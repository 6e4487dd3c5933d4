// OpenSSH public keys ("type base64 [comment]", one line of authorized_keys without options),
// checked with sshpk rather than by hand. sshpk on its own is lenient (it accepts bytes after the
// key in the blob, and a blob whose type differs from the prefix in some cases), so the key it reads
// is written back and must give the very bytes that were sent, and its type must be the prefix.
import { createRequire } from 'node:module';
import type SshPk from 'sshpk';

// Loaded with the first key parsed, not at start: most API processes never parse one.
let sshpkModule: typeof SshPk | undefined;
const sshpk = () => (sshpkModule ??= createRequire(import.meta.url)('sshpk') as typeof SshPk);

/** The accepted types: EdDSA, ECDSA on the NIST curves, and RSA of 2048 bits or more. */
export const KEY_TYPES = ['ssh-ed25519', 'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp521', 'ssh-rsa'] as const;
export type KeyType = (typeof KEY_TYPES)[number];

export const RSA_MIN_BITS = 2048;
export const RSA_MAX_BITS = 16_384;
export const PUBLIC_KEY_MAX = 16_384;

export interface ParsedKey {
  type: KeyType;
  bits: number;
  /** `SHA256:` and unpadded base64, as `ssh-keygen -l` prints it. */
  fingerprint: string;
  /** "type base64[ comment]", single spaces. */
  normalised: string;
  comment: string | null;
}

export type ParseResult = { ok: true; key: ParsedKey } | { ok: false; problem: string };

const ACCEPTED = 'ssh-ed25519, ecdsa-sha2-nistp256/384/521 or ssh-rsa of at least 2048 bits';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The OpenSSH name of what sshpk read. */
function sshName(key: SshPk.Key): string {
  if (key.type === 'ed25519') return 'ssh-ed25519';
  if (key.type === 'rsa') return 'ssh-rsa';
  if (key.type === 'ecdsa') return `ecdsa-sha2-${key.curve}`;
  return key.type === 'dsa' ? 'ssh-dss' : key.type;
}

const fail = (problem: string): ParseResult => ({ ok: false, problem });

export function parsePublicKey(text: string): ParseResult {
  const line = text.trim();
  if (line.length > PUBLIC_KEY_MAX) return fail(`is longer than ${PUBLIC_KEY_MAX} characters`);
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(line)) return fail('must be one line: one OpenSSH public key, as in a .pub file');
  const [type, blob, ...rest] = line.split(/[ \t]+/);
  const comment = rest.length ? rest.join(' ') : null;
  if (!type || !(KEY_TYPES as readonly string[]).includes(type)) {
    const dss = type === 'ssh-dss' ? ' (DSA keys are insecure and no longer accepted)' : '';
    return fail(`must be an OpenSSH public key of type ${ACCEPTED}, like "ssh-ed25519 AAAAC3Nz… you@host"; got "${(type ?? '').slice(0, 40)}"${dss}`);
  }
  if (!blob || blob.length % 4 !== 0 || !BASE64.test(blob)) return fail('has no valid base64 key data after the type');
  const bytes = Buffer.from(blob, 'base64');
  let key: SshPk.Key;
  try {
    key = sshpk().parseKey(bytes, 'rfc4253');
  } catch {
    return fail('has key data that does not decode as an SSH public key');
  }
  // Written back, the key must be exactly what was sent: no bytes after it, nothing re-encoded.
  if (!key.toBuffer('rfc4253').equals(bytes) || bytes.toString('base64') !== blob) {
    return fail('has key data with extra or malformed bytes');
  }
  const actual = sshName(key);
  if (actual !== type) return fail(`says ${type} but its key data is of type ${actual}`);
  if (type === 'ssh-rsa' && (key.size < RSA_MIN_BITS || key.size > RSA_MAX_BITS)) {
    return fail(`is a ${key.size}-bit RSA key; RSA keys must have ${RSA_MIN_BITS} to ${RSA_MAX_BITS} bits`);
  }
  return {
    ok: true,
    key: {
      type: type as KeyType,
      bits: key.size,
      fingerprint: key.fingerprint('sha256').toString(),
      normalised: comment === null ? `${type} ${blob}` : `${type} ${blob} ${comment}`,
      comment,
    },
  };
}

/**
 * What lists show instead of the whole key: the type, the first and last 8 characters of the key
 * data around an ellipsis, and the comment — "ssh-ed25519 AAAAC3Nz…q8Lp2mWk ada@laptop".
 */
export function previewOf(normalised: string): string {
  const [type, blob = '', ...comment] = normalised.split(' ');
  const short = blob.length > 20 ? `${blob.slice(0, 8)}…${blob.slice(-8)}` : blob;
  return [type, short, ...comment].join(' ');
}
