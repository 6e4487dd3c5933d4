// Webhook deliveries over HTTP(S) with node:http: one POST each, on keep-alive connections (a busy
// endpoint is not handshaken with for every event), never following a redirect (a 3xx is an answer
// like any other, and not a 2xx). The address is checked where it is known for sure: the resolver
// this client connects with refuses a name that resolves to a non-public address (so a name that
// pointed elsewhere when the webhook was registered — DNS rebinding — gains nothing), an IP literal
// is judged before connecting, and the socket's remote address is judged again once connected.
// WEBHOOK_ALLOW_PRIVATE lifts these checks, WEBHOOK_ALLOW_HTTP admits plain http.
// Timeouts: one for the TCP connection, one for the whole exchange (connection, TLS, request and
// answer), after which the request is destroyed — a receiver that never answers holds nothing.
import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { type Socket, isIP } from 'node:net';
import { type WebhookAnswer, type WebhookRequest, WebhookSendError, type WebhookTransport } from './types.ts';

/** dns.lookup's shape, as node:net calls a connection's `lookup`. */
export type LookupFunction = (hostname: string, options: LookupOptions, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => void;

export interface HttpTransportOptions {
  allowHttp: boolean;
  allowPrivate: boolean;
  /**
   * Why an address may not be called (a private network, the metadata service: SSRF), or null: the
   * core's rule (core/webhooks/addresses.ts), handed in so that the transport imports no core.
   */
  forbiddenAddress: (address: string) => string | null;
  /** The TCP connection must be up within this. */
  connectTimeoutMs: number;
  /** The answer (status and body) must be in within this, from the start. */
  timeoutMs: number;
  /** Connections per origin at most (the sender's limits bound how many are in use). */
  maxSocketsPerOrigin: number;
  /** The resolver; default the system's (dns.lookup). Tests give one that answers what they need. */
  lookup?: LookupFunction;
}

const USER_AGENT = 'Hostcloud-Webhooks/1.0 (+https://www.standardwebhooks.com/)';
/** Kept of an answer's body for the delivery log. */
const EXCERPT_BYTES = 512;
/** An answer body beyond this is not read to its end (the connection is dropped instead of reused). */
const DRAIN_MAX_BYTES = 64 * 1024;

const refused = (message: string) => new WebhookSendError('refused', message);

/** A URL's (WHATWG-parsed) hostname as an address: IPv6 without its brackets. */
const hostAddress = (hostname: string) => (hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname);

function guardedLookup(base: LookupFunction, allowPrivate: boolean, forbiddenAddress: (address: string) => string | null): LookupFunction {
  return (hostname, options, callback) => {
    base(hostname, { ...options, all: true }, (err, found) => {
      if (err) return callback(err, '');
      const list = found as LookupAddress[];
      if (!allowPrivate) {
        for (const a of list) {
          const why = forbiddenAddress(a.address);
          if (why) return callback(Object.assign(refused(`refused: ${hostname} resolves to ${a.address}, ${why}`), { code: 'EWEBHOOKREFUSED' }), '');
        }
      }
      if (list.length === 0) return callback(Object.assign(new Error(`${hostname} does not resolve`), { code: 'ENOTFOUND' }), '');
      if (options.all) callback(null, list);
      else callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

export function createHttpTransport(opts: HttpTransportOptions): WebhookTransport {
  const lookup = guardedLookup(opts.lookup ?? (dns.lookup as unknown as LookupFunction), opts.allowPrivate, opts.forbiddenAddress);
  const agentOptions = { keepAlive: true, maxSockets: opts.maxSocketsPerOrigin, maxFreeSockets: Math.min(opts.maxSocketsPerOrigin, 256), scheduling: 'lifo' as const };
  const agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };

  const post = (request: WebhookRequest): Promise<WebhookAnswer> => new Promise((resolve, reject) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return reject(refused('refused: the URL is not valid'));
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && opts.allowHttp)) return reject(refused(`refused: ${url.protocol} URLs are not delivered to (https only)`));
    if (!opts.allowPrivate && isIP(hostAddress(url.hostname)) !== 0) {
      const why = opts.forbiddenAddress(hostAddress(url.hostname));
      if (why) return reject(refused(`refused: ${url.hostname} is ${why}`));
    }
    const body = Buffer.from(request.body);
    let settled = false;
    const fail = (e: WebhookSendError) => {
      if (settled) return;
      settled = true;
      clearTimeout(total);
      req.destroy();
      reject(e);
    };
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      method: 'POST',
      agent: agents[url.protocol as 'http:' | 'https:'],
      lookup: lookup as never,
      headers: { ...request.headers, 'content-type': 'application/json', 'content-length': String(body.length), 'user-agent': USER_AGENT },
    });
    const total = setTimeout(() => fail(new WebhookSendError('timeout', `no answer within ${opts.timeoutMs / 1000} s`)), opts.timeoutMs);
    req.on('socket', (socket: Socket) => {
      // A kept-alive socket is connected (and was judged) already.
      if (!socket.connecting) return;
      const connect = setTimeout(() => fail(new WebhookSendError('timeout', `could not connect within ${opts.connectTimeoutMs / 1000} s`)), opts.connectTimeoutMs);
      socket.once('connect', () => {
        clearTimeout(connect);
        const why = opts.allowPrivate || !socket.remoteAddress ? null : opts.forbiddenAddress(socket.remoteAddress);
        if (why) fail(refused(`refused: connected to ${socket.remoteAddress}, ${why}`));
      });
      socket.once('close', () => clearTimeout(connect));
    });
    req.on('error', (e: Error & { code?: string }) => {
      if (e instanceof WebhookSendError) return fail(e);
      fail(new WebhookSendError('connection', `${e.code ?? 'error'}: ${e.message}`.slice(0, 300)));
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (kept < EXCERPT_BYTES) {
          chunks.push(chunk.subarray(0, EXCERPT_BYTES - kept));
          kept += Math.min(chunk.length, EXCERPT_BYTES - kept);
        }
        if (read > DRAIN_MAX_BYTES) done();
      });
      const done = () => {
        if (settled) return;
        settled = true;
        clearTimeout(total);
        if (!res.complete) res.destroy();
        resolve({ status: res.statusCode ?? 0, excerpt: Buffer.concat(chunks).toString('utf8') });
      };
      res.on('end', done);
      res.on('error', () => done());
    });
    req.end(body);
  });

  return {
    post,
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
