// Server create in its three modes, the transaction way (create-request.ts says when it is taken).
// Checks run in the API's check order (docs/architecture.md, "Check order") — input, then references (plan,
// location, OS, source), then state (hostname, node room, addresses), then balance — and everything
// that costs money commits in the caller's one transaction: server row, operation, queued job,
// addresses, charge, as the create's plan (create-plan.ts) says.
import { findCatalogRow } from '../../db/queries/catalog.ts';
import { findAccountSnapshot } from '../../db/queries/snapshots.ts';
import { findServerReferences, insertServer } from '../../db/queries/servers.ts';
import { isUniqueViolation } from '../../db/refusals.ts';
import type { Location, OperatingSystem, Operation, Plan, Server } from '../../db/schema.ts';
import type { MachineSpec } from '../../providers/compute/types.ts';
import { isServerLocation, requireImage } from '../catalog/customer-lists.ts';
import { resolveSshKeys } from '../ssh-keys/service.ts';
import type { Ctx } from '../context.ts';
import { ApiError, type FieldError } from '../errors.ts';
import { newId } from '../ids.ts';
import { placeMachine, servedNodes } from '../nodes/placement.ts';
import { newMachineId, reserveAddresses } from '../ip-pools/reserve-addresses.ts';
import { startOperation } from '../operations/service.ts';
import type { Db } from '../types.ts';
import type { ServerView } from './read.ts';
import { payServerCharge } from './charge.ts';
import { type ResolvedMachine, extraAddresses, planServerCreate } from './create-plan.ts';
import { basisPoints } from '../reseller/discount.ts';
import { customPrice, ipUnitPrices } from './pricing.ts';
import type { TrafficSummary } from './telemetry.ts';
import { checkHostname, checkPassword, checkRamMb } from './rules.ts';

export interface CreateServerInput {
  name: string;
  location_id: number;
  plan_id?: number;
  cpu_cores?: number;
  ram_mb?: number;
  storage_gb?: number;
  os_version_id?: number;
  password: string;
  source?: { snapshot_id?: number; backup_id?: number };
  ipv4_count?: number;
  ipv6_count?: number;
  /** The account's SSH keys to install (GET /ssh-keys ids). */
  ssh_key_ids?: number[];
  /** cloud-init user data for the new machine (at most USER_DATA_MAX_BYTES). */
  user_data?: string;
}

/** The largest cloud-init user data a server takes: 64 KiB, as cloud platforms commonly allow. */
export const USER_DATA_MAX_BYTES = 65_536;

export function checkUserData(userData: string | undefined): void {
  if (userData !== undefined && Buffer.byteLength(userData, 'utf8') > USER_DATA_MAX_BYTES) {
    throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', [{ field: 'user_data', code: 'INVALID', message: `at most ${USER_DATA_MAX_BYTES} bytes (64 KiB) of cloud-init user data` }]);
  }
}

export type Mode =
  | { kind: 'package'; planId: number; osVersionId: number }
  | { kind: 'custom'; spec: MachineSpec; osVersionId: number }
  | { kind: 'source'; snapshotId: number | null; backupId: number | null };

const CUSTOM_FIELDS = ['cpu_cores', 'ram_mb', 'storage_gb'] as const;

function fail(errors: FieldError[]): never {
  throw new ApiError('VALIDATION_FAILED', 'One or more parameters are invalid', errors);
}

