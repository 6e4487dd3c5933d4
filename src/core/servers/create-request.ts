// A server create request, in two database round trips when it can: one read of everything the
// create's rules need (db/queries/server-create.ts), the rules run here, then one statement that
// writes the idempotency record (with its answer), the server, the charge, the operation and its
// job — atomic on its own, so no BEGIN or COMMIT round trip. It was ten round trips in a
// transaction (issue 13). Whenever this way cannot be sure — a key already used, a reference or
// state check failing, the picked node changed, the balance short, a host name taken — it writes
// nothing and the request runs createServer in the idempotent transaction, which gives the exact
// answer in the API's check order (README, "Check order"). The rules are the same functions in both ways.
//
// Not taken: the sandbox (its transaction is rolled back, its ids and queue are its own), creates
// from a snapshot (rare; the snapshot is read and checked in the transaction), a queue that cannot
// describe its job row, charges of nothing or beyond the ledger's maximum.
import { readServerCreateBasis } from '../../db/queries/server-create.ts';
import type { Operation, Server } from '../../db/schema.ts';
import { writeCreateInOneStatement } from '../billing/create-in-one-statement.ts';
import { MAX_AMOUNT_CENTS } from '../billing/ledger.ts';
import type { Ctx } from '../context.ts';
import { type Replayable, idempotent } from '../idempotency/service.ts';
import { newId } from '../ids.ts';
import { pickNode } from '../nodes/placement.ts';
import { queuedOperation } from '../operations/service.ts';
import { basisPoints } from '../reseller/discount.ts';
import { sshKeysOf } from '../ssh-keys/service.ts';
import { quoteAt } from './charge.ts';
import { type CreateServerInput, checkReferences, createServer, modeOf, provisioning } from './create.ts';
import { CUSTOM_UNITS, IP_UNITS, customPriceAt, extraIpsPriceAt, pricesOf } from './pricing.ts';
import type { ServerView } from './read.ts';
import { addMonth, checkHostname, checkPassword } from './rules.ts';

export interface CreatedServer {
  view: ServerView;
  operation: Operation;
}

/**
 * Creates a server for POST /servers, once per Idempotency-Key; `present` shapes the 201 body
 * (stored for replays). The answer says whether it was replayed.
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
  const jobOf = ctx.jobs.operationJob;
  if (ctx.sandbox || ctx.db.isTransaction || !jobOf) return undefined;
  checkHostname(input.name);
  checkPassword(input.password);
  const mode = modeOf(input);
  if (mode.kind === 'source') return undefined;
  const ipv4Count = input.ipv4_count ?? 1;
  const ipv6Count = input.ipv6_count ?? 1;
  const extraIpv4 = Math.max(0, ipv4Count - 1);
  const extraIpv6 = Math.max(0, ipv6Count - 1);
  const basis = await readServerCreateBasis(ctx.db, {
    accountId: ctx.accountId,
    planId: mode.kind === 'package' ? mode.planId : null,
    locationId: input.location_id,
    osVersionId: mode.osVersionId,
    key: key ?? null,
    units: [...(mode.kind === 'custom' ? CUSTOM_UNITS : []), ...(extraIpv4 + extraIpv6 > 0 ? IP_UNITS : [])],
    sshKeyIds: input.ssh_key_ids ?? [],
  });
  // A key in use replays or conflicts: the transaction way answers that.
  if (basis.key_taken) return undefined;
  checkReferences(basis, input, mode);
  const sshKeys = input.ssh_key_ids?.length ? sshKeysOf(input.ssh_key_ids, basis.ssh_keys) : [];
  const plan = mode.kind === 'package' ? basis.plan! : null;
  const spec = mode.kind === 'custom' ? mode.spec : { cpuCores: plan!.cpu_cores, ramMb: plan!.ram_mb, storageGb: plan!.storage_gb };
  const basePriceCents = plan ? plan.price_cents : customPriceAt(spec, pricesOf(CUSTOM_UNITS, basis.unit_prices));
  const ipPrices = extraIpv4 + extraIpv6 > 0 ? extraIpsPriceAt(extraIpv4, extraIpv6, pricesOf(IP_UNITS, basis.unit_prices)) : { ipv4: 0, ipv6: 0, total: 0 };
  const priceCents = basePriceCents + ipPrices.total;

  const id = newId('srv');
  const quote = quoteAt({
    accountId: ctx.accountId, fromCents: 0, toCents: priceCents, description: `Server ${input.name} (${id}): first monthly cycle`, resource: `server/${id}`,
  }, basis.tier_discount === null ? 0 : basisPoints(basis.tier_discount));
  if (quote.chargedCents <= 0 || quote.chargedCents > MAX_AMOUNT_CENTS) return undefined;
  // No room: the transaction way picks again with the nodes locked, and answers CAPACITY_UNAVAILABLE.
  const node = pickNode(basis.nodes, spec);
  if (!node) return undefined;

  const now = ctx.now;
  const server: Server = {
    id,
    account_id: ctx.accountId,
    name: input.name,
    status: 'pending',
    power_state: 'provisioning',
    location_id: input.location_id,
    os_version_id: mode.osVersionId,
    plan_id: plan?.id ?? null,
    cpu_cores: spec.cpuCores,
    ram_mb: spec.ramMb,
    storage_gb: spec.storageGb,
    price_cents: priceCents,
    cycle: 'monthly',
    period_started_at: now,
    next_billing_at: addMonth(now),
    source_snapshot_id: null,
    provider_ref: null,
    network: null,
    discount_cents: quote.discountDeltaCents,
    created_at: now,
    updated_at: now,
    deleted_at: null,
    node_id: node.id,
    migration_node_id: null,
    resize_hold_cpu: 0,
    resize_hold_ram_mb: 0,
    resize_hold_storage_gb: 0,
  };
  const operation = queuedOperation(ctx, provisioning(id, input, { extraIpv4, extraIpv6, ipPrices, chargedCents: quote.chargedCents, sshKeys }));
  const body = present({ view: { server, plan: plan && { id: plan.id, name: plan.name }, power: server.power_state, os: basis.os?.slug ?? null, extraIps: [] }, operation });

  const written = await writeCreateInOneStatement(ctx, {
    key: key, fingerprint: fingerprint, body, resource: { table: 'servers', row: { ...server, network: null, node_id: node.id } },
    charge: { cents: quote.chargedCents, description: quote.description, resource: quote.resource }, operation, job: jobOf(operation.id),
  });
  return written ? body : undefined;
}
