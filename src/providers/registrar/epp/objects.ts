// The EPP frames the driver sends for domains, contacts and hosts (RFC 5731–5733), and readers of
// what the registry answers (infData, chkData, trnData) into the registrar interface's types.
import { createHash, createHmac } from 'node:crypto';
import type { DomainContact, DomainOwner, RegistryDomain, TransferState } from '../types.ts';
import { type BuildEl, NS, type XmlEl, child, childrenOf, el, objectEl, textOf } from './xml.ts';

const D = NS.domain;

export const domainName = (name: string) => el('domain:name', name);

export function domainInfoEl(name: string, authCode?: string): BuildEl {
  return objectEl('domain:info', [el('domain:name', { hosts: 'all' }, name), authCode !== undefined ? el('domain:authInfo', [el('domain:pw', authCode)]) : null]);
}

export function readDomainInfo(resData: XmlEl | undefined): RegistryDomain & { sponsor: string; registrant: string | null; statuses: string[]; authInfo: string | null } {
  const inf = child(resData, D, 'infData');
  if (!inf) throw new Error('domain:infData missing from the answer');
  const statuses = childrenOf(inf, D, 'status').map((s) => s.attrs.s ?? '');
  const exDate = textOf(inf, D, 'exDate');
  return {
    name: textOf(inf, D, 'name') ?? '',
    ref: textOf(inf, D, 'roid') ?? '',
    createdAt: new Date(textOf(inf, D, 'crDate') ?? Date.now()),
    expiresAt: exDate ? new Date(exDate) : new Date(NaN),
    nameservers: childrenOf(child(inf, D, 'ns'), D, 'hostObj').map((h) => h.text.toLowerCase()),
    transferLock: statuses.includes('clientTransferProhibited'),
    whoisPrivacy: false,
    sponsor: textOf(inf, D, 'clID') ?? '',
    registrant: textOf(inf, D, 'registrant') ?? null,
    statuses,
    authInfo: child(child(inf, D, 'authInfo'), D, 'pw')?.text ?? null,
  };
}

export function readCheck(resData: XmlEl | undefined): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const cd of childrenOf(child(resData, D, 'chkData'), D, 'cd')) {
    const n = child(cd, D, 'name');
    if (n) out.set(n.text.toLowerCase(), n.attrs.avail === '1' || n.attrs.avail === 'true');
  }
  return out;
}

export interface TransferData {
  name: string;
  trStatus: string;
  reID: string;
  acID: string;
  exDate: Date | null;
}

export function readTransfer(resData: XmlEl | undefined): TransferData | null {
  const t = child(resData, D, 'trnData');
  if (!t) return null;
  const ex = textOf(t, D, 'exDate');
  return { name: (textOf(t, D, 'name') ?? '').toLowerCase(), trStatus: textOf(t, D, 'trStatus') ?? '', reID: textOf(t, D, 'reID') ?? '', acID: textOf(t, D, 'acID') ?? '', exDate: ex ? new Date(ex) : null };
}

export function transferStateOf(trStatus: string): TransferState {
  if (trStatus === 'pending') return 'pending';
  if (trStatus === 'clientApproved' || trStatus === 'serverApproved') return 'completed';
  return 'rejected';
}

/** The date part of an expiry, as <domain:curExpDate> wants it. */
export const dateOnly = (d: Date) => d.toISOString().slice(0, 10);

/**
 * A domain's authInfo, derived from the request token with our EPP password as the key: a retried
 * create after a lost answer recognises its own domain by it, and nobody without the password can
 * guess it. 16 characters of letters and digits plus two symbols, as registries' policies ask.
 */
export function authInfoFor(secret: string, token: string): string {
  return `${createHmac('sha256', secret).update(`authinfo:${token}`).digest('base64url').slice(0, 16)}#1`;
}

type Owner = DomainOwner;

export interface ContactData {
  id: string;
  name: string;
  org: string | null;
  street: string | null;
  city: string;
  pc: string | null;
  cc: string;
  voice: string | null;
  email: string;
  /** WHOIS privacy: disclose flag 0 over name, address, voice and email. */
  private: boolean;
}

/** The two-digit country calling codes (ITU-T E.164); 1 and 7 are the one-digit ones, every other code has three digits. */
const TWO_DIGIT_CODES = new Set([
  20, 27, 30, 31, 32, 33, 34, 36, 39, 40, 41, 43, 44, 45, 46, 47, 48, 49, 51, 52, 53, 54, 55, 56, 57, 58,
  60, 61, 62, 63, 64, 65, 66, 81, 82, 84, 86, 90, 91, 92, 93, 94, 95, 98,
]);

/**
 * +CC.NUMBER (RFC 5733 §2.5). Profiles spell phones internationally without the dot (+49 30 1234567):
 * country codes are a prefix code, so the split is certain. A number without its + and country code
 * is left out rather than guessed.
 */
export function voiceOf(phone: string | null | undefined): string | null {
  const p = (phone ?? '').replace(/[\s()-]/g, '');
  if (/^\+[0-9]{1,3}\.[0-9]{1,14}$/.test(p)) return p;
  const digits = /^\+([1-9][0-9]{6,14})$/.exec(p)?.[1];
  if (!digits) return null;
  const cc = digits[0] === '1' || digits[0] === '7' ? 1 : TWO_DIGIT_CODES.has(Number(digits.slice(0, 2))) ? 2 : 3;
  return `+${digits.slice(0, cc)}.${digits.slice(cc)}`;
}

