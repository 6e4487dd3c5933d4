// One EPP session (RFC 5734): a TLS connection with our client certificate (the registry's CA
// pinned when EPP_CA is set), the greeting checked for the objects we need, login, then one
// command at a time — EPP answers in order and has no request ids on the wire besides clTRID,
// so a second command in flight could only be matched by trusting the server's echo. A dropped
// connection, a timeout or a 2500-series answer leaves the session dead; the pool opens another.
import { randomBytes } from 'node:crypto';
import tls from 'node:tls';
import { FrameReader, encodeFrame } from './framing.ts';
import { type EppResponse, type Greeting, helloXml, loginXml, logoutXml, parseEpp, readGreeting, readResponse } from './protocol.ts';
import { NS } from './xml.ts';

export interface SessionOptions {
  host: string;
  port: number;
  clientId: string;
  password: string;
  cert?: string;
  key?: string;
  /** PEM of the CAs to trust (pinned); undefined: the system's. */
  ca?: string;
  /** TLS server name checked against the certificate (default: host). */
  servername?: string;
  connectTimeoutMs: number;
  commandTimeoutMs: number;
  maxFrameBytes?: number;
  /** Sees every frame, both ways (tests keep a transcript; debugging). */
  onFrame?: (dir: 'C' | 'S', xml: string) => void;
}

/** The session failed (network, TLS, timeout, a malformed frame, 2500-series): whether the last command took effect is unknown. */
export class SessionError extends Error {
  constructor(message: string, readonly sent: boolean) {
    super(message);
    this.name = 'SessionError';
  }
}

/** The object namespaces every registry we drive must offer in its greeting. */
export const REQUIRED_OBJECTS = [NS.domain, NS.contact, NS.host];

export class EppSession {
  private socket: tls.TLSSocket | null = null;
  private reader: FrameReader;
  private waiting: { resolve: (xml: string) => void; reject: (e: Error) => void } | null = null;
  private inbox: string[] = [];
  private chain: Promise<unknown> = Promise.resolve();
  private dead: Error | null = null;
  greeting: Greeting | null = null;
  lastUsed = 0;

  constructor(private readonly o: SessionOptions) {
    this.reader = new FrameReader(o.maxFrameBytes);
  }

  get alive(): boolean {
    return this.socket !== null && this.dead === null;
  }

  /** Connects, reads and checks the greeting, logs in. */
  async open(): Promise<void> {
    this.socket = await new Promise<tls.TLSSocket>((resolve, reject) => {
      const s = tls.connect({
        host: this.o.host, port: this.o.port, cert: this.o.cert, key: this.o.key, ca: this.o.ca,
        servername: this.o.servername ?? (/^[\d.:]+$/.test(this.o.host) ? undefined : this.o.host),
        rejectUnauthorized: true, minVersion: 'TLSv1.2',
      });
      const timer = setTimeout(() => { s.destroy(); reject(new SessionError(`No TLS session with ${this.o.host}:${this.o.port} within ${this.o.connectTimeoutMs} ms`, false)); }, this.o.connectTimeoutMs);
      s.once('secureConnect', () => { clearTimeout(timer); resolve(s); });
      s.once('error', (e) => { clearTimeout(timer); reject(new SessionError(`Cannot reach the registry at ${this.o.host}:${this.o.port}: ${e.message}`, false)); });
    });
    const s = this.socket;
    // An idle session must not keep a process alive; a command in flight has its own timer.
    s.unref();
    s.on('data', (chunk: Buffer) => {
      try {
        for (const frame of this.reader.push(chunk)) this.deliver(frame);
      } catch (e) {
        this.fail(new SessionError((e as Error).message, true));
      }
    });
    s.on('error', (e) => this.fail(new SessionError(`The registry connection failed: ${e.message}`, true)));
    s.on('close', () => this.fail(new SessionError('The registry closed the connection', true)));
    const greeting = readGreeting(parseEpp(await this.next(this.o.connectTimeoutMs, false)));
    if (!greeting) throw this.kill(new SessionError('The registry did not greet with <greeting>', false));
    if (!greeting.versions.includes('1.0')) throw this.kill(new SessionError(`The registry offers EPP ${greeting.versions.join(', ')}, not 1.0`, false));
    const missing = REQUIRED_OBJECTS.filter((u) => !greeting.objURIs.includes(u));
    if (missing.length) throw this.kill(new SessionError(`The registry's greeting lacks ${missing.join(', ')}`, false));
    this.greeting = greeting;
    const login = await this.command(loginXml(this.o.clientId, this.o.password, REQUIRED_OBJECTS, `login-${randomBytes(6).toString('hex')}`));
    if (login.code !== 1000) {
      throw this.kill(new SessionError(`Login as ${this.o.clientId} refused: ${login.code} ${login.message}`, false));
    }
  }

  /** Sends one command and reads its response; commands queue behind each other. */
  command(xml: string): Promise<EppResponse> {
    const run = this.chain.then(() => this.exchange(xml));
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Keep-alive: <hello/> answered by a greeting. */
  async hello(): Promise<void> {
    const run = this.chain.then(async () => {
      this.send(helloXml());
      if (!readGreeting(parseEpp(await this.next(this.o.commandTimeoutMs, true)))) throw this.kill(new SessionError('<hello/> was not answered by a greeting', true));
    });
    this.chain = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    if (this.alive) {
      await Promise.race([
        this.command(logoutXml(`logout-${randomBytes(6).toString('hex')}`)).catch(() => undefined),
        new Promise((r) => setTimeout(r, 1000).unref()),
      ]);
    }
    this.kill(new SessionError('Session closed', false));
  }

  private async exchange(xml: string): Promise<EppResponse> {
    if (this.dead) throw this.dead;
    this.send(xml);
    const answer = await this.next(this.o.commandTimeoutMs, true);
    let response: EppResponse | null;
    try {
      response = readResponse(parseEpp(answer));
    } catch (e) {
      throw this.kill(new SessionError(`The registry answered with a malformed frame: ${(e as Error).message}`, true));
    }
    if (!response) throw this.kill(new SessionError('The registry answered a command without <response>', true));
    // 2500–2502: the server ends the session after answering.
    if (response.code >= 2500) this.kill(new SessionError(`The registry ended the session: ${response.code} ${response.message}`, true));
    return response;
  }

  private send(xml: string): void {
    if (!this.socket || this.dead) throw this.dead ?? new SessionError('Not connected', false);
    this.lastUsed = Date.now();
    this.o.onFrame?.('C', xml);
    this.socket.write(encodeFrame(xml));
  }

  private next(timeoutMs: number, sent: boolean): Promise<string> {
    const queued = this.inbox.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.dead) return Promise.reject(this.dead);
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        reject(this.kill(new SessionError(`The registry did not answer within ${timeoutMs} ms`, sent)));
      }, timeoutMs);
      this.waiting = {
        resolve: (x) => { clearTimeout(timer); resolve(x); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      };
    });
  }

  private deliver(frame: string): void {
    this.o.onFrame?.('S', frame);
    const w = this.waiting;
    this.waiting = null;
    if (w) w.resolve(frame);
    else this.inbox.push(frame);
  }

  private fail(e: SessionError): void {
    if (this.dead) return;
    this.kill(e);
  }

  private kill(e: SessionError): SessionError {
    if (!this.dead) this.dead = e;
    this.socket?.destroy();
    const w = this.waiting;
    this.waiting = null;
    w?.reject(e);
    return e;
  }
}
