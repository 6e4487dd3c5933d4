// The test registry's contact (RFC 5733), host (RFC 5732) and poll (RFC 5730 §2.9.2.3) commands.
import { NS, type XmlEl, child, childrenOf, el, objectEl, path, textOf } from '../xml.ts';
import { type Answer, Refuse, eppDate, ok } from './answers.ts';
import type { PostalInfo, RegContact, RegistryState } from './state.ts';

const C = NS.contact;
const H = NS.host;

function postalOf(x: XmlEl): PostalInfo {
  const addr = child(x, C, 'addr');
  const name = textOf(x, C, 'name');
  const city = textOf(addr, C, 'city');
  const cc = textOf(addr, C, 'cc');
  if (!name || !city || !cc) throw new Refuse(2003, 'contact:postalInfo needs name, addr/city and addr/cc');
  if (!/^[A-Z]{2}$/.test(cc)) throw new Refuse(2005, `contact:cc "${cc}" is not a two-letter country code`);
  const type = x.attrs.type === 'loc' ? 'loc' : 'int';
  return {
    type, name, org: textOf(x, C, 'org') ?? null, street: childrenOf(addr, C, 'street').map((s) => s.text), city,
    sp: textOf(addr, C, 'sp') ?? null, pc: textOf(addr, C, 'pc') ?? null, cc,
  };
}

function discloseOf(state: RegistryState, x: XmlEl | undefined): RegContact['disclose'] {
  if (!x) return null;
  if (!state.supportsDisclose) throw new Refuse(2306, 'this registry does not support disclose preferences');
  return { flag: x.attrs.flag === '1', fields: x.children.map((c) => c.attrs.type ? `${c.name}:${c.attrs.type}` : c.name) };
}

const VOICE = /^\+[0-9]{1,3}\.[0-9]{1,14}$/;

function checkContactFields(voice: string | undefined, email: string | undefined): void {
  if (voice !== undefined && !VOICE.test(voice)) throw new Refuse(2005, `contact:voice "${voice}" is not +CC.NUMBER`);
  if (email !== undefined && !/^[^@\s]+@[^@\s]+$/.test(email)) throw new Refuse(2005, `contact:email "${email}" is not an address`);
}

export function contactCheck(state: RegistryState, obj: XmlEl): Answer {
  const ids = childrenOf(obj, C, 'id').map((i) => i.text);
  return ok(objectEl('contact:chkData', ids.map((id) => el('contact:cd', [el('contact:id', { avail: state.contacts.has(id) ? '0' : '1' }, id)]))));
}

export function contactCreate(state: RegistryState, clID: string, obj: XmlEl): Answer {
  const id = textOf(obj, C, 'id');
  if (!id || id.length < 3 || id.length > 16) throw new Refuse(2005, 'contact:id must be 3–16 characters');
  if (state.contacts.has(id)) throw new Refuse(2302, `contact ${id} exists`);
  const postal = childrenOf(obj, C, 'postalInfo').map(postalOf);
  if (postal.length === 0) throw new Refuse(2003, 'contact:postalInfo is missing');
  const email = textOf(obj, C, 'email');
  if (!email) throw new Refuse(2003, 'contact:email is missing');
  const voice = textOf(obj, C, 'voice');
  checkContactFields(voice, email);
  const c: RegContact = {
    id, roid: state.roid('C'), sponsor: clID, postal, voice: voice ?? null, email, authInfo: path(obj, C, 'authInfo', 'pw')?.text ?? '',
    disclose: discloseOf(state, child(obj, C, 'disclose')), crDate: new Date(),
  };
  state.contacts.set(id, c);
  return ok(objectEl('contact:creData', [el('contact:id', id), el('contact:crDate', eppDate(c.crDate))]));
}

export function contactInfo(state: RegistryState, clID: string, obj: XmlEl): Answer {
  const id = textOf(obj, C, 'id') ?? '';
  const c = state.contacts.get(id);
  if (!c) throw new Refuse(2303, `contact ${id} does not exist`);
  const mine = c.sponsor === clID;
  return ok(objectEl('contact:infData', [
    el('contact:id', c.id), el('contact:roid', c.roid), el('contact:status', { s: 'ok' }),
    ...c.postal.map((p) => el('contact:postalInfo', { type: p.type }, [
      el('contact:name', p.name), p.org ? el('contact:org', p.org) : null,
      el('contact:addr', [...p.street.map((s) => el('contact:street', s)), el('contact:city', p.city), p.sp ? el('contact:sp', p.sp) : null,
        p.pc ? el('contact:pc', p.pc) : null, el('contact:cc', p.cc)]),
    ])),
    c.voice ? el('contact:voice', c.voice) : null, el('contact:email', c.email),
    el('contact:clID', c.sponsor), el('contact:crID', c.sponsor), el('contact:crDate', eppDate(c.crDate)),
    mine && c.authInfo ? el('contact:authInfo', [el('contact:pw', c.authInfo)]) : null,
    c.disclose ? el('contact:disclose', { flag: c.disclose.flag ? '1' : '0' }, c.disclose.fields.map((f) => {
      const [name, type] = f.split(':');
      return el(`contact:${name}`, type ? { type } : undefined);
    })) : null,
  ]));
}