/** Contact ids (3–16 characters): one per account and privacy choice, stable across orders. */
export function contactIdOf(accountId: string, privacy: boolean): string {
  return `hc${createHash('sha256').update(accountId).digest('hex').slice(0, 12)}${privacy ? 'p' : 'c'}`;
}

/** The registrant from the order's contact when it has one, else from the account's profile. */
export function contactFor(owner: Owner, order: DomainContact | null, privacy: boolean): ContactData {
  const id = contactIdOf(owner.id, privacy);
  if (order) {
    return {
      id, name: `${order.first_name} ${order.last_name}`.trim(), org: owner.company, street: order.address, city: order.city, pc: order.postal_code,
      cc: order.country.toUpperCase(), voice: voiceOf(order.phone), email: order.email, private: privacy,
    };
  }
  return {
    id, name: owner.name || owner.email, org: owner.company, street: null, city: 'n/a', pc: null, cc: (owner.country ?? 'US').toUpperCase(),
    voice: voiceOf(owner.phone), email: owner.email, private: privacy,
  };
}

/**
 * The contact as the registry holds it, brought up to date with the account's profile: name,
 * organisation, email, phone and country are the profile's; the address stays as an order gave it
 * (the profile has none); a phone the profile lacks (or spells otherwise than +CC.NUMBER) keeps the held one.
 */
export function contactFromProfile(held: ContactData, owner: Owner): ContactData {
  return {
    ...held, name: owner.name || owner.email, org: owner.company, email: owner.email, voice: voiceOf(owner.phone) ?? held.voice,
    cc: owner.country ? owner.country.toUpperCase() : held.cc,
  };
}

function contactBody(c: ContactData): BuildEl[] {
  return [
    el('contact:postalInfo', { type: 'int' }, [
      el('contact:name', c.name), c.org ? el('contact:org', c.org) : null,
      el('contact:addr', [c.street ? el('contact:street', c.street) : null, el('contact:city', c.city), c.pc ? el('contact:pc', c.pc) : null, el('contact:cc', c.cc)]),
    ]),
    ...(c.voice ? [el('contact:voice', c.voice)] : []),
    el('contact:email', c.email),
  ];
}

function discloseEl(c: ContactData): BuildEl {
  return el('contact:disclose', { flag: c.private ? '0' : '1' }, [
    el('contact:name', { type: 'int' }), el('contact:addr', { type: 'int' }), el('contact:voice'), el('contact:email'),
  ]);
}

export function contactCreateEl(c: ContactData, authInfo: string, disclose: boolean): BuildEl {
  return objectEl('contact:create', [el('contact:id', c.id), ...contactBody(c), el('contact:authInfo', [el('contact:pw', authInfo)]), disclose ? discloseEl(c) : null]);
}

export function contactUpdateEl(c: ContactData, disclose: boolean): BuildEl {
  const [postal, ...rest] = contactBody(c);
  // <chg> takes postalInfo, voice, fax, email, authInfo, disclose in that order.
  return objectEl('contact:update', [el('contact:id', c.id), el('contact:chg', [postal!, ...rest, disclose ? discloseEl(c) : null])]);
}

/** What the registry holds of a contact, to compare with what we would send. */
export function contactMatches(resData: XmlEl | undefined, c: ContactData, disclose: boolean): boolean {
  const C = NS.contact;
  const inf = child(resData, C, 'infData');
  const postal = child(inf, C, 'postalInfo');
  const addr = child(postal, C, 'addr');
  const d = child(inf, C, 'disclose');
  return textOf(postal, C, 'name') === c.name && (textOf(postal, C, 'org') ?? null) === c.org
    && (textOf(addr, C, 'street') ?? null) === c.street && textOf(addr, C, 'city') === c.city && (textOf(addr, C, 'pc') ?? null) === c.pc
    && textOf(addr, C, 'cc') === c.cc && (textOf(inf, C, 'voice') ?? null) === c.voice && textOf(inf, C, 'email') === c.email
    && (!disclose || (d ? d.attrs.flag === (c.private ? '0' : '1') : !c.private));
}

/** A host inside `domain` (in-bailiwick) needs glue addresses; one outside must not have them. */
export function insideDomain(host: string, domain: string): boolean {
  return host.endsWith(`.${domain}`);
}

/** A contact as the registry holds it, under another id and privacy choice (WHOIS privacy moves a domain to its twin). */
export function readContact(resData: XmlEl | undefined, id: string, privacy: boolean): ContactData | null {
  const C = NS.contact;
  const inf = child(resData, C, 'infData');
  const postal = child(inf, C, 'postalInfo');
  const addr = child(postal, C, 'addr');
  if (!inf || !postal) return null;
  return {
    id, name: textOf(postal, C, 'name') ?? '', org: textOf(postal, C, 'org') ?? null, street: textOf(addr, C, 'street') ?? null,
    city: textOf(addr, C, 'city') ?? '', pc: textOf(addr, C, 'pc') ?? null, cc: textOf(addr, C, 'cc') ?? '',
    voice: textOf(inf, C, 'voice') ?? null, email: textOf(inf, C, 'email') ?? '', private: privacy,
  };
}
