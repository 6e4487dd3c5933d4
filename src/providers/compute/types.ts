// The compute provider: the virtualization platform our servers live on. Every call that changes
// something carries a request token (our operation id, or another id of ours that is stable
// across retries): asking twice with one token must not do the work twice — a retried create
// returns the machine the first attempt made. Calls are made outside our database transactions.
import type { PowerState, ServerNetwork } from '../../db/schema.ts';

// Shared by every provider; re-exported so compute code keeps one import.
export { ProviderError, type ProviderErrorCode } from '../errors.ts';

/** Reports progress of a long call: 0–100 and a short English text. */
export type Progress = (pct: number, detail: string) => Promise<void>;

export interface MachineSpec {
  cpuCores: number;
  ramMb: number;
  storageGb: number;
}

export interface CreateRequest extends MachineSpec {
  token: string;
  hostname: string;
  locationId: number;
  osSlug: string | null;
  /** Root password to set; never stored by the provider. */
  password: string;
  /** Provider ref of a snapshot to build from (from-source mode), else null. */
  fromSnapshotRef: string | null;
  /** Addresses wanted beyond the primary one of each family. */
  extraIpv4: number;
  extraIpv6: number;
  /** false → no IPv6 at all (ipv6_count 0). */
  ipv6: boolean;
  /** OpenSSH public keys ("type base64 [comment]") to install for root; none when omitted. */
  sshKeys?: string[];
  /** The hypervisor node to build it on (our placement's pick; the platform's host name), if any. */
  node?: string | null;
  /** Our id of the server or VDC VM (`srv_…`, `vm_…`), recorded on the machine where the platform can. */
  resourceId?: string;
  /** cloud-init user data to hand to the machine (at most 64 KiB), if any. */
  userData?: string | null;
}

/** What a platform can do beyond the common ground; the core refuses what it cannot before charging. */
export interface ComputeCapabilities {
  /** Live (stateful) migration between nodes; false → a live move is 422 NODE_INCOMPATIBLE_LIVE_MIGRATE. */
  liveMigration: boolean;
  /** Every OS version needs an image (operating_systems.image) before servers can be made of it. */
  osImages: boolean;
  /**
   * The nodes this driver serves are reached at an endpoint (LXD servers); false or absent: the
   * nodes without one (the simulated platform's). Placement picks only nodes of this kind.
   */
  endpointNodes?: boolean;
  /**
   * A node may be a cluster (LXD) whose machines move between its members with the cluster's own
   * move: an operator's migration may name a `member` of the machine's node.
   */
  clusterMembers?: boolean;
}

/**
 * Where a migration takes a machine. libvirt: virDomainMigrate to the node's URI with
 * VIR_MIGRATE_LIVE (live) or an offline migration of the stopped domain with its disk; Proxmox:
 * POST /nodes/{source}/qemu/{vmid}/migrate {target, online, with-local-disks}.
 */
export interface MigrationTarget {
  /** The target node's host name. */
  node: string;
  /** The target's location; another location than the machine's gives it new addresses there. */
  locationId: number;
  /**
   * true: the machine keeps running while memory is copied (same CPU vendor only — the caller
   * checks). false: the machine must be stopped; its disk is moved and it stays stopped.
   */
  live: boolean;
  /**
   * A member of the target node when it is a cluster (the machine's own node): the machine moves
   * to that member with the cluster's move and stays on the node. Absent: LXD's placement keeps it
   * where it is.
   */
  member?: string;
}

export interface Machine {
  /** The provider's id of the machine. */
  ref: string;
  network: ServerNetwork;
  extraIps: { address: string; version: 4 | 6 }[];
}

export interface MachineStatus extends MachineSpec {
  power: PowerState;
  osSlug: string | null;
}

export type PowerAction = 'start' | 'stop' | 'reboot';

export interface FirewallRule {
  position: number;
  direction: 'inbound' | 'outbound';
  protocol: 'tcp' | 'udp' | 'icmp' | 'any';
  /** "22", "8000-8100", or null for every port. */
  port: string | null;
  /** CIDR the rule matches ("0.0.0.0/0", "::/0"). */
  source: string;
  action: 'accept' | 'drop';
}

export interface ConsoleTicket {
  /** Opaque single-use ticket; our API wraps it in a signed URL of its own. */
  ticket: string;
  expiresAt: Date;
}

/** A machine's console, attached: bytes both ways, as a terminal sees them. */
export interface ConsoleStream {
  write(data: Buffer | string): void;
  resize(cols: number, rows: number): void;
  onData(listener: (data: Buffer) => void): void;
  onClose(listener: () => void): void;
  close(): void;
}

export interface Metrics {
  cpu_pct: number;
  memory_pct: number;
  disk_pct: number;
  sampled_at: Date;
}

export interface Traffic {
  /** YYYY-MM. */
  month: string;
  in_bytes: number;
  out_bytes: number;
  quota_bytes: number;
}

/** What a node (a server of the platform) says about itself when it is added. */
export interface NodeFacts {
  /** SHA-256 of its server certificate (https), to pin; null for a local socket. */
  fingerprint: string | null;
  cpuCores: number;
  ramMb: number;
  storageGb: number;
  cpuVendor: 'intel' | 'amd' | null;
}

