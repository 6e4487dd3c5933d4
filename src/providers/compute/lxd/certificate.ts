// Hostcloud's client certificate for LXD servers reached over https: DATA_DIR/lxd-client.crt and
// .key, made at the first start when absent (LXD_CLIENT_CERT / LXD_CLIENT_KEY name other files).
// An LXD server trusts it once (`lxc config trust add lxd-client.crt`, or POST /1.0/certificates).
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import forge from 'node-forge';
import type { ClientCertificate } from './transport.ts';
import { normalizeFingerprint } from './transport.ts';

export interface CertificateFiles {
  certFile: string;
  keyFile: string;
}

export function certificateFiles(dataDir: string, cert: string | undefined, key: string | undefined): CertificateFiles {
  return { certFile: cert || path.join(dataDir, 'lxd-client.crt'), keyFile: key || path.join(dataDir, 'lxd-client.key') };
}

/** A self-signed RSA certificate for TLS client authentication, valid ten years. */
export function makeClientCertificate(commonName = 'hostcloud'): ClientCertificate {
  const keys = forge.pki.rsa.generateKeyPair({ bits: 2048, e: 0x10001 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = `01${forge.util.bytesToHex(forge.random.getBytesSync(15))}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 10 * 365 * 86_400_000);
  const name = [{ name: 'commonName', value: commonName }, { name: 'organizationName', value: 'Hostcloud' }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage', clientAuth: true },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(cert), key: forge.pki.privateKeyToPem(keys.privateKey) };
}

/** Reads the certificate, making it first when neither file exists. */
export async function loadOrCreateClientCertificate(files: CertificateFiles): Promise<ClientCertificate> {
  const read = async () => ({ cert: await fs.readFile(files.certFile, 'utf8'), key: await fs.readFile(files.keyFile, 'utf8') });
  try {
    return await read();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const made = makeClientCertificate();
  await fs.mkdir(path.dirname(files.certFile), { recursive: true });
  await fs.mkdir(path.dirname(files.keyFile), { recursive: true });
  // wx: two processes starting together keep one certificate (the loser reads the winner's).
  try {
    await fs.writeFile(files.keyFile, made.key, { mode: 0o600, flag: 'wx' });
    await fs.writeFile(files.certFile, made.cert, { mode: 0o644, flag: 'wx' });
    return made;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    await new Promise((r) => setTimeout(r, 200));
    return read();
  }
}

/** SHA-256 fingerprint of a PEM certificate, as LXD prints it. */
export function fingerprintOf(pem: string): string {
  return normalizeFingerprint(new X509Certificate(pem).fingerprint256);
}

/** The certificate's body as LXD's POST /1.0/certificates wants it (base64 DER, no armor). */
export function certificateBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}
