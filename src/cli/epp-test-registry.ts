// `hostcloud epp-test-registry`: the EPP test registry for a developer's machine. It makes a test
// CA with a server and a client certificate in DIR (reused on the next start), listens on
// 127.0.0.1:PORT and prints the REGISTRAR_DRIVER=epp settings that reach it. State is in memory.
import fs from 'node:fs/promises';
import path from 'node:path';
import { type TestPki, makeTestPki } from '../providers/registrar/epp/test-registry/certs.ts';
import { startTestRegistry } from '../providers/registrar/epp/test-registry/server.ts';

const FILES: Record<keyof TestPki, string> = {
  caCert: 'ca.pem', serverCert: 'server.pem', serverKey: 'server.key', clientCert: 'client.pem', clientKey: 'client.key',
};

async function loadOrMakePki(dir: string): Promise<TestPki> {
  try {
    const entries = await Promise.all(Object.entries(FILES).map(async ([k, f]) => [k, await fs.readFile(path.join(dir, f), 'utf8')]));
    return Object.fromEntries(entries) as TestPki;
  } catch {
    const pki = makeTestPki();
    await fs.mkdir(dir, { recursive: true });
    for (const [k, f] of Object.entries(FILES)) await fs.writeFile(path.join(dir, f), pki[k as keyof TestPki], { mode: f.endsWith('.key') ? 0o600 : 0o644 });
    return pki;
  }
}

export async function runEppTestRegistry(args: string[], dataDir: string): Promise<void> {
  const opt = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const dir = path.resolve(opt('--dir') ?? path.join(dataDir, 'epp-test-registry'));
  const port = Number(opt('--port') ?? 0);
  const clientId = opt('--client-id') ?? 'hostcloud';
  const password = opt('--password') ?? 'test-password';
  const pki = await loadOrMakePki(dir);
  const registry = await startTestRegistry({ pki, port, clients: { [clientId]: password, otherreg: 'other-password' } });
  process.stdout.write(`EPP test registry on ${registry.host}:${registry.port} (state in memory; Ctrl-C stops it)\n\nSettings for hostcloud:\n`
    + `  REGISTRAR_DRIVER=epp EPP_HOST=${registry.host} EPP_PORT=${registry.port} EPP_CLIENT_ID=${clientId} EPP_PASSWORD=${password} \\\n`
    + `  EPP_CA=${path.join(dir, FILES.caCert)} EPP_CLIENT_CERT=${path.join(dir, FILES.clientCert)} EPP_CLIENT_KEY=${path.join(dir, FILES.clientKey)}\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await registry.close();
}
