// The test registry's world, in memory: registrars (clients), domains, contacts, hosts, transfers
// and each registrar's poll queue, plus counters of what was applied (tests check "exactly one
// registration") and the hooks tests use to approve transfers or break the connection.
import { randomBytes } from 'node:crypto';
import type { BuildEl } from '../xml.ts';

export interface RegDomain {
  name: string;
  roid: string;
  sponsor: string;
  crDate: Date;
  exDate: Date;
  upDate: Date | null;
  registrant: string;
  admin: string | null;
  tech: string | null;
  ns: string[];
  statuses: Set<string>;
  authInfo: string;
}

export interface PostalInfo {
  type: 'int' | 'loc';
  name: string;
  org: string | null;
  street: string[];
  city: string;
  sp: string | null;
  pc: string | null;
  cc: string;
}

export interface RegContact {
  id: string;
  roid: string;
  sponsor: string;
  postal: PostalInfo[];
  voice: string | null;
  email: string;
  authInfo: string;
  /** The disclose element's flag (RFC 5733 §2.9): 0 hides the listed fields from WHOIS. */
  disclose: { flag: boolean; fields: string[] } | null;
  crDate: Date;
}

export interface RegHost {
  name: string;
  roid: string;
  sponsor: string;
  addrs: { ip: 'v4' | 'v6'; addr: string }[];
  crDate: Date;
}

export type TrStatus = 'pending' | 'clientApproved' | 'clientRejected' | 'clientCancelled' | 'serverApproved' | 'serverCancelled';

export interface RegTransfer {
  name: string;
  status: TrStatus;
  reID: string;
  reDate: Date;
  acID: string;
  acDate: Date;
  period: number;
  /** The expiry once approved. */
  exDate: Date;
}

export interface PollMessage {
  id: string;
  qDate: Date;
  msg: string;
  resData: BuildEl | null;
}

/** What a hook may do to the command about to be handled. */
/** drop-before: the connection ends unanswered, nothing applied; drop-after: applied, then the connection ends unanswered; stall-after: applied, never answered. */
export type Fault = 'drop-before' | 'drop-after' | 'stall-after' | { code: number; msg?: string };

export interface Counters {
  domainCreates: Map<string, number>;
  renewals: Map<string, number>;
  transferRequests: Map<string, number>;
  contactUpdates: Map<string, number>;
  logins: number;
}

const YEAR_MS = 365 * 86_400_000;

/** Now, to the second: EPP dates carry no milliseconds (the driver stores what the registry says). */
export const nowSeconds = () => new Date(Math.floor(Date.now() / 1000) * 1000);

export function addYears(d: Date, years: number): Date {
  const out = new Date(d);
  out.setUTCFullYear(out.getUTCFullYear() + years);
  return out;
}

export { YEAR_MS };

export class RegistryState {
  clients = new Map<string, string>();
  domains = new Map<string, RegDomain>();
  contacts = new Map<string, RegContact>();
  hosts = new Map<string, RegHost>();
  transfers = new Map<string, RegTransfer>();
  queues = new Map<string, PollMessage[]>();
  counters: Counters = { domainCreates: new Map(), renewals: new Map(), transferRequests: new Map(), contactUpdates: new Map(), logins: 0 };
  /** TLDs the registry serves (others: 2306 on create). */
  tlds = new Set(['com', 'net', 'org', 'test', 'example']);
  /** Names per <check> at most. */
  checkLimit = 100;
  /** Whether contacts' disclose flags are honoured (else 2306 on a disclose element). */
  supportsDisclose = true;
  /** Tests: a fault for the next command matching `when` (consumed once). */
  faults: { when: (verb: string, object: string, clID: string, op: string | undefined) => boolean; fault: Fault }[] = [];
  private seq = 0;

  roid(kind: string): string {
    return `${kind}${(++this.seq).toString().padStart(6, '0')}-TEST`;
  }

  static authCode(): string {
    return `${randomBytes(9).toString('base64url')}#9`;
  }

  bump(map: Map<string, number>, key: string): void {
    map.set(key, (map.get(key) ?? 0) + 1);
  }

  enqueue(clID: string, msg: string, resData: BuildEl | null = null): void {
    const q = this.queues.get(clID) ?? [];
    q.push({ id: String(++this.seq), qDate: new Date(), msg, resData });
    this.queues.set(clID, q);
  }

  /** A domain held by another registrar, for transfers in. */
  seedDomain(name: string, sponsor: string, opts: { authInfo?: string; exDate?: Date; locked?: boolean } = {}): RegDomain {
    if (!this.clients.has(sponsor)) this.clients.set(sponsor, randomBytes(8).toString('hex'));
    const now = nowSeconds();
    // Its registrant, a contact of the sponsoring registrar, as every domain has one.
    const registrant = `${sponsor.slice(0, 8)}${(this.seq + 1).toString(36)}`;
    this.contacts.set(registrant, {
      id: registrant, roid: this.roid('C'), sponsor, email: `owner@${name}`, voice: '+1.5555550100', authInfo: RegistryState.authCode(), disclose: null, crDate: now,
      postal: [{ type: 'int', name: `Owner of ${name}`, org: null, street: ['1 Example Road'], city: 'Springfield', sp: null, pc: '12345', cc: 'US' }],
    });
    const d: RegDomain = {
      name, roid: this.roid('D'), sponsor, crDate: now, exDate: opts.exDate ?? addYears(now, 1), upDate: null,
      registrant, admin: registrant, tech: registrant, ns: [], statuses: new Set(opts.locked ? ['clientTransferProhibited'] : ['ok']),
      authInfo: opts.authInfo ?? RegistryState.authCode(),
    };
    this.domains.set(name, d);
    return d;
  }
}
