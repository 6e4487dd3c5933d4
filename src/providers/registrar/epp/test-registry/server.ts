// The EPP test registry: RFC 5730–5734 over TLS with a client-certificate check, state in memory.
// Tests start it in process (startTestRegistry) and steer it through `state` (approve a transfer,
// break the next command); developers start it with `hostcloud epp-test-registry`.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { FrameError, FrameReader, MAX_FRAME_BYTES, encodeFrame } from '../framing.ts';
import { NS, type XmlEl, XmlError, child, el, eppDocument, parseEpp, textOf } from '../xml.ts';
import { type Answer, MESSAGES, Refuse, eppDate } from './answers.ts';
import { type TestPki, makeTestPki } from './certs.ts';
import { domainCheck, domainCreate, domainInfo, domainRenew, domainTransfer, domainUpdate, settleTransfer } from './domain-commands.ts';
import { contactCheck, contactCreate, contactInfo, contactUpdate, hostCheck, hostCreate, hostInfo, poll } from './object-commands.ts';
import { type Fault, RegistryState } from './state.ts';

export interface TestRegistryOptions {
  host?: string;
  port?: number;
  pki?: TestPki;
  /** Registrars allowed to log in: client id → password. */
  clients?: Record<string, string>;
  /** Sees every frame: which connection, direction, XML. */
  onFrame?: (conn: number, dir: 'C' | 'S', xml: string) => void;
}

export interface TestRegistry {
  host: string;
  port: number;
  pki: TestPki;
  state: RegistryState;
  approveTransfer(name: string): void;
  rejectTransfer(name: string): void;
  /** The next `times` (1) commands matching `when` meet `fault`. */
  injectFault(fault: Fault, when?: { verb?: string; object?: string; op?: string }, times?: number): void;
  /** Ends every open session abruptly (a registry restart, a network cut). */
  dropAll(): void;
  /** Open connections now. */
  readonly connections: number;
  close(): Promise<void>;
}

const SV_ID = 'Hostcloud EPP test registry';

function greeting(): string {
  return eppDocument(el('greeting', [
    el('svID', SV_ID), el('svDate', eppDate(new Date())),
    el('svcMenu', [el('version', '1.0'), el('lang', 'en'), el('objURI', NS.domain), el('objURI', NS.contact), el('objURI', NS.host)]),
    el('dcp', [
      el('access', [el('all')]),
      el('statement', [el('purpose', [el('admin'), el('prov')]), el('recipient', [el('ours'), el('public')]), el('retention', [el('stated')])]),
    ]),
  ]));
}

function response(a: Answer & { msgQ?: { count: number; id: string; qDate?: Date; msg?: string } }, clTRID: string | null): string {
  return eppDocument(el('response', [
    el('result', { code: String(a.code) }, [
      el('msg', a.msg ?? MESSAGES[a.code] ?? 'Command failed'),
      a.reason ? el('extValue', [el('value', [el('text', 'reason')]), el('reason', a.reason)]) : null,
    ]),
    a.msgQ ? el('msgQ', { count: String(a.msgQ.count), id: a.msgQ.id }, [
      a.msgQ.qDate ? el('qDate', eppDate(a.msgQ.qDate)) : null, a.msgQ.msg ? el('msg', a.msgQ.msg) : null,
    ]) : null,
    a.resData ? el('resData', [a.resData]) : null,
    el('trID', [clTRID ? el('clTRID', clTRID) : null, el('svTRID', `SV-${randomBytes(8).toString('hex')}`)]),
  ]));
}

interface Conn {
  id: number;
  socket: tls.TLSSocket;
  clID: string | null;
}

/** One command: dispatched by verb and object namespace. */
function handle(state: RegistryState, conn: Conn, verb: XmlEl): Answer & { end?: boolean } {
  if (verb.name === 'login') {
    if (conn.clID) throw new Refuse(2002, 'already logged in');
    const clID = textOf(verb, NS.epp, 'clID') ?? '';
    const pw = textOf(verb, NS.epp, 'pw') ?? '';
    if (!state.clients.has(clID) || state.clients.get(clID) !== pw) return { code: 2200, reason: 'wrong client id or password' };
    if (textOf(child(verb, NS.epp, 'options'), NS.epp, 'version') !== '1.0') throw new Refuse(2306, 'only EPP 1.0');
    conn.clID = clID;
    state.counters.logins++;
    return { code: 1000 };
  }
  if (!conn.clID) return { code: 2002, reason: 'log in first' };
  const clID = conn.clID;
  if (verb.name === 'logout') return { code: 1500, end: true };
  if (verb.name === 'poll') return poll(state, clID, verb.attrs.op ?? '', verb.attrs.msgID);
  const obj = verb.children[0];
  if (!obj) throw new Refuse(2001, `<${verb.name}> names no object`);
  const key = `${verb.name}:${obj.ns === NS.domain ? 'domain' : obj.ns === NS.contact ? 'contact' : obj.ns === NS.host ? 'host' : '?'}`;
  switch (key) {
    case 'check:domain': return domainCheck(state, obj);
    case 'info:domain': return domainInfo(state, clID, obj);
    case 'create:domain': return domainCreate(state, clID, obj);
    case 'renew:domain': return domainRenew(state, clID, obj);
    case 'update:domain': return domainUpdate(state, clID, obj);
    case 'transfer:domain': return domainTransfer(state, clID, obj, verb.attrs.op ?? '');
    case 'check:contact': return contactCheck(state, obj);
    case 'create:contact': return contactCreate(state, clID, obj);
    case 'info:contact': return contactInfo(state, clID, obj);
    case 'update:contact': return contactUpdate(state, clID, obj);
    case 'check:host': return hostCheck(state, obj);
    case 'create:host': return hostCreate(state, clID, obj);
    case 'info:host': return hostInfo(state, obj);
    default: throw new Refuse(2101, `<${verb.name}> of ${obj.ns ?? 'no namespace'} is not implemented`);
  }
}

