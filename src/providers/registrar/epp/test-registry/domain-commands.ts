// The test registry's domain commands (RFC 5731): check, info, create, renew, update, transfer.
import { NS, type XmlEl, child, childrenOf, el, objectEl, path, textOf } from '../xml.ts';
import { type Answer, Refuse, eppDate, ok } from './answers.ts';
import { type RegDomain, type RegTransfer, type RegistryState, RegistryState as State, addYears, nowSeconds } from './state.ts';

const D = NS.domain;
const LDH = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

function nameOf(obj: XmlEl): string {
  const name = textOf(obj, D, 'name')?.toLowerCase();
  if (!name) throw new Refuse(2003, 'domain:name is missing');
  return name;
}

function sponsored(state: RegistryState, clID: string, name: string): RegDomain {
  const d = state.domains.get(name);
  if (!d) throw new Refuse(2303, `${name} is not registered`);
  if (d.sponsor !== clID) throw new Refuse(2201, `${name} is sponsored by another registrar`);
  return d;
}

function periodOf(obj: XmlEl, fallback: number | null): number {
  const p = child(obj, D, 'period');
  if (!p) {
    if (fallback === null) throw new Refuse(2003, 'domain:period is missing');
    return fallback;
  }
  const n = Number(p.text);
  const years = p.attrs.unit === 'm' ? n / 12 : n;
  if (!Number.isInteger(years) || years < 1 || years > 10) throw new Refuse(2004, `period ${p.text}${p.attrs.unit ?? ''} is outside 1–10 years`);
  return years;
}

const hostObjs = (container: XmlEl | undefined) => childrenOf(child(container, D, 'ns'), D, 'hostObj').map((h) => h.text.toLowerCase());

export function trnData(t: RegTransfer): ReturnType<typeof objectEl> {
  return objectEl('domain:trnData', [
    el('domain:name', t.name), el('domain:trStatus', t.status), el('domain:reID', t.reID), el('domain:reDate', eppDate(t.reDate)),
    el('domain:acID', t.acID), el('domain:acDate', eppDate(t.acDate)), el('domain:exDate', eppDate(t.exDate)),
  ]);
}

export function domainCheck(state: RegistryState, obj: XmlEl): Answer {
  const names = childrenOf(obj, D, 'name').map((n) => n.text.toLowerCase());
  if (names.length === 0) throw new Refuse(2003, 'no domain:name to check');
  if (names.length > state.checkLimit) throw new Refuse(2306, `at most ${state.checkLimit} names per check`);
  return ok(objectEl('domain:chkData', names.map((name) => {
    const taken = state.domains.has(name);
    const valid = LDH.test(name) && state.tlds.has(name.slice(name.lastIndexOf('.') + 1));
    return el('domain:cd', [
      el('domain:name', { avail: taken || !valid ? '0' : '1' }, name),
      taken ? el('domain:reason', 'In use') : !valid ? el('domain:reason', 'Not served by this registry') : null,
    ]);
  })));
}

export function domainInfo(state: RegistryState, clID: string, obj: XmlEl): Answer {
  const name = nameOf(obj);
  const d = state.domains.get(name);
  if (!d) throw new Refuse(2303, `${name} is not registered`);
  const pw = path(obj, D, 'authInfo', 'pw')?.text;
  const mine = d.sponsor === clID;
  if (!mine) {
    if (pw === undefined) throw new Refuse(2201, `${name} is sponsored by another registrar; give its authInfo`);
    if (pw !== d.authInfo) throw new Refuse(2202, `wrong authInfo for ${name}`);
  }
  return ok(objectEl('domain:infData', [
    el('domain:name', d.name), el('domain:roid', d.roid),
    ...[...d.statuses].map((s) => el('domain:status', { s })),
    d.registrant ? el('domain:registrant', d.registrant) : null,
    d.admin ? el('domain:contact', { type: 'admin' }, d.admin) : null,
    d.tech ? el('domain:contact', { type: 'tech' }, d.tech) : null,
    d.ns.length ? el('domain:ns', d.ns.map((h) => el('domain:hostObj', h))) : null,
    el('domain:clID', d.sponsor), el('domain:crID', d.sponsor), el('domain:crDate', eppDate(d.crDate)),
    d.upDate ? el('domain:upDate', eppDate(d.upDate)) : null,
    el('domain:exDate', eppDate(d.exDate)),
    el('domain:authInfo', [el('domain:pw', d.authInfo)]),
  ]));
}

