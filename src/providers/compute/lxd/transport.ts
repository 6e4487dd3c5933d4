// How we reach one LXD server: its unix socket (trusted as root, no certificate) or https, where we
// present our client certificate and accept exactly the server certificate whose SHA-256
// fingerprint was pinned when the node was added. LXD's certificates are self-signed, so ordinary
// chain verification cannot apply: the agent connects, compares the fingerprint, and only then
// hands the socket to the request (nothing is sent to a server that is not the pinned one).
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';

export type Endpoint = { kind: 'unix'; path: string } | { kind: 'https'; host: string; port: number };

/** `unix:/var/lib/lxd/unix.socket` or `https://host[:8443]`; null when it is neither. */
export function parseEndpoint(text: string): Endpoint | null {
  if (text.startsWith('unix:')) {
    const path = text.slice('unix:'.length).replace(/^\/\//, '');
    return path.startsWith('/') ? { kind: 'unix', path } : null;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.pathname.replace(/\/$/, '') !== '' || url.search || url.username || url.password) return null;
  return { kind: 'https', host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port ? Number(url.port) : 8443 };
}

export function formatEndpoint(e: Endpoint): string {
  return e.kind === 'unix' ? `unix:${e.path}` : `https://${e.host.includes(':') ? `[${e.host}]` : e.host}:${e.port}`;
}

/** Lower-case hex without separators, as LXD prints fingerprints. */
export function normalizeFingerprint(fp: string): string {
  return fp.replace(/[^0-9a-fA-F]/g, '').toLowerCase();
}

export interface ClientCertificate {
  cert: string;
  key: string;
}

export class FingerprintMismatch extends Error {
  constructor(readonly expected: string, readonly actual: string) {
    super(`the server's certificate changed: fingerprint ${actual}, pinned ${expected}`);
  }
}

type Oncreate = (err: Error | null, socket?: Duplex) => void;

/**
 * An agent for one endpoint: unix sockets connect directly; https connects, checks the pinned
 * fingerprint (or, with none pinned, records the one seen: adding a node) and then hands over.
 */
export class LxdAgent extends http.Agent {
  /** The fingerprint of the last certificate seen (https only). */
  lastFingerprint: string | null = null;

  constructor(private readonly endpoint: Endpoint, private readonly tlsOpts: { client: ClientCertificate | null; pinned: string | null }) {
    super({ keepAlive: true, maxSockets: 32 });
  }

  override createConnection(_opts: unknown, oncreate: Oncreate): undefined {
    const e = this.endpoint;
    if (e.kind === 'unix') {
      const socket = net.connect({ path: e.path });
      const fail = (err: Error) => oncreate(err);
      socket.once('error', fail);
      socket.once('connect', () => {
        socket.off('error', fail);
        oncreate(null, socket);
      });
      return undefined;
    }
    const socket = tls.connect({
      host: e.host, port: e.port, servername: net.isIP(e.host) ? undefined : e.host,
      cert: this.tlsOpts.client?.cert, key: this.tlsOpts.client?.key, rejectUnauthorized: false,
    });
    const fail = (err: Error) => oncreate(err);
    socket.once('error', fail);
    socket.once('secureConnect', () => {
      socket.off('error', fail);
      const seen = normalizeFingerprint(socket.getPeerCertificate().fingerprint256 ?? '');
      this.lastFingerprint = seen;
      const pinned = this.tlsOpts.pinned;
      if (pinned !== null && seen !== normalizeFingerprint(pinned)) {
        socket.destroy();
        oncreate(new FingerprintMismatch(normalizeFingerprint(pinned), seen));
        return;
      }
      oncreate(null, socket);
    });
    return undefined;
  }
}
