// REGISTRAR_DRIVER=epp: the registrar spoken to in EPP (RFC 5730–5734) through a pool of
// EPP_SESSIONS sessions. Exactly once: every changing command carries a clTRID made of our
// operation id and its step, and a command whose answer was lost (the session dropped after it
// was sent) is checked — domain info, transfer query — before it is sent again; a create is
// recognised as ours by its authInfo (derived from the token), a renewal by the expiry it made.
import { randomBytes } from 'node:crypto';
import {
  type Registrar, type RegistrarContacts, RegistrarError, type RegistrarMessages, type RegistryDomain, type RegistryMessage, type TransferState, type TransferStatus, type TransferWatch,
} from '../types.ts';
import {
  type ContactData, type TransferData, authInfoFor, contactCreateEl, contactFor, contactFromProfile, contactIdOf, contactMatches, contactUpdateEl, dateOnly,
  domainInfoEl, domainName, insideDomain, readCheck, readContact, readDomainInfo, readTransfer, transferStateOf,
} from './objects.ts';
import { SessionPool } from './pool.ts';
import { type EppResponse, type Verb, clTRIDOf, commandXml } from './protocol.ts';
import { failureOf, isSuccess } from './results.ts';
import { SessionError, type SessionOptions } from './session.ts';
import { NS, type BuildEl, el, objectEl, textOf } from './xml.ts';

export interface EppRegistrarOptions {
  host: string;
  port: number;
  clientId: string;
  password: string;
  cert?: string;
  key?: string;
  ca?: string;
  sessions: number;
  pollS: number;
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
  keepAliveMs?: number;
  /** Names per <check> (the registry's limit). */
  checkLimit?: number;
  /** The least time between two direct questions (transfer query) about one pending transfer; default none (the runner's waits pace them). */
  transferQueryMs?: number;
  /** The runner's first wait before it checks a pending transfer again (default 1 s), and the longest (EPP_TRANSFER_CHECK_S; default 15 min): the wait doubles between. */
  transferCheckFirstMs?: number;
  transferCheckMaxMs?: number;
  /** Whether the registry takes contacts' disclose flags (WHOIS privacy); without, privacy is refused. */
  disclose?: boolean;
  onFrame?: SessionOptions['onFrame'];
}

export interface EppRegistrar extends Registrar {
  readonly messages: RegistrarMessages;
  readonly contacts: RegistrarContacts;
  readonly transferWatch: TransferWatch;
  readonly pool: SessionPool;
  close(): Promise<void>;
}

export const EPP_REGISTRAR_NAME = 'EPP';

const addYears = (d: Date, years: number) => {
  const out = new Date(d);
  out.setUTCFullYear(out.getUTCFullYear() + years);
  return out;
};

