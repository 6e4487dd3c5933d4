// A thin, typed client of LXD's REST API (/1.0) over a unix socket or https (transport.ts). Async
// answers are operations: the client waits on /1.0/operations/{id}/wait and answers with the
// operation, so every method of the driver reads as one call. Every failure is a ProviderError
// (LxdError): unreachable or 5xx → retryable, a refusal (4xx, a changed certificate) → final.
import http from 'node:http';
import WebSocket from 'ws';
import { ProviderError } from '../../errors.ts';
import type { LxdOperation, LxdResponse } from './api-types.ts';
import { type ClientCertificate, type Endpoint, FingerprintMismatch, LxdAgent, formatEndpoint, parseEndpoint } from './transport.ts';

/** A ProviderError that knows LXD's HTTP status (null: no answer at all). */
export class LxdError extends ProviderError {
  constructor(message: string, readonly status: number | null, retryable: boolean) {
    super('UPSTREAM_ERROR', message, retryable);
    this.name = 'LxdError';
  }
}

export const isNotFound = (e: unknown): boolean => e instanceof LxdError && e.status === 404;
export const isConflict = (e: unknown): boolean => e instanceof LxdError && e.status === 409;

export interface LxdClientOptions {
  endpoint: string | Endpoint;
  /** Our client certificate (https only). */
  client: ClientCertificate | null;
  /** The server certificate's pinned SHA-256 fingerprint (https); null: accept and record (adding a node). */
  fingerprint: string | null;
  /** The LXD project of instances; null: the default project. */
  project: string | null;
  /** How long one request may take before it counts as unreachable (ms). */
  timeoutMs?: number;
  /** How long an operation is waited for (s). */
  operationTimeoutS?: number;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body (file uploads). */
  raw?: Buffer | string;
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  /** false: answer the operation as started instead of waiting for it (websocket operations). */
  wait?: boolean;
  /** No ?project= (server-wide endpoints). */
  global?: boolean;
  timeoutMs?: number;
}

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOENT', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'ENOTFOUND', 'EACCES']);

export class LxdClient {
  readonly endpoint: Endpoint;
  readonly project: string | null;
  private readonly agent: LxdAgent;
  private readonly timeoutMs: number;
  private readonly operationTimeoutS: number;
  private readonly where: string;

  constructor(opts: LxdClientOptions) {
    const endpoint = typeof opts.endpoint === 'string' ? parseEndpoint(opts.endpoint) : opts.endpoint;
    if (!endpoint) throw new LxdError(`"${String(opts.endpoint)}" is not an LXD endpoint (unix:/path/to/unix.socket or https://host:8443)`, 400, false);
    this.endpoint = endpoint;
    this.project = opts.project;
    this.agent = new LxdAgent(endpoint, { client: opts.client, pinned: opts.fingerprint });
    this.timeoutMs = opts.timeoutMs ?? 30_000;
    this.operationTimeoutS = opts.operationTimeoutS ?? 300;
    this.where = formatEndpoint(endpoint);
  }

  /** The certificate fingerprint seen on the last https connection (what adding a node pins). */
  get seenFingerprint(): string | null {
    return this.agent.lastFingerprint;
  }

  close(): void {
    this.agent.destroy();
  }

