// A test CA with a server and a client certificate, made at run time (keys by node:crypto, the
// X.509 by node-forge, which node:crypto cannot make): the test registry and its tests need real
// TLS with a client-certificate check, and nothing secret may live in the repository.
import { generateKeyPairSync } from 'node:crypto';
import forge from 'node-forge';

export interface TestPki {
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

function rsaKeys(): { forgeKey: forge.pki.rsa.PrivateKey; publicKey: forge.pki.rsa.PublicKey; pem: string } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
  const forgeKey = forge.pki.privateKeyFromPem(pem);
  return { forgeKey, publicKey: forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e), pem };
}

let serial = 1;

function certificate(subjectCn: string, keys: ReturnType<typeof rsaKeys>, issuer: { cn: string; key: forge.pki.rsa.PrivateKey } | null, extensions: object[]): string {
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = `0${(serial++).toString(16)}${forge.util.bytesToHex(forge.random.getBytesSync(8))}`;
  cert.validity.notBefore = new Date(Date.now() - 3_600_000);
  cert.validity.notAfter = new Date(Date.now() + 365 * 86_400_000);
  cert.setSubject([{ name: 'commonName', value: subjectCn }, { name: 'organizationName', value: 'Hostcloud EPP test registry' }]);
  cert.setIssuer([{ name: 'commonName', value: issuer?.cn ?? subjectCn }, { name: 'organizationName', value: 'Hostcloud EPP test registry' }]);
  cert.setExtensions(extensions);
  cert.sign(issuer?.key ?? keys.forgeKey, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

/** A CA, a server certificate for 127.0.0.1/localhost and a client certificate, all signed by that CA. */
export function makeTestPki(clientCn = 'hostcloud-registrar'): TestPki {
  const ca = rsaKeys();
  const caCert = certificate('Hostcloud EPP test CA', ca, null, [
    { name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
  ]);
  const issuer = { cn: 'Hostcloud EPP test CA', key: ca.forgeKey };
  const server = rsaKeys();
  const serverCert = certificate('localhost', server, issuer, [
    { name: 'basicConstraints', cA: false }, { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
  ]);
  const client = rsaKeys();
  const clientCert = certificate(clientCn, client, issuer, [
    { name: 'basicConstraints', cA: false }, { name: 'keyUsage', digitalSignature: true, keyEncipherment: true }, { name: 'extKeyUsage', clientAuth: true },
  ]);
  return { caCert, serverCert, serverKey: server.pem, clientCert, clientKey: client.pem };
}