export async function startTestRegistry(opts: TestRegistryOptions = {}): Promise<TestRegistry> {
  const pki = opts.pki ?? makeTestPki();
  const state = new RegistryState();
  for (const [id, pw] of Object.entries(opts.clients ?? { hostcloud: 'test-password' })) state.clients.set(id, pw);
  const conns = new Set<Conn>();
  let nextId = 0;

  const server = tls.createServer({ key: pki.serverKey, cert: pki.serverCert, ca: pki.caCert, requestCert: true, rejectUnauthorized: true, minVersion: 'TLSv1.2' }, (socket) => {
    const conn: Conn = { id: ++nextId, socket, clID: null };
    conns.add(conn);
    const reader = new FrameReader(MAX_FRAME_BYTES);
    const send = (xml: string) => {
      opts.onFrame?.(conn.id, 'S', xml);
      if (!socket.destroyed) socket.write(encodeFrame(xml));
    };
    socket.on('close', () => conns.delete(conn));
    socket.on('error', () => socket.destroy());
    socket.setTimeout(10 * 60_000, () => socket.destroy());
    send(greeting());
    socket.on('data', (chunk: Buffer) => {
      let frames: string[];
      try {
        frames = reader.push(chunk);
      } catch (e) {
        if (e instanceof FrameError) socket.destroy();
        return;
      }
      for (const frame of frames) {
        if (socket.destroyed) return;
        opts.onFrame?.(conn.id, 'C', frame);
        let root: XmlEl;
        try {
          root = parseEpp(frame);
        } catch (e) {
          send(response({ code: 2001, reason: e instanceof XmlError ? e.message : 'unreadable frame' }, null));
          continue;
        }
        if (child(root, NS.epp, 'hello')) {
          send(greeting());
          continue;
        }
        const command = child(root, NS.epp, 'command');
        const clTRID = textOf(command, NS.epp, 'clTRID') ?? null;
        const verb = command?.children.find((c) => c.ns === NS.epp && c.name !== 'clTRID' && c.name !== 'extension');
        if (!verb) {
          send(response({ code: 2001, reason: 'no command' }, clTRID));
          continue;
        }
        const object = verb.children[0]?.ns === NS.domain ? 'domain' : verb.children[0]?.ns === NS.contact ? 'contact' : verb.children[0]?.ns === NS.host ? 'host' : '';
        const at = state.faults.findIndex((f) => f.when(verb.name, object, conn.clID ?? '', verb.attrs.op));
        const fault = at >= 0 ? state.faults.splice(at, 1)[0]!.fault : null;
        if (fault === 'drop-before') {
          socket.destroy();
          return;
        }
        if (fault && typeof fault === 'object') {
          send(response({ code: fault.code, msg: fault.msg }, clTRID));
          if (fault.code >= 2500) socket.end();
          continue;
        }
        let answer: ReturnType<typeof handle>;
        try {
          answer = handle(state, conn, verb);
        } catch (e) {
          answer = e instanceof Refuse ? { code: e.code, reason: e.reason } : { code: 2400, reason: (e as Error).message };
        }
        if (fault === 'drop-after') {
          socket.destroy();
          return;
        }
        if (fault === 'stall-after') return;
        send(response(answer, clTRID));
        if (answer.end || answer.code === 2200) {
          socket.end();
          return;
        }
      }
    });
  });
  server.on('tlsClientError', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;

  return {
    host: opts.host ?? '127.0.0.1',
    port: address.port,
    pki,
    state,
    approveTransfer: (name) => void settleTransfer(state, name, 'clientApproved'),
    rejectTransfer: (name) => void settleTransfer(state, name, 'clientRejected'),
    injectFault(fault, when = {}, times = 1) {
      for (let i = 0; i < times; i++) {
        state.faults.push({
          fault, when: (verb, object, _clID, op) => (when.verb === undefined || when.verb === verb) && (when.object === undefined || when.object === object) && (when.op === undefined || when.op === op),
        });
      }
    },
    dropAll() {
      for (const c of conns) c.socket.destroy();
    },
    get connections() {
      return conns.size;
    },
    async close() {
      for (const c of conns) c.socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
