// OpenSSH public keys: real keys made here (node:crypto, exported to OpenSSH format with sshpk),
// fingerprints compared with `ssh-keygen -lf` when it is installed, and malformed keys refused.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import sshpk from 'sshpk';
import { parsePublicKey, previewOf } from '../../src/core/ssh-keys/parse.ts';
import { openSshKey } from '../helpers/ssh-keys.ts';

const keygen = (() => {
  try {
    execFileSync('ssh-keygen', ['-?'], { stdio: 'ignore' });
    return true;
  } catch (e) {
    return (e as { status?: number }).status !== undefined && (e as { code?: string }).code !== 'ENOENT';
  }
})();

function keygenFingerprint(line: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hc-ssh-'));
  try {
    fs.writeFileSync(path.join(dir, 'k.pub'), `${line}\n`);
    // "256 SHA256:… comment (ED25519)"
    return execFileSync('ssh-keygen', ['-lf', path.join(dir, 'k.pub')]).toString().split(' ')[1]!;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const GOOD = [
  { kind: 'ed25519', type: 'ssh-ed25519', bits: 256 },
  { kind: 'ecdsa-p256', type: 'ecdsa-sha2-nistp256', bits: 256 },
  { kind: 'ecdsa-p384', type: 'ecdsa-sha2-nistp384', bits: 384 },
  { kind: 'ecdsa-p521', type: 'ecdsa-sha2-nistp521', bits: 521 },
  { kind: 'rsa-2048', type: 'ssh-rsa', bits: 2048 },
  { kind: 'rsa-4096', type: 'ssh-rsa', bits: 4096 },
] as const;

for (const g of GOOD) {
  test(`${g.kind}: accepted, typed, sized and fingerprinted like ssh-keygen${keygen ? '' : ' (ssh-keygen not installed: sshpk only)'}`, () => {
    const line = openSshKey(g.kind, 'ada@laptop');
    const r = parsePublicKey(`  ${line.replace(' ', '   ')}\n`);
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.key.type, g.type);
    assert.equal(r.key.bits, g.bits);
    assert.equal(r.key.comment, 'ada@laptop');
    assert.equal(r.key.normalised, line, 'white space between the parts is made single, around it trimmed');
    assert.match(r.key.fingerprint, /^SHA256:[A-Za-z0-9+/]{43}$/, 'unpadded base64 of 32 bytes');
    if (keygen) assert.equal(r.key.fingerprint, keygenFingerprint(line));
    const [type, blob] = line.split(' ');
    assert.equal(previewOf(r.key.normalised), `${type} ${blob!.slice(0, 8)}…${blob!.slice(-8)} ada@laptop`);
  });
}

test('a key without a comment, or with spaces in it', () => {
  const [type, blob] = openSshKey('ed25519', 'x').split(' ');
  const bare = parsePublicKey(`${type} ${blob}`);
  assert.ok(bare.ok);
  assert.equal(bare.key.comment, null);
  assert.equal(bare.key.normalised, `${type} ${blob}`);
  const spaced = parsePublicKey(`${type} ${blob} Ada Lovelace's laptop`);
  assert.ok(spaced.ok);
  assert.equal(spaced.key.comment, "Ada Lovelace's laptop");
});

test('ssh-keygen\'s own key, when it is installed', { skip: !keygen && 'ssh-keygen is not installed' }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hc-ssh-'));
  try {
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'made-by-ssh-keygen', '-f', path.join(dir, 'id')]);
    const line = fs.readFileSync(path.join(dir, 'id.pub'), 'utf8');
    const r = parsePublicKey(line);
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.key.fingerprint, keygenFingerprint(line.trim()));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

const problemOf = (text: string) => {
  const r = parsePublicKey(text);
  assert.equal(r.ok, false, `refused: ${text.slice(0, 60)}`);
  return (r as { problem: string }).problem;
};

test('malformed and refused keys, each with a reason', () => {
  const ed = openSshKey('ed25519', 'me@host');
  const [edType, edBlob] = ed.split(' ') as [string, string];
  const rsa1024 = sshpk.parseKey(generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }) as string, 'pem').toString('ssh');
  const dsa = sshpk.parseKey(generateKeyPairSync('dsa', { modulusLength: 1024, divisorLength: 160 }).publicKey.export({ type: 'spki', format: 'pem' }) as string, 'pem').toString('ssh');
  const withTrailingBytes = Buffer.concat([Buffer.from(edBlob, 'base64'), Buffer.from([0, 0, 0, 4, 1, 2, 3, 4])]).toString('base64');

  assert.match(problemOf(`${edType} ${edBlob.slice(0, -4)}!!!!`), /no valid base64/, 'bad base64 characters');
  assert.match(problemOf(`${edType} ${edBlob}xyz`), /no valid base64/, 'base64 of a wrong length');
  assert.match(problemOf(`${edType} ${edBlob.slice(0, 40)}`), /does not decode/, 'cut short');
  assert.match(problemOf(`${edType} ${withTrailingBytes}`), /extra or malformed bytes/, 'trailing garbage in the key data');
  assert.match(problemOf(`ssh-rsa ${edBlob}`), /says ssh-rsa but its key data is of type ssh-ed25519/, 'type mismatch');
  assert.match(problemOf(`ecdsa-sha2-nistp256 ${edBlob}`), /says ecdsa-sha2-nistp256/);
  assert.match(problemOf(rsa1024), /1024-bit RSA key; RSA keys must have 2048/);
  assert.match(problemOf(dsa), /DSA keys are insecure/);
  assert.match(problemOf(`${ed}\n${ed}`), /one line/, 'two keys');
  assert.match(problemOf(`from="10.0.0.1" ${ed}`), /must be an OpenSSH public key of type/, 'authorized_keys options');
  assert.match(problemOf('-----BEGIN OPENSSH PRIVATE KEY-----'), /must be an OpenSSH public key/, 'a private key');
  assert.match(problemOf(`ssh-ed25519-cert-v01@openssh.com ${edBlob}`), /must be an OpenSSH public key/, 'certificates');
  assert.match(problemOf(''), /must be an OpenSSH public key/);
  assert.match(problemOf(edType), /no valid base64/);
  assert.match(problemOf(`${ed}\u0007`), /one line/, 'control characters');
  assert.match(problemOf(`${edType} ${'A'.repeat(20_000)}`), /longer than 16384/);
});
