// The registrar: the upstream our domains live at. Each method is one command of EPP (RFC 5730–5733:
// <check>, <create>, <transfer>, <renew>, <info>, <update>) or one call of a reseller API, so a real
// driver maps one to one. Names are ASCII (punycode), lower case.
//
// Every call that changes something carries a request token (our operation id, or another id of
// ours that is stable across retries), as EPP's client transaction id: asking twice with one token
// never registers twice, never starts a second transfer and never adds a second year; the second
// ask gets the first one's answer. Renew also names the expiry it extends (EPP's curExpDate), so a
// renewal that already happened under another token cannot be applied on top of itself either.
// Calls are made outside our database transactions.
import { ProviderError } from '../errors.ts';

export { ProviderError };

/** Why a registry refused a request: the customer's input, not an outage (never retryable). */
export type RegistrarRefusal =
  /** check/create: the name is registered (with us or elsewhere). */
  | 'unavailable'
  /** transfer/info with an auth code: the name is not registered anywhere. */
  | 'not_registered'
  /** transfer: the name is already ours. */
  | 'already_ours'
  /** transfer/info: the auth code (EPP authInfo) is wrong. */
  | 'auth_code_invalid'
  /** renew: the period would take the expiry past the registry's 10-year limit, or curExpDate is stale. */
  | 'period_invalid'
  /** setWhoisPrivacy on a TLD without it, a contact the registry refuses… */
  | 'policy';

/** A failure of the registrar. `refusal` is set when the registry said no to this request; retrying cannot help. */
export class RegistrarError extends ProviderError {
  readonly refusal: RegistrarRefusal | null;
  /** The input field a refusal is about, when the registry said (e.g. `nameservers`, `contact`). */
  readonly field: string | null;
  constructor(message: string, opts: { refusal?: RegistrarRefusal; retryable?: boolean; field?: string } = {}) {
    super('UPSTREAM_ERROR', message, opts.refusal ? false : opts.retryable ?? true);
    this.name = 'RegistrarError';
    this.refusal = opts.refusal ?? null;
    this.field = opts.field ?? null;
  }
}

