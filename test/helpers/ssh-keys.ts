// Real OpenSSH public keys for tests: made with node:crypto, written in OpenSSH format by sshpk.
import { generateKeyPairSync } from 'node:crypto';
import sshpk from 'sshpk';

export type KeyKind = 'ed25519' | 'ecdsa-p256' | 'ecdsa-p384' | 'ecdsa-p521' | 'rsa-2048' | 'rsa-4096';

function generate(kind: KeyKind) {
  if (kind === 'ed25519') return generateKeyPairSync('ed25519');
  if (kind.startsWith('ecdsa')) return generateKeyPairSync('ec', { namedCurve: `P-${kind.slice(-3)}` });
  return generateKeyPairSync('rsa', { modulusLength: Number(kind.slice(4)) });
}

/** "type base64 comment", as a .pub file holds it. */
export function openSshKey(kind: KeyKind, comment = 'test@example'): string {
  const key = sshpk.parseKey(generate(kind).publicKey.export({ type: 'spki', format: 'pem' }) as string, 'pem');
  key.comment = comment;
  return key.toString('ssh');
}