/** Which mode the body asks for; a body mixing modes or missing a mode's fields is invalid. */
export function modeOf(input: CreateServerInput): Mode {
  const custom = CUSTOM_FIELDS.filter((f) => input[f] !== undefined);
  const given = [input.source && 'source', input.plan_id !== undefined && 'plan_id', custom.length > 0 && 'cpu_cores/ram_mb/storage_gb'].filter(Boolean);
  if (given.length > 1) {
    fail([{ field: 'plan_id', code: 'INVALID', message: `choose one mode: plan_id (package), cpu_cores + ram_mb + storage_gb (custom) or source; got ${given.join(' and ')}` }]);
  }
  if (input.source) {
    const { snapshot_id, backup_id } = input.source;
    if ((snapshot_id === undefined) === (backup_id === undefined)) {
      fail([{ field: 'source', code: 'INVALID', message: 'must hold exactly one of snapshot_id or backup_id' }]);
    }
    return { kind: 'source', snapshotId: snapshot_id ?? null, backupId: backup_id ?? null };
  }
  const errors: FieldError[] = [];
  if (input.plan_id === undefined && custom.length === 0) {
    errors.push({ field: 'plan_id', code: 'INVALID', message: 'is required unless cpu_cores, ram_mb and storage_gb (custom) or source are given' });
  } else if (input.plan_id === undefined) {
    for (const f of CUSTOM_FIELDS) if (input[f] === undefined) errors.push({ field: f, code: 'INVALID', message: 'is required in custom mode' });
  }
  if (input.os_version_id === undefined) errors.push({ field: 'os_version_id', code: 'INVALID', message: 'is required unless the server is created from a source' });
  if (errors.length) fail(errors);
  if (input.plan_id !== undefined) return { kind: 'package', planId: input.plan_id, osVersionId: input.os_version_id! };
  checkRamMb(input.ram_mb!);
  return { kind: 'custom', spec: { cpuCores: input.cpu_cores!, ramMb: input.ram_mb!, storageGb: input.storage_gb! }, osVersionId: input.os_version_id! };
}

/** The catalog rows a create names, as read (findServerReferences, readServerCreateBasis). */
export interface References {
  plan: Pick<Plan, 'id' | 'name' | 'available' | 'cpu_cores' | 'ram_mb' | 'storage_gb' | 'price_cents' | 'bandwidth_gb'> | null;
  location: Pick<Location, 'available' | 'provider'> | null;
  os: (Pick<OperatingSystem, 'slug' | 'available'> & { image?: string | null }) | null;
}

/** The reference checks, in the API's check order (docs/architecture.md, "Check order"): plan, location, OS (a source is checked after). */
export function checkReferences(refs: References, input: Pick<CreateServerInput, 'location_id'>, mode: Mode, needsImage = false): void {
  if (mode.kind === 'package' && !refs.plan) {
    throw new ApiError('PLAN_NOT_FOUND', `Plan ${mode.planId} does not exist`, [{ field: 'plan_id', code: 'INVALID', message: 'no such plan (see GET /plans)' }]);
  }
  if (mode.kind === 'package' && !refs.plan!.available) {
    throw new ApiError('PLAN_NOT_FOUND', `Plan ${mode.planId} (${refs.plan!.name}) is not available for new servers`, [
      { field: 'plan_id', code: 'INVALID', message: 'this plan is not available any more (see GET /plans for the plans on sale)' },
    ]);
  }
  if (!refs.location || !isServerLocation(refs.location)) {
    throw new ApiError('LOCATION_INVALID', `Location ${input.location_id} is not available for servers`, [{ field: 'location_id', code: 'INVALID', message: 'not a location servers can be created in (see GET /locations)' }]);
  }
  if (mode.kind !== 'source' && (!refs.os || !refs.os.available)) {
    throw new ApiError('OS_VERSION_INVALID', `OS version ${mode.osVersionId} is not available`, [{ field: 'os_version_id', code: 'INVALID', message: 'no such OS version (see GET /operating-systems)' }]);
  }
  // A platform that builds from images (LXD) cannot build an OS the operator gave no image.
  if (mode.kind !== 'source') requireImage({ slug: refs.os!.slug, image: refs.os!.image ?? null }, mode.osVersionId, needsImage);
}

