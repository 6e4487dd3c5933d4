// The native hosting driver's test app: an app and worker on HOSTING_DRIVER=native whose one
// hosting node is this file's test node (hosting-node.ts), plus what the tests use to look at the
// node from outside: an HTTP client that sends a Host header to the node's nginx, and SFTP with an
// account's own credentials (ssh2's SFTP, as a customer's client would).
import assert from 'node:assert/strict';
import http from 'node:http';
import ssh2, { type SFTPWrapper } from 'ssh2';

const { Client } = ssh2;
import type { Config } from '../../src/config.ts';
import { createNativePanel } from '../../src/providers/hosting/native/index.ts';
import type { SshSession } from '../../src/providers/hosting/native/ssh.ts';
import { type TestApp, adminCall, json, startApp } from './app.ts';
import { type TestNode, startHostingNode } from './hosting-node.ts';

export interface NativeHostingApp {
  t: TestApp;
  node: TestNode;
  nodeId: number;
  /** A driver on the app's database, for what the customer's hosting page does (passwords). */
  panel: ReturnType<typeof createNativePanel>;
}

export async function startNativeHosting(opts: { config?: Partial<Config>; beforeStep?: (step: string, ssh: SshSession) => Promise<void> | void } = {}): Promise<NativeHostingApp> {
  const node = await startHostingNode();
  // A disk-usage read is an SSH round trip and a `du`: on a busy test machine it may take longer
  // than the default 2 s a request waits for the panel (then used_mb is null).
  const t = await startApp({ worker: 'embedded', hostingDriver: 'native', hostingSshKey: node.keyFile, providerTimeoutMs: 15_000, ...opts.config });
  const res = await adminCall(t, 'POST', '/admin/v1/hosting-nodes', {
    name: `${node.prefix}.node.test`, host: '127.0.0.1', port: node.sshPort, http_port: node.httpPort, config: node.config,
  });
  assert.equal(res.statusCode, 201, res.body);
  const added = json(res).data;
  assert.deepEqual(added.missing, [], `the test node lacks ${added.missing}`);
  const panel = createNativePanel({ db: t.database.db, keyFile: node.keyFile, publicUrl: t.config.publicUrl, beforeStep: opts.beforeStep });
  return { t, node, nodeId: added.id, panel };
}

/** GET http://127.0.0.1:<node's port><path> with Host: `host`. */
export function fetchSite(node: TestNode, host: string, path = '/'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: node.httpPort, path, headers: { host }, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens SFTP on the node as `username`; rejects when the login is refused. */
export function sftpLogin(node: TestNode, username: string, password: string): Promise<{ sftp: SFTPWrapper; close: () => void }> {
  return new Promise((resolve, reject) => {
    const c = new Client();
    c.on('error', reject);
    c.on('ready', () => c.sftp((err, sftp) => (err ? (c.end(), reject(err)) : resolve({ sftp, close: () => c.end() }))));
    c.connect({ host: '127.0.0.1', port: node.sshPort, username, password, readyTimeout: 10_000, hostVerifier: () => true });
  });
}

export function sftpWrite(sftp: SFTPWrapper, path: string, content: string): Promise<void> {
  return new Promise((resolve, reject) => sftp.writeFile(path, content, (e) => (e ? reject(e) : resolve())));
}

export function sftpRead(sftp: SFTPWrapper, path: string): Promise<string> {
  return new Promise((resolve, reject) => sftp.readFile(path, (e, b) => (e ? reject(e) : resolve(b.toString('utf8')))));
}

export function sftpList(sftp: SFTPWrapper, path: string): Promise<string[]> {
  return new Promise((resolve, reject) => sftp.readdir(path, (e, list) => (e ? reject(e) : resolve(list.map((x) => x.filename).sort()))));
}

/** Polls `check` every 50 ms until it is true, for at most `ms`. */
export async function eventually(what: string, check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`${what}: still not so after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