export function domainCreate(state: RegistryState, clID: string, obj: XmlEl): Answer {
  const name = nameOf(obj);
  if (!LDH.test(name)) throw new Refuse(2005, `${name} is not a valid domain name`);
  if (!state.tlds.has(name.slice(name.lastIndexOf('.') + 1))) throw new Refuse(2306, `${name}: this registry does not serve its TLD`);
  if (state.domains.has(name)) throw new Refuse(2302, `${name} is registered already`);
  const years = periodOf(obj, 1);
  const ns = hostObjs(obj);
  if (ns.length > 13) throw new Refuse(2306, 'at most 13 nameservers');
  for (const h of ns) if (!state.hosts.has(h)) throw new Refuse(2303, `host ${h} does not exist; create it first`);
  const registrant = textOf(obj, D, 'registrant');
  if (!registrant) throw new Refuse(2003, 'domain:registrant is missing');
  const contacts = childrenOf(obj, D, 'contact');
  for (const c of [registrant, ...contacts.map((x) => x.text)]) if (!state.contacts.has(c)) throw new Refuse(2303, `contact ${c} does not exist`);
  const pw = path(obj, D, 'authInfo', 'pw')?.text;
  if (!pw) throw new Refuse(2003, 'domain:authInfo is missing');
  const now = nowSeconds();
  const d: RegDomain = {
    name, roid: state.roid('D'), sponsor: clID, crDate: now, exDate: addYears(now, years), upDate: null, registrant,
    admin: contacts.find((c) => c.attrs.type === 'admin')?.text ?? null, tech: contacts.find((c) => c.attrs.type === 'tech')?.text ?? null,
    ns, statuses: new Set(['ok']), authInfo: pw,
  };
  state.domains.set(name, d);
  state.bump(state.counters.domainCreates, name);
  return ok(objectEl('domain:creData', [el('domain:name', name), el('domain:crDate', eppDate(d.crDate)), el('domain:exDate', eppDate(d.exDate))]));
}

export function domainRenew(state: RegistryState, clID: string, obj: XmlEl): Answer {
  const name = nameOf(obj);
  const d = sponsored(state, clID, name);
  const cur = textOf(obj, D, 'curExpDate');
  if (!cur) throw new Refuse(2003, 'domain:curExpDate is missing');
  if (cur !== d.exDate.toISOString().slice(0, 10)) throw new Refuse(2306, `curExpDate ${cur} is not the expiry ${d.exDate.toISOString().slice(0, 10)}`);
  const years = periodOf(obj, 1);
  const next = addYears(d.exDate, years);
  if (next > addYears(new Date(), 10)) throw new Refuse(2306, 'a registration may not run more than 10 years ahead');
  d.exDate = next;
  state.bump(state.counters.renewals, name);
  return ok(objectEl('domain:renData', [el('domain:name', name), el('domain:exDate', eppDate(next))]));
}

const CLIENT_STATUSES = new Set(['clientTransferProhibited', 'clientUpdateProhibited', 'clientDeleteProhibited', 'clientRenewProhibited', 'clientHold']);

export function domainUpdate(state: RegistryState, clID: string, obj: XmlEl): Answer {
  const d = sponsored(state, clID, nameOf(obj));
  const add = child(obj, D, 'add');
  const rem = child(obj, D, 'rem');
  const chg = child(obj, D, 'chg');
  const statusesOf = (x: XmlEl | undefined) => childrenOf(x, D, 'status').map((s) => s.attrs.s ?? '');
  for (const s of [...statusesOf(add), ...statusesOf(rem)]) if (!CLIENT_STATUSES.has(s)) throw new Refuse(2306, `status ${s} cannot be set by a registrar`);
  const addNs = hostObjs(add);
  for (const h of addNs) if (!state.hosts.has(h)) throw new Refuse(2303, `host ${h} does not exist; create it first`);
  const registrant = textOf(chg, D, 'registrant');
  if (registrant && !state.contacts.has(registrant)) throw new Refuse(2303, `contact ${registrant} does not exist`);
  const remNs = new Set(hostObjs(rem));
  const ns = [...d.ns.filter((h) => !remNs.has(h)), ...addNs.filter((h) => !d.ns.includes(h))];
  if (ns.length > 13) throw new Refuse(2306, 'at most 13 nameservers');
  d.ns = ns;
  for (const s of statusesOf(rem)) d.statuses.delete(s);
  for (const s of statusesOf(add)) d.statuses.add(s);
  if (d.statuses.size > 1) d.statuses.delete('ok');
  if (d.statuses.size === 0) d.statuses.add('ok');
  if (registrant) d.registrant = registrant;
  const pw = path(chg, D, 'authInfo', 'pw')?.text;
  if (pw) d.authInfo = pw;
  d.upDate = new Date();
  return ok();
}