async function resolve(ctx: Ctx, db: Db, input: CreateServerInput, mode: Mode): Promise<ResolvedMachine> {
  const refs = await findServerReferences(db, {
    accountId: ctx.accountId,
    planId: mode.kind === 'package' ? mode.planId : null,
    locationId: input.location_id,
    osVersionId: mode.kind === 'source' ? null : mode.osVersionId,
  });
  checkReferences(refs, input, mode, ctx.compute.capabilities?.osImages === true);
  const osSlug = refs.os?.slug ?? null;
  const discountBp = refs.tier_discount === null ? 0 : basisPoints(refs.tier_discount);
  const sshKeys = input.ssh_key_ids?.length ? await resolveSshKeys(db, ctx.accountId, input.ssh_key_ids) : [];
  if (mode.kind === 'package') {
    const plan = refs.plan!;
    const spec = { cpuCores: plan.cpu_cores, ramMb: plan.ram_mb, storageGb: plan.storage_gb };
    return { spec, plan: { id: plan.id, name: plan.name, bandwidth_gb: plan.bandwidth_gb }, osSlug, osVersionId: mode.osVersionId, basePriceCents: plan.price_cents, sourceSnapshotId: null, sshKeys, discountBp };
  }
  if (mode.kind === 'custom') {
    return { spec: mode.spec, plan: null, osSlug, osVersionId: mode.osVersionId, basePriceCents: await customPrice(db, mode.spec), sourceSnapshotId: null, sshKeys, discountBp };
  }
  // Backups are not kept by this platform, so a backup id never resolves.
  const snapshot = mode.snapshotId === null ? undefined : await findAccountSnapshot(db, ctx.accountId, mode.snapshotId);
  if (!snapshot || snapshot.status !== 'available') {
    const field = mode.snapshotId === null ? 'source.backup_id' : 'source.snapshot_id';
    throw new ApiError('SOURCE_NOT_FOUND', 'The source snapshot or backup was not found', [{ field, code: 'INVALID', message: 'no such snapshot or backup (a snapshot must be available)' }]);
  }
  const spec = { cpuCores: snapshot.cpu_cores, ramMb: snapshot.ram_mb, storageGb: snapshot.storage_gb };
  const os = snapshot.os_version_id === null ? undefined : await findCatalogRow(db, 'operating_systems', snapshot.os_version_id);
  return { spec, plan: null, osSlug: os?.slug ?? null, osVersionId: snapshot.os_version_id, basePriceCents: await customPrice(db, spec), sourceSnapshotId: snapshot.id, sshKeys, discountBp };
}

/** The server row, translating a taken hostname (unique index) into HOSTNAME_IN_USE. */
export async function insertServerChecked(trx: Db, row: Parameters<typeof insertServer>[1]): Promise<Server> {
  try {
    return await insertServer(trx, row);
  } catch (e) {
    if (isUniqueViolation(e, 'hostname_taken')) throw hostnameInUse(row.name);
    throw e;
  }
}

export function hostnameInUse(name: string): ApiError {
  return new ApiError('HOSTNAME_IN_USE', `A server named ${name} already exists`, [{ field: 'name', code: 'INVALID', message: 'another live server of the account has this host name' }]);
}

/** What a create answers: the pending server as its view shows it, the operation to poll, and its traffic as a new server has it. */
export interface CreatedServer {
  view: ServerView;
  operation: Operation;
  traffic: TrafficSummary;
}

/** The view of a server just planned or inserted: everything it shows was read on the way. */
export function createdView(server: ServerView['server'], machine: ResolvedMachine): ServerView {
  return { server, plan: machine.plan && { id: machine.plan.id, name: machine.plan.name }, power: server.power_state, os: machine.osSlug, extraIps: [] };
}

/**
 * Creates the server (pending), charges its first cycle and queues provisioning, in `trx`.
 * Returns the view too: everything it needs was read on the way, so no query is repeated.
 */
export async function createServer(ctx: Ctx, trx: Db, input: CreateServerInput): Promise<CreatedServer & { server: Server }> {
  checkHostname(input.name);
  checkPassword(input.password);
  checkUserData(input.user_data);
  const mode = modeOf(input);
  const machine = await resolve(ctx, trx, input, mode);
  const extra = extraAddresses(input);
  const ipPrices = extra.ipv4 + extra.ipv6 > 0 ? await ipUnitPrices(trx) : { ipv4: 0, ipv6: 0 };
  const plan = planServerCreate(ctx, newId('srv'), input, machine, ipPrices);
  // A state check, before the balance: no room anywhere → CAPACITY_UNAVAILABLE, nothing charged.
  const node = await placeMachine(trx, input.location_id, plan.spec, servedNodes(ctx.compute));
  const server = await insertServerChecked(trx, { ...plan.row, node_id: node.id });
  const operation = await startOperation(ctx, trx, plan.provisioning);
  // The addresses, before the balance (a state check, as node room is): none free → 422, nothing charged.
  await reserveAddresses(trx, { ...plan.reservation, id: newMachineId(), token: operation.id, node: node.name });
  await payServerCharge(trx, plan.quote);
  return { server, operation, view: createdView(server, machine), traffic: plan.traffic };
}