export function contactUpdate(state: RegistryState, clID: string, obj: XmlEl): Answer {
  const id = textOf(obj, C, 'id') ?? '';
  const c = state.contacts.get(id);
  if (!c) throw new Refuse(2303, `contact ${id} does not exist`);
  if (c.sponsor !== clID) throw new Refuse(2201, `contact ${id} is another registrar's`);
  const chg = child(obj, C, 'chg');
  const postal = childrenOf(chg, C, 'postalInfo').map(postalOf);
  const voice = textOf(chg, C, 'voice');
  const email = textOf(chg, C, 'email');
  checkContactFields(voice, email);
  const disclose = child(chg, C, 'disclose');
  if (postal.length) c.postal = postal;
  if (voice !== undefined) c.voice = voice;
  if (email !== undefined) c.email = email;
  if (disclose) c.disclose = discloseOf(state, disclose);
  const pw = path(chg, C, 'authInfo', 'pw')?.text;
  if (pw) c.authInfo = pw;
  state.bump(state.counters.contactUpdates, id);
  return ok();
}

export function hostCheck(state: RegistryState, obj: XmlEl): Answer {
  const names = childrenOf(obj, H, 'name').map((n) => n.text.toLowerCase());
  return ok(objectEl('host:chkData', names.map((name) => el('host:cd', [el('host:name', { avail: state.hosts.has(name) ? '0' : '1' }, name)]))));
}

/** The registry's domain a host name lies in (in-bailiwick: needs glue), if any. */
function superordinate(state: RegistryState, host: string): string | null {
  const labels = host.split('.');
  for (let i = 1; i < labels.length - 1; i++) {
    const d = labels.slice(i).join('.');
    if (state.domains.has(d)) return d;
  }
  return null;
}

export function hostCreate(state: RegistryState, clID: string, obj: XmlEl): Answer {
  const name = textOf(obj, H, 'name')?.toLowerCase();
  if (!name) throw new Refuse(2003, 'host:name is missing');
  if (state.hosts.has(name)) throw new Refuse(2302, `host ${name} exists`);
  const addrs = childrenOf(obj, H, 'addr').map((a) => ({ ip: a.attrs.ip === 'v6' ? 'v6' as const : 'v4' as const, addr: a.text }));
  const parent = superordinate(state, name);
  if (parent) {
    if (state.domains.get(parent)!.sponsor !== clID) throw new Refuse(2201, `${parent} is another registrar's`);
    if (addrs.length === 0) throw new Refuse(2003, `host ${name} lies inside ${parent}: give its glue addresses`);
  } else if (addrs.length > 0) {
    throw new Refuse(2306, `host ${name} is outside this registry: no glue addresses`);
  }
  const crDate = new Date();
  state.hosts.set(name, { name, roid: state.roid('H'), sponsor: clID, addrs, crDate });
  return ok(objectEl('host:creData', [el('host:name', name), el('host:crDate', eppDate(crDate))]));
}

export function hostInfo(state: RegistryState, obj: XmlEl): Answer {
  const name = textOf(obj, H, 'name')?.toLowerCase() ?? '';
  const h = state.hosts.get(name);
  if (!h) throw new Refuse(2303, `host ${name} does not exist`);
  return ok(objectEl('host:infData', [
    el('host:name', h.name), el('host:roid', h.roid), el('host:status', { s: 'ok' }),
    ...h.addrs.map((a) => el('host:addr', { ip: a.ip }, a.addr)),
    el('host:clID', h.sponsor), el('host:crID', h.sponsor), el('host:crDate', eppDate(h.crDate)),
  ]));
}

/** <poll op="req"> and <poll op="ack" msgID>: the answer, and the queue state to put in <msgQ>. */
export function poll(state: RegistryState, clID: string, op: string, msgID: string | undefined): Answer & { msgQ?: { count: number; id: string; qDate?: Date; msg?: string } } {
  const q = state.queues.get(clID) ?? [];
  if (op === 'req') {
    const first = q[0];
    if (!first) return { code: 1300 };
    return { code: 1301, resData: first.resData ?? undefined, msgQ: { count: q.length, id: first.id, qDate: first.qDate, msg: first.msg } };
  }
  if (op === 'ack') {
    const i = q.findIndex((m) => m.id === msgID);
    if (i < 0) throw new Refuse(2303, `no message ${msgID ?? ''} in your queue`);
    q.splice(i, 1);
    return { code: 1000, msgQ: q[0] ? { count: q.length, id: q[0].id } : undefined };
  }
  throw new Refuse(2005, `unknown poll op "${op}"`);
}