export function domainTransfer(state: RegistryState, clID: string, obj: XmlEl, op: string): Answer {
  const name = nameOf(obj);
  const d = state.domains.get(name);
  if (!d) throw new Refuse(2303, `${name} is not registered`);
  const current = state.transfers.get(name);
  if (op === 'query') {
    if (!current) throw new Refuse(2301, `no transfer of ${name} was requested`);
    if (current.reID !== clID && current.acID !== clID) throw new Refuse(2201, `the transfer of ${name} is another registrar's`);
    return ok(trnData(current));
  }
  if (op === 'request') {
    if (d.sponsor === clID) throw new Refuse(2106, `${name} is sponsored by you already`);
    if (current?.status === 'pending') throw new Refuse(2300, `a transfer of ${name} is pending`);
    if (d.statuses.has('clientTransferProhibited') || d.statuses.has('serverTransferProhibited')) throw new Refuse(2304, `${name} is locked against transfer`);
    if (path(obj, D, 'authInfo', 'pw')?.text !== d.authInfo) throw new Refuse(2202, `wrong authInfo for ${name}`);
    const years = periodOf(obj, 1);
    const now = nowSeconds();
    const t: RegTransfer = {
      name, status: 'pending', reID: clID, reDate: now, acID: d.sponsor, acDate: new Date(now.getTime() + 5 * 86_400_000), period: years, exDate: addYears(d.exDate, years),
    };
    state.transfers.set(name, t);
    state.bump(state.counters.transferRequests, name);
    state.enqueue(d.sponsor, `Transfer of ${name} requested by ${clID}`, trnData(t));
    return ok(trnData(t), 1001);
  }
  if (!current || current.status !== 'pending') throw new Refuse(2301, `no transfer of ${name} is pending`);
  if (op === 'cancel') {
    if (current.reID !== clID) throw new Refuse(2201, 'only the requesting registrar may cancel');
    settleTransfer(state, name, 'clientCancelled');
    return ok(trnData(current));
  }
  if (op === 'approve' || op === 'reject') {
    if (d.sponsor !== clID) throw new Refuse(2201, 'only the sponsoring registrar may approve or reject');
    settleTransfer(state, name, op === 'approve' ? 'clientApproved' : 'clientRejected');
    return ok(trnData(current));
  }
  throw new Refuse(2005, `unknown transfer op "${op}"`);
}

/** Ends a pending transfer: on approval the name moves, gets a year more and a new authInfo; both registrars are told through their queues. */
export function settleTransfer(state: RegistryState, name: string, status: Exclude<RegTransfer['status'], 'pending'>): RegTransfer {
  const t = state.transfers.get(name);
  const d = state.domains.get(name);
  if (!t || t.status !== 'pending' || !d) throw new Error(`no pending transfer of ${name}`);
  t.status = status;
  t.acDate = new Date();
  if (status === 'clientApproved' || status === 'serverApproved') {
    d.sponsor = t.reID;
    d.exDate = t.exDate;
    d.authInfo = State.authCode();
    d.statuses = new Set(['ok']);
    d.upDate = new Date();
  }
  const words = status.endsWith('Approved') ? 'approved' : status.endsWith('Rejected') ? 'rejected' : 'cancelled';
  state.enqueue(t.reID, `Transfer of ${name} ${words}`, trnData(t));
  if (t.acID !== t.reID) state.enqueue(t.acID, `Transfer of ${name} ${words}`, trnData(t));
  return t;
}
