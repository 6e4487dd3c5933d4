import { AccountResource } from './resources/account.js';
import { Billing } from './resources/billing.js';
import { Dns } from './resources/dns.js';
import { Catalog } from './resources/catalog.js';
import { Domains } from './resources/domains.js';
import { Events } from './resources/events.js';
import { Operations } from './resources/operations.js';
import { Reseller } from './resources/reseller.js';
import { Servers } from './resources/servers.js';
import { SshKeys } from './resources/ssh-keys.js';
import { SubUsers } from './resources/sub-users.js';
import { Tickets } from './resources/tickets.js';
import { Vdc } from './resources/vdc.js';
import { WebHosting } from './resources/web-hosting.js';
import { Webhooks } from './resources/webhooks.js';
import { type Answer, type Call, type HostcloudOptions, type RequestOptions, Transport } from './transport.js';

/**
 * The Hostcloud API v2. One object per resource family; methods resolve to the answer's `data`
 * and reject with HostcloudError.
 *
 * ```ts
 * const hc = new Hostcloud({ baseUrl: 'https://api.example.com', token: process.env.HC_TOKEN! });
 * const { operation, ...server } = await hc.servers.create({ name: 'web-1', location_id: 1, plan_id: 2, os_version_id: 1, password });
 * await hc.operations.wait(operation.id);
 * for await (const s of hc.servers.list()) console.log(s.id, s.status);
 * ```
 */
export class Hostcloud {
  readonly servers: Servers;
  readonly operations: Operations;
  readonly vdc: Vdc;
  readonly domains: Domains;
  readonly webHosting: WebHosting;
  readonly catalog: Catalog;
  readonly billing: Billing;
  readonly account: AccountResource;
  readonly tickets: Tickets;
  readonly subUsers: SubUsers;
  readonly sshKeys: SshKeys;
  readonly reseller: Reseller;
  readonly events: Events;
  readonly webhooks: Webhooks;
  /** DNS zones (`dns.zones`) and their records (`dns.records`). */
  readonly dns: Dns;
  private readonly transport: Transport;

  constructor(options: HostcloudOptions) {
    const t = new Transport(options);
    this.transport = t;
    this.servers = new Servers(t);
    this.operations = new Operations(t);
    this.vdc = new Vdc(t);
    this.domains = new Domains(t);
    this.webHosting = new WebHosting(t);
    this.catalog = new Catalog(t);
    this.billing = new Billing(t);
    this.account = new AccountResource(t);
    this.tickets = new Tickets(t);
    this.subUsers = new SubUsers(t);
    this.sshKeys = new SshKeys(t);
    this.reseller = new Reseller(t);
    this.events = new Events(t);
    this.webhooks = new Webhooks(t);
    this.dns = new Dns(t);
  }

  /** The server's origin this client talks to (without /v2). */
  get baseUrl(): string {
    return this.transport.origin;
  }

  /**
   * Any call, for what the resource objects do not cover yet: the whole answer (data, meta,
   * status, headers), with the same retries, timeouts and errors.
   */
  request<T = unknown>(call: Call, opts?: RequestOptions): Promise<Answer<T>> {
    return this.transport.request<T>(call, opts);
  }
}