/** The registrant, for registries that need one (EPP contact <create>). */
export interface DomainContact {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  address: string;
  city: string;
  postal_code: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

/** A domain as the registry holds it (EPP <info>). */
export interface RegistryDomain {
  name: string;
  /** The registry's object id (EPP roid). */
  ref: string;
  createdAt: Date;
  expiresAt: Date;
  nameservers: string[];
  transferLock: boolean;
  whoisPrivacy: boolean;
}

/** The account a domain is registered for: its profile is the registrant where the order names no contact. */
export interface DomainOwner {
  id: string;
  name: string;
  email: string;
  company: string | null;
  phone: string | null;
  country: string | null;
}

export interface RegisterRequest {
  token: string;
  name: string;
  years: number;
  nameservers: string[];
  whoisPrivacy: boolean;
  transferLock: boolean;
  contact: DomainContact | null;
  /** The account (registries that need a registrant contact make it from its profile). */
  owner?: DomainOwner;
}

export interface TransferRequest {
  token: string;
  name: string;
  authCode: string;
  /** Years added to the expiry when the transfer completes (at least 1). */
  years: number;
}

export type TransferState = 'pending' | 'completed' | 'rejected';

/** A transfer as the registry reports it (EPP <transfer op="query">). */
export interface TransferStatus {
  state: TransferState;
  /** Once completed: the domain, now sponsored by us. */
  domain: RegistryDomain | null;
  /** Once rejected: why, in words. */
  reason: string | null;
}

/** A message from the registry's queue (EPP <poll>): a transfer's outcome or a notice for the operator. */
export interface RegistryMessage {
  /** The registry's message id (acknowledged once handled). */
  id: string;
  queuedAt: Date | null;
  text: string;
  /** The domain it is about, when it names one. */
  domain: string | null;
  /** A transfer's news: its state, who asked (reID) and who held the name (acID). */
  transfer: { state: TransferState; gaining: string; losing: string; ours: boolean } | null;
}

/** The registry's message queue, for registrars that have one: the worker polls it every `intervalMs`. */
export interface RegistrarMessages {
  readonly intervalMs: number;
  /** Reads and acknowledges waiting messages, each acknowledged only after `handle` resolved; returns how many. */
  poll(handle: (m: RegistryMessage) => Promise<void>): Promise<number>;
}

/** Registrant contacts kept at the registry (EPP contact objects), for registrars that have them. */
export interface RegistrarContacts {
  /**
   * Brings the account's registrant contacts that the registry holds up to date with its profile
   * (EPP <contact:update>), each keeping its WHOIS privacy (disclose flags) and the address an order
   * gave it; contacts the registry does not hold are left alone. Setting values: safe to repeat.
   */
  update(owner: DomainOwner, token: string): Promise<{ updated: string[] }>;
}

/** How a pending transfer is waited on: the runner checks it after `firstMs`, the wait doubling up to `maxMs`. */
export interface TransferWatch {
  readonly firstMs: number;
  readonly maxMs: number;
  /** Resolves after `ms`, or as soon as news of the transfer of `name` arrives (the registry's message queue). */
  wait(name: string, ms: number): Promise<void>;
}

export interface Registrar {
  /** How the domain resource names this registrar (`registrar` field). */
  readonly name: string;
  /** The registry's message queue (EPP), polled by the worker; absent where there is none. */
  readonly messages?: RegistrarMessages;
  /** The registry's contact objects (EPP); absent where the registrar keeps no contacts of ours. */
  readonly contacts?: RegistrarContacts;
  /** How a pending transfer is waited on; absent: the runner's default schedule. */
  readonly transferWatch?: TransferWatch;
  /** Availability of one or many names (EPP <check> takes a list). */
  check(names: string[]): Promise<{ name: string; available: boolean }[]>;
  /** Registers the name for `years`; refusal 'unavailable' if it is taken. */
  register(req: RegisterRequest): Promise<RegistryDomain>;
  /** Asks the losing registrar for the name (EPP <transfer op="request">). Completes later: see transferStatus. */
  transfer(req: TransferRequest): Promise<TransferStatus>;
  /** The transfer this token requested (EPP <transfer op="query">). */
  transferStatus(name: string, token: string): Promise<TransferStatus>;
  /** Adds `years` to `currentExpiresAt` (EPP <renew> with curExpDate); returns the new expiry. */
  renew(req: { token: string; name: string; years: number; currentExpiresAt: Date }): Promise<{ expiresAt: Date }>;
  /**
   * The domain as the registry holds it. With `authCode`, about a name sponsored elsewhere (how a
   * transfer's auth code is checked before it is requested): refusal 'not_registered' or 'auth_code_invalid'.
   */
  info(name: string, authCode?: string): Promise<RegistryDomain>;
  setNameservers(name: string, nameservers: string[], token: string): Promise<void>;
  setTransferLock(name: string, locked: boolean, token: string): Promise<void>;
  setWhoisPrivacy(name: string, enabled: boolean, token: string): Promise<void>;
  /** The current EPP auth code of one of our names. */
  getAuthCode(name: string): Promise<string>;
  /** A new auth code replaces the old one (a leaked code stops working). */
  refreshAuthCode(name: string, token: string): Promise<string>;
}

/** Every Registrar method by name, one per EPP command or reseller-API call (the fault switch picks among them). */
export const REGISTRAR_CALLS = [
  'check', 'register', 'transfer', 'renew', 'info', 'setNameservers', 'setTransferLock', 'setWhoisPrivacy',
  'getAuthCode', 'refreshAuthCode', 'transferStatus',
] as const satisfies readonly (keyof Registrar)[];

export type RegistrarCall = (typeof REGISTRAR_CALLS)[number];
// Compiles only while REGISTRAR_CALLS names every method: a new method must be added to the list.
const _everyCallListed: Record<Exclude<keyof Registrar, RegistrarCall | 'name' | 'messages' | 'contacts' | 'transferWatch'>, never> = {};
