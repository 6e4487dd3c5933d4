// EPP's envelopes (RFC 5730 §2): commands with their clTRID, the greeting, and what a response
// says — its result code, message, resData, message queue and transaction ids.
import { type BuildEl, NS, type XmlEl, child, childrenOf, el, eppDocument, parseEpp, path, textOf } from './xml.ts';

/** RFC 5730's trIDStringType: 3–64 characters. */
export function clTRIDOf(token: string, step: string): string {
  const id = `${step}:${token}`;
  return id.length <= 64 ? id : id.slice(0, 64);
}

export type Verb = 'check' | 'info' | 'create' | 'renew' | 'update' | 'transfer' | 'poll' | 'delete';

export function commandXml(verb: Verb, clTRID: string, object: BuildEl | null, attrs?: Record<string, string>): string {
  return eppDocument(el('command', [el(verb, attrs, object ? [object] : []), el('clTRID', clTRID)]));
}

export function loginXml(clID: string, pw: string, objURIs: string[], clTRID: string, newPw?: string): string {
  return eppDocument(el('command', [
    el('login', [
      el('clID', clID), el('pw', pw), newPw ? el('newPW', newPw) : null,
      el('options', [el('version', '1.0'), el('lang', 'en')]),
      el('svcs', objURIs.map((u) => el('objURI', u))),
    ]),
    el('clTRID', clTRID),
  ]));
}

export const logoutXml = (clTRID: string) => eppDocument(el('command', [el('logout'), el('clTRID', clTRID)]));
export const helloXml = () => eppDocument(el('hello'));

export interface Greeting {
  svID: string;
  versions: string[];
  langs: string[];
  objURIs: string[];
  extURIs: string[];
}

export function readGreeting(root: XmlEl): Greeting | null {
  const g = child(root, NS.epp, 'greeting');
  if (!g) return null;
  const menu = child(g, NS.epp, 'svcMenu');
  return {
    svID: textOf(g, NS.epp, 'svID') ?? '',
    versions: childrenOf(menu, NS.epp, 'version').map((v) => v.text),
    langs: childrenOf(menu, NS.epp, 'lang').map((v) => v.text),
    objURIs: childrenOf(menu, NS.epp, 'objURI').map((v) => v.text),
    extURIs: childrenOf(child(menu, NS.epp, 'svcExtension'), NS.epp, 'extURI').map((v) => v.text),
  };
}

export interface MessageQueue {
  count: number;
  id: string | null;
  date: string | null;
  msg: string | null;
}

export interface EppResponse {
  code: number;
  message: string;
  /** extValue/reason, when the server gave one. */
  reason: string | null;
  resData: XmlEl | undefined;
  msgQ: MessageQueue | null;
  clTRID: string | null;
  svTRID: string | null;
}

export function readResponse(root: XmlEl): EppResponse | null {
  const r = child(root, NS.epp, 'response');
  if (!r) return null;
  const result = child(r, NS.epp, 'result');
  const q = child(r, NS.epp, 'msgQ');
  const reason = path(result, NS.epp, 'extValue', 'reason')?.text ?? null;
  return {
    code: Number(result?.attrs.code ?? 2400),
    message: textOf(result, NS.epp, 'msg') ?? '',
    reason,
    resData: child(r, NS.epp, 'resData'),
    msgQ: q ? { count: Number(q.attrs.count ?? 0), id: q.attrs.id ?? null, date: textOf(q, NS.epp, 'qDate') ?? null, msg: textOf(q, NS.epp, 'msg') ?? null } : null,
    clTRID: path(r, NS.epp, 'trID', 'clTRID')?.text ?? null,
    svTRID: path(r, NS.epp, 'trID', 'svTRID')?.text ?? null,
  };
}

export { parseEpp };