  private url(path: string, opts: RequestOptions): string {
    const params = new URLSearchParams();
    if (this.project && !opts.global) params.set('project', this.project);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) params.set(k, String(v));
    const qs = params.toString();
    return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path;
  }

  private hostHeader(): string {
    return this.endpoint.kind === 'unix' ? 'lxd' : `${this.endpoint.host}:${this.endpoint.port}`;
  }

  /** One HTTP exchange; network failures become retryable LxdErrors. */
  private exchange(method: string, path: string, opts: RequestOptions): Promise<RawAnswer> {
    const payload = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    const headers: Record<string, string | number> = { host: this.hostHeader(), ...opts.headers };
    if (payload !== undefined) {
      headers['content-length'] = Buffer.byteLength(payload);
      if (opts.raw === undefined) headers['content-type'] = 'application/json';
    }
    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    return new Promise((resolve, reject) => {
      const req = http.request({ agent: this.agent, method, path: this.url(path, opts), headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', (e) => reject(this.networkError(e)));
      });
      req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { code: 'ETIMEDOUT' })));
      req.on('error', (e) => reject(this.networkError(e)));
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  private networkError(e: Error): LxdError {
    if (e instanceof FingerprintMismatch) {
      return new LxdError(`LXD at ${this.where}: ${e.message}; the node's certificate is refused until the operator re-pins it`, null, false);
    }
    // Whatever the network said (refused, reset, no such socket, timed out), a later try may work.
    const code = (e as NodeJS.ErrnoException).code;
    const what = code && NETWORK_CODES.has(code) ? `${code}: ${e.message}` : e.message;
    return new LxdError(`LXD at ${this.where} is unreachable (${what})`, null, true);
  }

  private answerError(method: string, path: string, status: number, text: string): LxdError {
    let message = text.slice(0, 300);
    try {
      message = (JSON.parse(text) as LxdResponse).error || message;
    } catch { /* not JSON: keep the text */ }
    const hint = status === 403 ? ' (is Hostcloud\'s client certificate trusted by this LXD server? see `hostcloud admin nodes add`)' : '';
    return new LxdError(`LXD at ${this.where}: ${method} ${path.split('?')[0]}: ${status} ${message}${hint}`, status, status >= 500 || status === 429);
  }

  /**
   * A request answered with its metadata; an async answer's operation is waited on unless
   * `wait: false`, and answered as the finished operation (its metadata holds the results).
   */
  async request<T = unknown>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const answer = await this.exchange(method, path, opts);
    const text = answer.body.toString('utf8');
    if (answer.status >= 400) throw this.answerError(method, path, answer.status, text);
    let parsed: LxdResponse<T>;
    try {
      parsed = JSON.parse(text) as LxdResponse<T>;
    } catch {
      throw new LxdError(`LXD at ${this.where}: ${method} ${path}: an answer that is not JSON`, answer.status, true);
    }
    if (parsed.type === 'error') throw this.answerError(method, path, parsed.error_code ?? 500, text);
    if (parsed.type === 'async' && opts.wait !== false) {
      const op = parsed.metadata as unknown as LxdOperation;
      return (await this.wait(op.id)) as T;
    }
    return parsed.metadata;
  }

  get<T = unknown>(path: string, opts: RequestOptions = {}): Promise<T> {
    return this.request<T>('GET', path, opts);
  }

  /** Waits for an operation; a failed or cancelled one is an LxdError with LXD's reason. */
  async wait(id: string, timeoutS = this.operationTimeoutS): Promise<LxdOperation> {
    const op = await this.request<LxdOperation>('GET', `/1.0/operations/${encodeURIComponent(id)}/wait`, {
      query: { timeout: timeoutS }, timeoutMs: (timeoutS + 15) * 1000, global: false,
    });
    if (op.status === 'Success') return op;
    if (op.status === 'Failure' || op.status === 'Cancelled') {
      throw new LxdError(`LXD at ${this.where}: ${op.err || `operation ${op.status.toLowerCase()}`}`, op.status_code, true);
    }
    throw new LxdError(`LXD at ${this.where}: operation ${id} still ${op.status} after ${timeoutS} s`, null, true);
  }

  /** A file inside an instance, or null when it does not exist. */
  async readFile(instance: string, path: string): Promise<Buffer | null> {
    const answer = await this.exchange('GET', `/1.0/instances/${encodeURIComponent(instance)}/files`, { query: { path } });
    if (answer.status === 404) return null;
    if (answer.status >= 400) throw this.answerError('GET', `/1.0/instances/${instance}/files`, answer.status, answer.body.toString('utf8'));
    return answer.body;
  }

  /** An instance's log file (exec output), raw. */
  async readLog(instance: string, file: string): Promise<Buffer | null> {
    const where = `/1.0/instances/${encodeURIComponent(instance)}/logs/${encodeURIComponent(file)}`;
    const answer = await this.exchange('GET', where, {});
    if (answer.status === 404) return null;
    if (answer.status >= 400) throw this.answerError('GET', where, answer.status, answer.body.toString('utf8'));
    return answer.body;
  }

  /** Writes a file (or makes a directory) inside an instance, with owner and mode. */
  async writeFile(instance: string, path: string, content: Buffer | string | null, meta: { uid?: number; gid?: number; mode: number; type?: 'file' | 'directory' }): Promise<void> {
    await this.request('POST', `/1.0/instances/${encodeURIComponent(instance)}/files`, {
      query: { path },
      raw: content ?? '',
      headers: {
        'content-type': 'application/octet-stream',
        'x-lxd-uid': String(meta.uid ?? 0),
        'x-lxd-gid': String(meta.gid ?? 0),
        'x-lxd-mode': meta.mode.toString(8).padStart(4, '0'),
        'x-lxd-type': meta.type ?? 'file',
        'x-lxd-write': 'overwrite',
      },
    });
  }

  /** Opens one of an operation's websockets (exec, console) through the same pinned transport. */
  websocket(operationId: string, secret: string): Promise<WebSocket> {
    const path = this.url(`/1.0/operations/${encodeURIComponent(operationId)}/websocket`, { query: { secret } });
    const ws = new WebSocket(`ws://${this.hostHeader()}${path}`, { agent: this.agent, handshakeTimeout: this.timeoutMs, perMessageDeflate: false });
    return new Promise((resolve, reject) => {
      ws.once('open', () => {
        ws.off('error', reject);
        resolve(ws);
      });
      ws.once('error', (e) => reject(this.networkError(e)));
    });
  }
}