export interface ComputeProvider {
  /** Absent: the simulated platform's (live migration, no images needed). */
  readonly capabilities?: ComputeCapabilities;
  /**
   * Platforms whose nodes are reached at an endpoint (LXD): connects, checks that we are trusted,
   * and reads the node's size. A ProviderError says why it cannot (unreachable, not trusted, a
   * certificate other than `fingerprint`); non-retryable with status 400 when the endpoint is malformed.
   */
  inspectNode?(endpoint: string, fingerprint: string | null, timeoutMs: number): Promise<NodeFacts>;
  /**
   * Whether a node answers and trusts us now, with its pinned certificate: inspectNode's checks
   * without reading its sizes (which LXD takes a second or more to gather, per cluster member).
   */
  probeNode?(endpoint: string, fingerprint: string | null, timeoutMs: number): Promise<void>;
  /** The certificate (PEM) this installation presents to nodes, for the operator to trust. */
  clientCertificate?(): Promise<string>;
  create(req: CreateRequest, progress: Progress): Promise<Machine>;
  /**
   * The live machine a create (or clone) with this request token made, if any: how a create that
   * finally failed after the platform had built the machine is undone.
   */
  findMachine(token: string): Promise<string | null>;
  /** Removes the machine and frees its addresses. Destroying a destroyed machine is fine. */
  destroy(ref: string, token: string): Promise<void>;
  power(ref: string, action: PowerAction, token: string, progress: Progress): Promise<PowerState>;
  resetPassword(ref: string, password: string, token: string, progress: Progress): Promise<void>;
  reinstall(ref: string, osSlug: string, password: string | null, token: string, progress: Progress): Promise<void>;
  resize(ref: string, spec: MachineSpec, token: string, progress: Progress): Promise<void>;
  /** Takes a snapshot; returns its provider ref and size. */
  snapshot(ref: string, token: string, progress: Progress): Promise<{ ref: string; sizeGb: number }>;
  /**
   * Rewrites the machine's disk (and OS) from one of its own snapshots, then boots it. Any machine
   * kind (server or VDC VM); fails without retry when the snapshot is gone or of another machine.
   */
  restoreSnapshot(ref: string, snapshotRef: string, token: string, progress: Progress): Promise<void>;
  /** Removes a snapshot for good. Deleting a deleted snapshot is fine (a retry of one that worked). */
  deleteSnapshot(snapshotRef: string): Promise<void>;
  /** Live state; rejects after `timeoutMs` (the caller degrades to `unknown`). */
  status(ref: string, timeoutMs: number): Promise<MachineStatus>;
  /** Fails with CAPACITY_UNAVAILABLE when the location's pool of that family is empty. */
  attachIp(ref: string, version: 4 | 6, token: string): Promise<{ address: string }>;
  releaseIp(ref: string, address: string): Promise<void>;
  /**
   * Sets the PTR record of an address the machine holds (primary or extra) to `hostname`, or
   * removes it with null. Fails without retry when the machine does not hold the address.
   */
  setReverseDns(ref: string, address: string, hostname: string | null): Promise<void>;
  /** The PTR record of an address the machine holds, or null when it has none. */
  reverseDns(ref: string, address: string): Promise<string | null>;
  firewallRules(ref: string): Promise<FirewallRule[]>;
  openConsole(ref: string, ttlSeconds: number): Promise<ConsoleTicket>;
  /** Spends a ticket: true the first time within its lifetime, false afterwards. */
  redeemConsole(ticket: string): Promise<boolean>;
  /**
   * The console of a spent ticket's machine, for the terminal page's WebSocket: once per ticket,
   * shortly after it was spent; null otherwise (never attached twice).
   */
  attachConsole?(ticket: string, size: { cols: number; rows: number }): Promise<ConsoleStream | null>;
  metrics(ref: string): Promise<Metrics>;
  traffic(ref: string, month: string): Promise<Traffic>;
  /**
   * Moves the machine to another node (and location). Asking twice with one token moves it once.
   * Returns the machine as it is afterwards (new addresses after a change of location, the same
   * extra-address count per family). Fails without retry when a cold move finds it running.
   */
  migrate(ref: string, target: MigrationTarget, token: string, progress: Progress): Promise<Machine>;
}

/** Every method of ComputeProvider by name (the simulated provider's fault switch picks among them). */
export const COMPUTE_CALLS = [
  'create', 'findMachine', 'destroy', 'power', 'resetPassword', 'reinstall', 'resize', 'snapshot', 'status',
  'attachIp', 'releaseIp', 'firewallRules', 'openConsole', 'redeemConsole', 'metrics', 'traffic',
  'restoreSnapshot', 'deleteSnapshot', 'setReverseDns', 'reverseDns', 'migrate',
] as const satisfies readonly (keyof ComputeProvider)[];

export type ComputeCall = (typeof COMPUTE_CALLS)[number];
// Compiles only while COMPUTE_CALLS names every method: a new method must be added to the list.
const _everyCallListed: Record<Exclude<keyof ComputeProvider, ComputeCall | 'capabilities' | 'inspectNode' | 'probeNode' | 'clientCertificate' | 'attachConsole'>, never> = {};
