// A server create request, in two database round trips when it can: one read of everything the
// create's rules need (db/queries/server-create.ts), the rules run here, then one statement that
// writes the idempotency record (with its answer), the server, the charge, the operation and its
// job — atomic on its own, so no BEGIN or COMMIT round trip. It was ten round trips in a
// transaction. Whenever this way cannot be sure — a key already used, a reference or
// state check failing, the picked node changed, the balance short, a host name taken — it writes
// nothing and the request runs createServer in the idempotent transaction, which gives the exact
// answer in the API's check order (docs/architecture.md, "Check order"). The rules are the same functions in both
// ways, and so is what they write: the create's plan (create-plan.ts: row, prices, quote, operation,
// addresses).
//
// Not taken: the sandbox (its transaction is rolled back, its ids and queue are its own), creates
// from a snapshot (rare; the snapshot is read and checked in the transaction), a queue that cannot
// describe its job row, charges of nothing or beyond the ledger's maximum.
import { readServerCreateBasis } from '../../db/queries/server-create.ts';
import type { Server } from '../../db/schema.ts';
import { writeCreateInOneStatement } from '../billing/create-in-one-statement.ts';
import { MAX_AMOUNT_CENTS } from '../billing/ledger.ts';
import type { Ctx } from '../context.ts';
import { type Replayable, idempotent } from '../idempotency/service.ts';
import { newId } from '../ids.ts';
import { pickNode, servedNodes } from '../nodes/placement.ts';
import { queuedOperation } from '../operations/service.ts';
import { basisPoints } from '../reseller/discount.ts';
import { sshKeysOf } from '../ssh-keys/service.ts';
import { newMachineId } from '../ip-pools/reserve-addresses.ts';
import { type ResolvedMachine, extraAddresses, planServerCreate } from './create-plan.ts';
import { type CreateServerInput, type CreatedServer, checkReferences, checkUserData, createServer, createdView, modeOf } from './create.ts';
import { CUSTOM_UNITS, IP_UNITS, customPriceAt, pricesOf } from './pricing.ts';
import { checkHostname, checkPassword } from './rules.ts';

export type { CreatedServer };

/**
 * Creates a server for POST /servers (v2 and v1), once per Idempotency-Key; `present` shapes the
 * answer's body (stored for replays) from what the create knows. The answer says whether it was
 * replayed.
 */
export async function createServerRequest(
  ctx: Ctx, key: string | undefined, fingerprint: string, input: CreateServerInput, present: (created: CreatedServer) => unknown,
): Promise<Replayable> {
  const body = await createInOneStatement(ctx, key, fingerprint, input, present);
  if (body !== undefined) return { outcome: 'created', body, replayed: false };
  return idempotent(ctx, key, fingerprint, async (trx) => ({ outcome: 'created', body: present(await createServer(ctx, trx, input)) }));
}

/** The 201 body, or undefined when the create must go the transaction way (nothing was written). */
async function createInOneStatement(
  ctx: Ctx, key: string | undefined, fingerprint: string, input: CreateServerInput, present: (created: CreatedServer) => unknown,
): Promise<unknown> {
  const enqueueRow = ctx.jobs.enqueueRow;
  if (ctx.sandbox || ctx.db.isTransaction || !enqueueRow) return undefined;
  checkHostname(input.name);
  checkPassword(input.password);
  checkUserData(input.user_data);
  const mode = modeOf(input);
  if (mode.kind === 'source') return undefined;
  const extra = extraAddresses(input);
  const basis = await readServerCreateBasis(ctx.db, {
    accountId: ctx.accountId,
    planId: mode.kind === 'package' ? mode.planId : null,
    locationId: input.location_id,
    osVersionId: mode.osVersionId,
    key: key ?? null,
    units: [...(mode.kind === 'custom' ? CUSTOM_UNITS : []), ...(extra.ipv4 + extra.ipv6 > 0 ? IP_UNITS : [])],
    sshKeyIds: input.ssh_key_ids ?? [],
  });
  // A key in use replays or conflicts: the transaction way answers that.
  if (basis.key_taken) return undefined;
  checkReferences(basis, input, mode, ctx.compute.capabilities?.osImages === true);
  const sshKeys = input.ssh_key_ids?.length ? sshKeysOf(input.ssh_key_ids, basis.ssh_keys) : [];
  const plan = mode.kind === 'package' ? basis.plan! : null;
  const spec = mode.kind === 'custom' ? mode.spec : { cpuCores: plan!.cpu_cores, ramMb: plan!.ram_mb, storageGb: plan!.storage_gb };
  const machine: ResolvedMachine = {
    spec,
    plan: plan && { id: plan.id, name: plan.name, bandwidth_gb: plan.bandwidth_gb },
    osVersionId: mode.osVersionId,
    osSlug: basis.os?.slug ?? null,
    basePriceCents: plan ? plan.price_cents : customPriceAt(spec, pricesOf(CUSTOM_UNITS, basis.unit_prices)),
    sourceSnapshotId: null,
    sshKeys,
    discountBp: basis.tier_discount === null ? 0 : basisPoints(basis.tier_discount),
  };
  const planned = planServerCreate(ctx, newId('srv'), input, machine, pricesOf(IP_UNITS, basis.unit_prices));
  if (planned.quote.chargedCents <= 0 || planned.quote.chargedCents > MAX_AMOUNT_CENTS) return undefined;
  // No room: the transaction way picks again with the nodes locked, and answers CAPACITY_UNAVAILABLE.
  const node = pickNode(basis.nodes, spec, { served: servedNodes(ctx.compute) });
  if (!node) return undefined;

  // The row as the database will hold it (its columns' defaults spelled out): the answer is made
  // before the write, which returns nothing of it.
  const server: Server = {
    ...planned.row,
    status: 'pending',
    power_state: 'provisioning',
    cycle: 'monthly',
    provider_ref: null,
    network: null,
    updated_at: ctx.now,
    deleted_at: null,
    node_id: node.id,
    migration_node_id: null,
    resize_hold_cpu: 0,
    resize_hold_ram_mb: 0,
    resize_hold_storage_gb: 0,
  };
  const operation = queuedOperation(ctx, planned.provisioning);
  const body = present({ view: createdView(server, machine), operation, traffic: planned.traffic });

  const { quote } = planned;
  const written = await writeCreateInOneStatement(ctx, {
    key: key, fingerprint: fingerprint, body, resource: { table: 'servers', row: { ...server, network: null, node_id: node.id } },
    // The addresses in the same statement: a short pool writes nothing, and the transaction way answers 422.
    machine: { ...planned.reservation, id: newMachineId(), token: operation.id, node: node.name },
    charge: { cents: quote.chargedCents, description: quote.description, resource: quote.resource }, operation, enqueue: enqueueRow(operation.id),
  });
  return written ? body : undefined;
}
