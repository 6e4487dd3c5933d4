// The hosting panel: the upstream (cPanel WHM, Plesk) our web-hosting accounts live on. One method
// per panel API call — createAccount ≈ WHM createacct / Plesk `subscription --create`, suspend and
// unsuspend ≈ suspendacct / unsuspendacct, terminate ≈ removeacct, diskUsage ≈ accountsummary's
// diskused, ssoUrl ≈ create_user_session, listServers ≈ the driver's configured panel hosts with
// their account counts. Every call that changes something carries a request token (our operation
// id): asking twice with one token does the work once — a retried create returns the account the
// first attempt made. Calls are made outside our database transactions.
import { ProviderError, type ProviderErrorCode } from '../errors.ts';

export { ProviderError, type ProviderErrorCode };

/** A failure of the panel: retryable (worth another attempt later) or not. */
export class HostingPanelError extends ProviderError {
  constructor(code: ProviderErrorCode, message: string, retryable = code === 'UPSTREAM_ERROR') {
    super(code, message, retryable);
    this.name = 'HostingPanelError';
  }
}

/** Reports progress of a long call: 0–100 and a short English text. */
export type PanelProgress = (pct: number, detail: string) => Promise<void>;

/** What the account may use: the package's limits as the panel enforces them. */
export interface PanelPackage {
  name: string;
  quotaMb: number;
  maxDomains: number;
}

export interface CreateAccountRequest {
  /** Our operation id: a repeated request returns the account the first one made. */
  token: string;
  /** The main domain, normalised (lower case, IDN as punycode). */
  domain: string;
  package: PanelPackage;
  /** The customer's email: the panel's contact address for the account. */
  contactEmail: string;
}

export interface PanelAccount {
  /** The panel's id of the account. */
  ref: string;
  /** The control-panel login: ≤ 16 characters, [a-z][a-z0-9]*, unique on its server. */
  username: string;
  /** The panel server the account was placed on. */
  serverHostname: string;
}

export interface PanelServer {
  hostname: string;
  /** The catalog location of its data centre; null when the panel does not say. */
  locationId: number | null;
  /** Accounts it may hold. */
  capacity: number;
  /** Accounts it holds now (those being created included). */
  accounts: number;
}

export interface SsoSession {
  /** The panel's own single-use login URL; never shown to customers before they use our link. */
  url: string;
  expiresAt: Date;
}

export interface HostingPanel {
  /**
   * Creates the account on a panel server with room (the driver picks it). Every server full →
   * a final (non-retryable) CAPACITY_UNAVAILABLE.
   */
  createAccount(req: CreateAccountRequest, progress: PanelProgress): Promise<PanelAccount>;
  /** The live account a create with this request token made, if any (to undo a create that finally failed). */
  findAccount(token: string): Promise<string | null>;
  /** Suspending a suspended account is fine. */
  suspend(ref: string, reason: string, token: string): Promise<void>;
  unsuspend(ref: string, token: string): Promise<void>;
  /** Removes the account, its files, mail and databases. Terminating a terminated account is fine. */
  terminate(ref: string, token: string): Promise<void>;
  /** Disk used now; rejects after `timeoutMs` (the caller degrades to null). */
  diskUsage(ref: string, timeoutMs: number): Promise<{ usedMb: number }>;
  /** A single-use URL that logs the account's owner into the control panel. */
  ssoUrl(ref: string): Promise<SsoSession>;
  /** Every panel server with its usage: order-time capacity checks and the operator's view. */
  listServers(): Promise<PanelServer[]>;
  /** What the customer's hosting page shows of the account: never a password. */
  siteInfo(ref: string): Promise<HostingSiteInfo>;
  /** Sets a new random SFTP password and returns it, once (≈ cPanel's passwd). */
  resetSftpPassword(ref: string): Promise<string>;
  /** `name`: the part after `<user>_`; over the account's limit → a final CAPACITY_UNAVAILABLE. */
  createDatabase(ref: string, name: string): Promise<{ name: string; password: string }>;
  /** A new random password for a database's user, returned once. */
  resetDatabasePassword(ref: string, database: string): Promise<string>;
  /** Drops a database and its user; dropping one that is gone is fine. */
  dropDatabase(ref: string, database: string): Promise<void>;
}

/** Every HostingPanel method by name, one per panel API call (the fault switch picks among them). */
export const HOSTING_CALLS = [
  'createAccount', 'findAccount', 'suspend', 'unsuspend', 'terminate', 'diskUsage', 'ssoUrl', 'listServers',
  'siteInfo', 'resetSftpPassword', 'createDatabase', 'resetDatabasePassword', 'dropDatabase',
] as const satisfies readonly (keyof HostingPanel)[];

export type HostingCall = (typeof HOSTING_CALLS)[number];
// Compiles only while HOSTING_CALLS names every method: a new method must be added to the list.
const _everyCallListed: Record<Exclude<keyof HostingPanel, HostingCall>, never> = {};

/** Where a hosting node is, for the drivers that reach nodes themselves (HOSTING_DRIVER=native). */
export interface HostingNodeTarget {
  name: string;
  host: string;
  port: number;
  user: string;
  /** The pinned `SHA256:…` of its host key; null while the node is being added (the key is learnt then). */
  hostKey: string | null;
  /** The operator's overrides of the node's paths and commands. */
  config: unknown;
}

export interface HostingNodeInspection {
  /** The host key the node offered (`SHA256:…`). */
  hostKey: string;
  /** What the node lacks: nginx, php-fpm, sftp, mariadb, tools. */
  missing: string[];
  diskTotalMb: number | null;
  diskFreeMb: number | null;
  quotas: boolean;
}

export interface HostingDatabase {
  name: string;
  sizeMb: number;
}

/** What the customer's hosting page shows of an account. Never a password. */
export interface HostingSiteInfo {
  domain: string;
  documentRoot: string;
  sftp: { host: string; port: number; username: string };
  phpVersion: string;
  siteUrl: string;
  usedMb: number;
  quotaMb: number;
  quotaEnforced: boolean;
  databases: HostingDatabase[];
  maxDatabases: number;
}

/**
 * What a driver that runs the accounts itself offers beyond the panel calls: its nodes. (The
 * account's own tools, the customer's hosting page, are panel calls every driver answers;
 * passwords are made, set and returned once, and no driver keeps them.)
 */
export interface HostingNodeTools {
  /** Our SSH public key (OpenSSH one line), for the nodes' authorized_keys. */
  sshPublicKey(): Promise<string>;
  inspectNode(target: HostingNodeTarget, timeoutMs: number): Promise<HostingNodeInspection>;
  /** What is wrong with a node's `config` overrides (unknown keys, unsafe paths), or null. */
  nodeConfigProblem(config: unknown): string | null;
}

/** The panel's node tools, when its driver has them. */
export function hostingNodeTools(panel: HostingPanel): (HostingPanel & HostingNodeTools) | null {
  return typeof (panel as Partial<HostingNodeTools>).inspectNode === 'function' ? panel as HostingPanel & HostingNodeTools : null;
}
