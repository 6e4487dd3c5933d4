// SSH to hosting nodes with the `ssh2` package: our key (HOSTING_SSH_KEY, made at first use), the
// node's host key pinned by SHA-256 (another key is refused before anything is sent), and commands
// run one channel each, their input on standard input rather than on the command line. Losing the
// connection, a refused connection or a timeout is a retryable failure; a changed host key is not.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import ssh2, { type ClientChannel } from 'ssh2';
import { HostingPanelError } from '../types.ts';

// ssh2 is CommonJS: its named exports come from the default one.
const { Client, utils } = ssh2;
type Client = InstanceType<typeof Client>;

export interface SshTarget {
  name: string;
  host: string;
  port: number;
  user: string;
  /** `SHA256:<base64>`; null only while a node is being added (its key is learnt then). */
  hostKey: string | null;
}

export interface ExecResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface SshSession {
  /** The host key the node offered (`SHA256:…`). */
  hostKey: string;
  exec(command: string, stdin?: string, timeoutMs?: number): Promise<ExecResult>;
  close(): void;
}

/** The OpenSSH-style fingerprint of a host key blob. */
export function fingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

/** The private key at `file`, made (ed25519, mode 0600) when there is none, with its public half beside it. */
export async function loadOrCreateKey(file: string): Promise<{ privateKey: string; publicKey: string }> {
  const existing = await fs.readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
  if (existing === null) {
    const pair = utils.generateKeyPairSync('ed25519', { comment: 'hostcloud' });
    await fs.mkdir(path.dirname(file), { recursive: true });
    // Two processes starting at once: the first file wins and both use it.
    await fs.writeFile(file, pair.private, { mode: 0o600, flag: 'wx' }).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'EEXIST') throw e;
    });
  }
  const privateKey = await fs.readFile(file, 'utf8');
  const parsed = utils.parseKey(privateKey);
  if (parsed instanceof Error) throw new Error(`HOSTING_SSH_KEY ${file} is not a private key ssh2 can read: ${parsed.message}`);
  const key = Array.isArray(parsed) ? parsed[0]! : parsed;
  const publicKey = `${key.type} ${key.getPublicSSH().toString('base64')} hostcloud`;
  await fs.writeFile(`${file}.pub`, `${publicKey}\n`, { mode: 0o644 }).catch(() => undefined);
  return { privateKey, publicKey };
}

export class HostKeyChangedError extends HostingPanelError {
  constructor(node: string, pinned: string, offered: string) {
    super('UPSTREAM_ERROR', `Refused hosting node ${node}: its SSH host key changed (pinned ${pinned}, offered ${offered}). `
      + 'Nothing was sent. If the node was reinstalled, check the new key and add the node again.', false);
    this.name = 'HostKeyChangedError';
  }
}

const unreachable = (t: SshTarget, why: string) => new HostingPanelError('UPSTREAM_ERROR', `Hosting node ${t.name} (${t.host}:${t.port}) is unreachable: ${why}`);

export function connect(t: SshTarget, privateKey: string, timeoutMs = 10_000): Promise<SshSession> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    let offered = '';
    let mismatch: HostKeyChangedError | null = null;
    let settled = false;
    const fail = (e: Error) => {
      if (settled) return;
      settled = true;
      client.end();
      reject(mismatch ?? e);
    };
    client.on('error', (e) => fail(unreachable(t, e.message)));
    client.on('close', () => fail(unreachable(t, 'the connection closed')));
    client.on('ready', () => {
      settled = true;
      resolve(session(client, t, offered));
    });
    client.connect({
      host: t.host, port: t.port, username: t.user, privateKey, readyTimeout: timeoutMs,
      hostVerifier: (key: Buffer) => {
        offered = fingerprint(key);
        if (t.hostKey === null || t.hostKey === offered) return true;
        mismatch = new HostKeyChangedError(t.name, t.hostKey, offered);
        return false;
      },
    });
  });
}

function session(client: Client, t: SshTarget, hostKey: string): SshSession {
  let lost: Error | null = null;
  client.on('close', () => {
    lost ??= unreachable(t, 'the connection was lost');
  });
  client.on('error', (e) => {
    lost = unreachable(t, e.message);
  });
  return {
    hostKey,
    close: () => client.end(),
    exec(command, stdin, timeoutMs = 120_000) {
      return new Promise((resolve, reject) => {
        if (lost) return reject(lost);
        const timer = setTimeout(() => {
          client.end();
          reject(unreachable(t, `a command did not finish within ${timeoutMs} ms`));
        }, timeoutMs);
        const opened = (err: Error | undefined, stream: ClientChannel) => {
          if (err) {
            clearTimeout(timer);
            return reject(unreachable(t, err.message));
          }
          const out: Buffer[] = [];
          const errOut: Buffer[] = [];
          let code: number | null = null;
          stream.on('data', (d: Buffer) => out.push(d));
          stream.stderr.on('data', (d: Buffer) => errOut.push(d));
          stream.on('exit', (c: number | null) => {
            code = c;
          });
          stream.on('close', () => {
            clearTimeout(timer);
            // No exit status: the channel died with the connection (or a signal ended the command).
            if (code === null) return reject(lost ?? unreachable(t, 'the command ended without an exit status'));
            resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(errOut).toString('utf8') });
          });
          stream.end(stdin ?? '');
        };
        try {
          client.exec(command, opened);
        } catch (e) {
          // ssh2 throws at once on a connection that has just been closed.
          clearTimeout(timer);
          reject(lost ?? unreachable(t, e instanceof Error ? e.message : String(e)));
        }
      });
    },
  };
}
