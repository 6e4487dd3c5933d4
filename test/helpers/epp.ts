// The EPP test registry for tests: started in process on 127.0.0.1 (a free port) with a test CA
// made at run time, its PKI written to a temp directory for clients that read files (Net::EPP),
// every frame kept; and whether Debian's libnet-epp-perl is here (without it the conformance
// test skips with one line, unless EPP_TESTS=required, as in CI).
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type TestRegistry, startTestRegistry } from '../../src/providers/registrar/epp/test-registry/server.ts';
import { type TestPki, makeTestPki } from '../../src/providers/registrar/epp/test-registry/certs.ts';

export const run = promisify(execFile);

export interface Frame {
  conn: number;
  dir: 'C' | 'S';
  xml: string;
  /** When the registry saw it (Date.now()). */
  at: number;
}

export interface RegistryFixture {
  registry: TestRegistry;
  frames: Frame[];
  files: { dir: string; ca: string; cert: string; key: string };
  close(): Promise<void>;
}

let pki: TestPki | null = null;

/** One PKI per test file (making RSA keys costs a little). */
export function testPki(): TestPki {
  pki ??= makeTestPki();
  return pki;
}

export async function startRegistryFixture(clients: Record<string, string> = { hostcloud: 'test-password', otherreg: 'other-password' }): Promise<RegistryFixture> {
  const frames: Frame[] = [];
  const registry = await startTestRegistry({ pki: testPki(), clients, onFrame: (conn, dir, xml) => frames.push({ conn, dir, xml, at: Date.now() }) });
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hc-epp-'));
  const files = { dir, ca: path.join(dir, 'ca.pem'), cert: path.join(dir, 'client.pem'), key: path.join(dir, 'client.key') };
  await fs.writeFile(files.ca, registry.pki.caCert);
  await fs.writeFile(files.cert, registry.pki.clientCert);
  await fs.writeFile(files.key, registry.pki.clientKey, { mode: 0o600 });
  return {
    registry, frames, files,
    async close() {
      await registry.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

async function probeNetEpp(): Promise<string | false> {
  try {
    await run('perl', ['-MNet::EPP::Simple', '-MIO::Socket::SSL', '-e', '1']);
    return false;
  } catch (e) {
    return `Net::EPP is not installed (apt-get install libnet-epp-perl): ${(e as Error).message.split('\n')[0]}`;
  }
}

const missing = await probeNetEpp();
if (missing && process.env.EPP_TESTS === 'required') throw new Error(`EPP_TESTS=required but ${missing}`);

/** `skip` for the Net::EPP suite: false, or why it is skipped. */
export const netEppSkip: string | false = missing;