export function createEppRegistrar(o: EppRegistrarOptions): EppRegistrar {
  const pool = new SessionPool({
    host: o.host, port: o.port, clientId: o.clientId, password: o.password, cert: o.cert, key: o.key, ca: o.ca,
    size: o.sessions, connectTimeoutMs: o.connectTimeoutMs ?? 10_000, commandTimeoutMs: o.commandTimeoutMs ?? 30_000,
    keepAliveMs: o.keepAliveMs ?? 300_000, onFrame: o.onFrame,
  });
  const checkLimit = o.checkLimit ?? 100;
  const transferQueryMs = o.transferQueryMs ?? 0;
  const disclose = o.disclose ?? true;
  /** Transfers' outcomes learnt from the poll queue, and when each pending one was last asked about. */
  const transferNews = new Map<string, { state: TransferState; reason: string }>();
  const lastQuery = new Map<string, number>();
  /** Runners waiting for news of a transfer (TransferWatch.wait), woken when the poll queue brings it. */
  const newsWaiters = new Map<string, Set<() => void>>();
  const transferWatch: TransferWatch = {
    firstMs: o.transferCheckFirstMs ?? 1000,
    maxMs: Math.max(o.transferCheckFirstMs ?? 1000, o.transferCheckMaxMs ?? 900_000),
    wait(name, ms) {
      if (transferNews.has(name)) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const waiters = newsWaiters.get(name) ?? new Set();
        newsWaiters.set(name, waiters);
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          waiters.delete(done);
          if (waiters.size === 0 && newsWaiters.get(name) === waiters) newsWaiters.delete(name);
          resolve();
        }
        waiters.add(done);
      });
    },
  };

  const down = (e: SessionError, what: string) => new RegistrarError(`${what}: ${e.message}`, { retryable: true });
  const readId = () => clTRIDOf(randomBytes(6).toString('hex'), 'hc-read');
  const xmlOf = (verb: Verb, clTRID: string, object: BuildEl | null, attrs?: Record<string, string>) => commandXml(verb, clTRID, object, attrs);

  /** A command that changes nothing: sent again on a fresh session when the first one dropped. */
  async function read(verb: Verb, object: BuildEl | null, what: string, attrs?: Record<string, string>): Promise<EppResponse> {
    const xml = xmlOf(verb, readId(), object, attrs);
    for (let attempt = 0; ; attempt++) {
      try {
        return await pool.use((s) => s.command(xml));
      } catch (e) {
        if (!(e instanceof SessionError)) throw e;
        if (attempt >= 2) throw down(e, what);
      }
    }
  }

  /**
   * A command that changes something. If the session fails after it was sent, `applied` looks at
   * the registry: what it finds is the answer; nothing found, the command is sent again (same clTRID).
   */
  async function write<T>(verb: Verb, clTRID: string, object: BuildEl, what: string, applied: () => Promise<T | null>, attrs?: Record<string, string>): Promise<{ r: EppResponse } | { found: T }> {
    const xml = xmlOf(verb, clTRID, object, attrs);
    for (let attempt = 0; ; attempt++) {
      try {
        return { r: await pool.use((s) => s.command(xml)) };
      } catch (e) {
        if (!(e instanceof SessionError)) throw e;
        if (e.sent) {
          const found = await applied();
          if (found !== null) return { found };
        }
        if (attempt >= 2) throw down(e, what);
      }
    }
  }

  type Held = ReturnType<typeof readDomainInfo>;

  async function domainOrNull(name: string): Promise<Held | null> {
    const r = await read('info', domainInfoEl(name), `info ${name}`);
    if (r.code === 2303) return null;
    if (!isSuccess(r.code)) throw failureOf(r, `info ${name}`);
    return readDomainInfo(r.resData);
  }

  async function ours(name: string): Promise<Held> {
    const d = await domainOrNull(name);
    if (!d) throw new RegistrarError(`${name} is not registered`, { refusal: 'not_registered' });
    if (d.sponsor !== o.clientId) throw new RegistrarError(`${name} is sponsored by another registrar (${d.sponsor})`, { refusal: 'policy' });
    return d;
  }

  const asDomain = (d: Held): RegistryDomain => ({
    name: d.name, ref: d.ref, createdAt: d.createdAt, expiresAt: d.expiresAt, nameservers: d.nameservers,
    transferLock: d.transferLock, whoisPrivacy: d.registrant !== null && d.registrant.endsWith('p') && d.registrant.startsWith('hc'),
  });

  /** The registrant, created or brought up to date before a domain names it. */
  async function ensureContact(c: ContactData, token: string): Promise<void> {
    if (c.private && !disclose) throw new RegistrarError('This registry does not take WHOIS privacy (contact disclose flags)', { refusal: 'policy', field: 'whois_privacy' });
    const info = await read('info', objectEl('contact:info', [el('contact:id', c.id)]), `contact info ${c.id}`);
    const field = 'contact';
    if (info.code === 2303) {
      const made = await write('create', clTRIDOf(token, `contact-${c.id}`), contactCreateEl(c, authInfoFor(o.password, `contact:${c.id}`), disclose), `contact create ${c.id}`, async () => {
        const again = await read('info', objectEl('contact:info', [el('contact:id', c.id)]), `contact info ${c.id}`);
        return isSuccess(again.code) ? true : null;
      });
      if ('found' in made || isSuccess(made.r.code) || made.r.code === 2302) return;
      throw failureOf(made.r, `contact create ${c.id}`, { field });
    }
    if (!isSuccess(info.code)) throw failureOf(info, `contact info ${c.id}`, { field });
    if (contactMatches(info.resData, c, disclose)) return;
    // Setting the same values twice is harmless: no check is needed before a resend.
    const changed = await write('update', clTRIDOf(token, `contact-upd-${c.id}`), contactUpdateEl(c, disclose), `contact update ${c.id}`, async () => null);
    if ('r' in changed && !isSuccess(changed.r.code)) throw failureOf(changed.r, `contact update ${c.id}`, { field });
  }

  /** Host objects for nameservers outside `domain`, created when missing; one inside it must exist already (its glue is not ours to invent). */
  async function ensureHosts(hosts: string[], domain: string, token: string): Promise<void> {
    if (hosts.length === 0) return;
    const r = await read('check', objectEl('host:check', hosts.map((h) => el('host:name', h))), 'host check');
    if (!isSuccess(r.code)) throw failureOf(r, 'host check', { field: 'nameservers' });
    const avail = new Map<string, boolean>();
    const chk = r.resData?.children.find((c) => c.ns === NS.host && c.name === 'chkData');
    for (const cd of chk?.children ?? []) {
      const n = cd.children.find((x) => x.name === 'name');
      if (n) avail.set(n.text.toLowerCase(), n.attrs.avail === '1' || n.attrs.avail === 'true');
    }
    for (const h of hosts) {
      if (avail.get(h) === false) continue;
      if (insideDomain(h, domain)) {
        throw new RegistrarError(`${h} lies inside ${domain}: it needs glue addresses, so create it at the registry first`, { refusal: 'policy', field: 'nameservers' });
      }
      const made = await write('create', clTRIDOf(token, `host-${h}`), objectEl('host:create', [el('host:name', h)]), `host create ${h}`, async () => {
        const again = await read('info', objectEl('host:info', [el('host:name', h)]), `host info ${h}`);
        return isSuccess(again.code) ? true : null;
      });
      if ('r' in made && !isSuccess(made.r.code) && made.r.code !== 2302) throw failureOf(made.r, `host create ${h}`, { field: 'nameservers' });
    }
  }

  async function update(name: string, clTRID: string, parts: { add?: BuildEl[]; rem?: BuildEl[]; chg?: BuildEl[] }): Promise<void> {
    const body = objectEl('domain:update', [
      domainName(name),
      parts.add?.length ? el('domain:add', parts.add) : null,
      parts.rem?.length ? el('domain:rem', parts.rem) : null,
      parts.chg?.length ? el('domain:chg', parts.chg) : null,
    ]);
    // Updates set values: repeating one is harmless, so a lost answer is simply sent again.
    const done = await write('update', clTRID, body, `update ${name}`, async () => null);
    if ('r' in done && !isSuccess(done.r.code)) throw failureOf(done.r, `update ${name}`);
  }

  async function statusOfTransfer(t: TransferData): Promise<TransferStatus> {
    const state = transferStateOf(t.trStatus);
    if (state === 'completed') return { state, domain: asDomain(await ours(t.name)), reason: null };
    return { state, domain: null, reason: state === 'rejected' ? `The transfer ended as ${t.trStatus}` : null };
  }

  async function queryTransfer(name: string): Promise<TransferData | null> {
    const r = await read('transfer', objectEl('domain:transfer', [domainName(name)]), `transfer query ${name}`, { op: 'query' });
    lastQuery.set(name, Date.now());
    if (r.code === 2301 || r.code === 2303 || r.code === 2201) return null;
    if (!isSuccess(r.code)) throw failureOf(r, `transfer query ${name}`);
    const t = readTransfer(r.resData);
    return t && t.reID === o.clientId ? t : null;
  }

  const messages: RegistrarMessages = {
    intervalMs: o.pollS * 1000,
    async poll(handle) {
      let handled = 0;
      for (; handled < 1000;) {
        const r = await read('poll', null, 'poll', { op: 'req' });
        if (r.code === 1300) break;
        if (r.code !== 1301 || !r.msgQ?.id) throw failureOf(r, 'poll');
        const t = readTransfer(r.resData);
        const m: RegistryMessage = {
          id: r.msgQ.id, queuedAt: r.msgQ.date ? new Date(r.msgQ.date) : null, text: r.msgQ.msg ?? r.message, domain: t?.name ?? null,
          transfer: t ? { state: transferStateOf(t.trStatus), gaining: t.reID, losing: t.acID, ours: t.reID === o.clientId } : null,
        };
        await handle(m);
        if (t && t.reID === o.clientId && m.transfer!.state !== 'pending') {
          transferNews.set(t.name, { state: m.transfer!.state, reason: `${t.trStatus}: ${m.text}` });
          for (const wake of [...(newsWaiters.get(t.name) ?? [])]) wake();
        }
        const ack = await read('poll', null, `poll ack ${m.id}`, { op: 'ack', msgID: m.id });
        if (!isSuccess(ack.code) && ack.code !== 2303) throw failureOf(ack, `poll ack ${m.id}`);
        handled++;
      }
      return handled;
    },
  };

  const contacts: RegistrarContacts = {
    async update(owner, token) {
      const updated: string[] = [];
      // Both of the account's contacts: the public one and the private twin (WHOIS privacy), each keeping its disclose flags.
      for (const privacy of [false, true]) {
        const id = contactIdOf(owner.id, privacy);
        const info = await read('info', objectEl('contact:info', [el('contact:id', id)]), `contact info ${id}`);
        if (info.code === 2303) continue;
        if (!isSuccess(info.code)) throw failureOf(info, `contact info ${id}`, { field: 'contact' });
        const held = readContact(info.resData, id, privacy);
        if (!held) throw new RegistrarError(`The contact ${id} could not be read`, { retryable: true });
        const next = contactFromProfile(held, owner);
        if (contactMatches(info.resData, next, disclose)) continue;
        const changed = await write('update', clTRIDOf(token, `contact-upd-${id}`), contactUpdateEl(next, disclose), `contact update ${id}`, async () => null);
        if ('r' in changed && !isSuccess(changed.r.code)) throw failureOf(changed.r, `contact update ${id}`, { field: 'contact' });
        updated.push(id);
      }
      return { updated };
    },
  };

  return {
    name: EPP_REGISTRAR_NAME,
    messages,
    contacts,
    transferWatch,
    pool,
    close: () => pool.close(),

    async check(names) {
      const avail = new Map<string, boolean>();
      for (let i = 0; i < names.length; i += checkLimit) {
        const chunk = names.slice(i, i + checkLimit);
        const r = await read('check', objectEl('domain:check', chunk.map(domainName)), 'check');
        if (!isSuccess(r.code)) throw failureOf(r, 'check');
        for (const [k, v] of readCheck(r.resData)) avail.set(k, v);
      }
      return names.map((name) => ({ name, available: avail.get(name) ?? false }));
    },

    async register(req) {
      const authInfo = authInfoFor(o.password, req.token);
      const mine = (d: Held | null) => d !== null && d.sponsor === o.clientId && d.authInfo === authInfo;
      const finish = async (d: Held): Promise<RegistryDomain> => {
        if (req.transferLock && !d.transferLock) {
          await update(req.name, clTRIDOf(req.token, 'lock'), { add: [el('domain:status', { s: 'clientTransferProhibited' })] });
          return { ...asDomain(d), transferLock: true };
        }
        return asDomain(d);
      };
      // A retried registration (a worker died, an answer was lost) finds its own domain and stops there.
      const before = await domainOrNull(req.name);
      if (before) {
        if (mine(before)) return finish(before);
        throw new RegistrarError(`${req.name} is registered already`, { refusal: 'unavailable' });
      }
      if (!req.owner) throw new RegistrarError('No account to make the registrant contact from', { retryable: false });
      const contact = contactFor(req.owner, req.contact, req.whoisPrivacy);
      await ensureContact(contact, req.token);
      await ensureHosts(req.nameservers, req.name, req.token);
      const body = objectEl('domain:create', [
        domainName(req.name), el('domain:period', { unit: 'y' }, String(req.years)),
        req.nameservers.length ? el('domain:ns', req.nameservers.map((h) => el('domain:hostObj', h))) : null,
        el('domain:registrant', contact.id), el('domain:contact', { type: 'admin' }, contact.id), el('domain:contact', { type: 'tech' }, contact.id),
        el('domain:authInfo', [el('domain:pw', authInfo)]),
      ]);
      const made = await write('create', clTRIDOf(req.token, 'create'), body, `create ${req.name}`, async () => {
        const d = await domainOrNull(req.name);
        return mine(d) ? d : null;
      });
      if ('found' in made) return finish(made.found!);
      if (made.r.code === 2302) {
        const d = await domainOrNull(req.name);
        if (d && mine(d)) return finish(d);
      }
      if (!isSuccess(made.r.code)) throw failureOf(made.r, `create ${req.name}`, { field: made.r.code === 2004 ? 'years' : undefined });
      return finish(await ours(req.name));
    },

    async transfer(req) {
      const existing = await queryTransfer(req.name);
      if (existing && transferStateOf(existing.trStatus) !== 'rejected') return statusOfTransfer(existing);
      const body = objectEl('domain:transfer', [domainName(req.name), el('domain:period', { unit: 'y' }, String(req.years)), el('domain:authInfo', [el('domain:pw', req.authCode)])]);
      const sent = await write('transfer', clTRIDOf(req.token, 'transfer'), body, `transfer ${req.name}`, () => queryTransfer(req.name), { op: 'request' });
      if ('found' in sent) return statusOfTransfer(sent.found!);
      const r = sent.r;
      lastQuery.set(req.name, Date.now());
      if (isSuccess(r.code)) {
        const t = readTransfer(r.resData);
        return t ? statusOfTransfer(t) : { state: 'pending', domain: null, reason: null };
      }
      if (r.code === 2300) {
        const t = await queryTransfer(req.name);
        if (t) return statusOfTransfer(t);
        throw new RegistrarError(`A transfer of ${req.name} is already pending for another registrar`, { refusal: 'unavailable' });
      }
      if (r.code === 2106) {
        const d = await domainOrNull(req.name);
        if (d?.sponsor === o.clientId) throw new RegistrarError(`${req.name} is already registered with us`, { refusal: 'already_ours' });
      }
      if (r.code === 2304) throw new RegistrarError(`${req.name} is locked against transfer at its registrar (${r.reason ?? r.message})`, { refusal: 'policy', field: 'domain' });
      throw failureOf(r, `transfer ${req.name}`, { authCode: true });
    },

    async transferStatus(name) {
      const news = transferNews.get(name);
      if (news) {
        transferNews.delete(name);
        if (news.state === 'completed') return { state: 'completed', domain: asDomain(await ours(name)), reason: null };
        return { state: news.state, domain: null, reason: news.reason };
      }
      // No news from the poll queue (it may have gone to another process): asked directly, as often as the runner's waits allow.
      if (transferQueryMs > 0 && Date.now() - (lastQuery.get(name) ?? 0) < transferQueryMs) return { state: 'pending', domain: null, reason: null };
      const t = await queryTransfer(name);
      if (!t) throw new RegistrarError(`No transfer of ${name} was requested by us`, { retryable: false });
      return statusOfTransfer(t);
    },

    async renew(req) {
      const cur = dateOnly(req.currentExpiresAt);
      const target = dateOnly(addYears(req.currentExpiresAt, req.years));
      const d = await ours(req.name);
      // Applied already (a lost answer, a worker killed after sending): the expiry tells.
      if (dateOnly(d.expiresAt) === target) return { expiresAt: d.expiresAt };
      if (dateOnly(d.expiresAt) !== cur) {
        throw new RegistrarError(`${req.name} expires ${dateOnly(d.expiresAt)} at the registry, not ${cur}`, { refusal: 'period_invalid' });
      }
      const body = objectEl('domain:renew', [domainName(req.name), el('domain:curExpDate', cur), el('domain:period', { unit: 'y' }, String(req.years))]);
      const done = await write('renew', clTRIDOf(req.token, 'renew'), body, `renew ${req.name}`, async () => {
        const now = await ours(req.name);
        return dateOnly(now.expiresAt) === target ? now.expiresAt : null;
      });
      if ('found' in done) return { expiresAt: done.found! };
      if (!isSuccess(done.r.code)) {
        throw failureOf(done.r, `renew ${req.name}`, { field: 'years' }).refusal === 'policy'
          ? new RegistrarError(`renew ${req.name}: ${done.r.code} ${done.r.reason ?? done.r.message}`, { refusal: 'period_invalid' })
          : failureOf(done.r, `renew ${req.name}`);
      }
      const ex = textOf(done.r.resData?.children.find((c) => c.ns === NS.domain && c.name === 'renData'), NS.domain, 'exDate');
      return { expiresAt: ex ? new Date(ex) : (await ours(req.name)).expiresAt };
    },

    async info(name, authCode) {
      if (authCode === undefined) return asDomain(await ours(name));
      const r = await read('info', domainInfoEl(name, authCode), `info ${name}`);
      if (!isSuccess(r.code)) throw failureOf(r, `info ${name}`, { authCode: true });
      const d = readDomainInfo(r.resData);
      if (d.sponsor === o.clientId) throw new RegistrarError(`${name} is already registered with us`, { refusal: 'already_ours' });
      return asDomain(d);
    },

    async setNameservers(name, nameservers, token) {
      const d = await ours(name);
      await ensureHosts(nameservers, name, token);
      const add = nameservers.filter((h) => !d.nameservers.includes(h));
      const rem = d.nameservers.filter((h) => !nameservers.includes(h));
      if (!add.length && !rem.length) return;
      const ns = (list: string[]) => (list.length ? [el('domain:ns', list.map((h) => el('domain:hostObj', h)))] : []);
      await update(name, clTRIDOf(token, 'ns'), { add: ns(add), rem: ns(rem) });
    },

    async setTransferLock(name, locked, token) {
      const d = await ours(name);
      if (d.transferLock === locked) return;
      const status = [el('domain:status', { s: 'clientTransferProhibited' })];
      await update(name, clTRIDOf(token, 'lock'), locked ? { add: status } : { rem: status });
    },

    async setWhoisPrivacy(name, enabled, token) {
      const d = await ours(name);
      if (!d.registrant) throw new RegistrarError(`${name} has no registrant at the registry`, { refusal: 'policy', field: 'whois_privacy' });
      if (asDomain(d).whoisPrivacy === enabled) return;
      const r = await read('info', objectEl('contact:info', [el('contact:id', d.registrant)]), `contact info ${d.registrant}`);
      if (!isSuccess(r.code)) throw failureOf(r, `contact info ${d.registrant}`, { field: 'whois_privacy' });
      // The twin contact: the same person under the id of the other privacy choice.
      const twinId = d.registrant.startsWith('hc') && d.registrant.length === 15 ? `${d.registrant.slice(0, 14)}${enabled ? 'p' : 'c'}` : contactIdOf(d.registrant, enabled);
      const twin = readContact(r.resData, twinId, enabled);
      if (!twin) throw new RegistrarError(`The registrant of ${name} could not be read`, { retryable: true });
      await ensureContact(twin, token);
      await update(name, clTRIDOf(token, 'privacy'), { chg: [el('domain:registrant', twin.id)] });
    },

    async getAuthCode(name) {
      const d = await ours(name);
      if (!d.authInfo) throw new RegistrarError(`The registry did not give the authInfo of ${name}`, { retryable: true });
      return d.authInfo;
    },

    async refreshAuthCode(name, token) {
      await ours(name);
      // Derived from the token: a repeated request sets the same code.
      const code = authInfoFor(o.password, `refresh:${token}`);
      await update(name, clTRIDOf(token, 'authinfo'), { chg: [el('domain:authInfo', [el('domain:pw', code)])] });
      return code;
    },
  };
}
