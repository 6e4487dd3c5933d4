// POST /servers/{id}/actions/upgrade: a bigger package, synchronously. Three steps, because the
// platform must not be called inside a transaction:
//   1. one transaction: checks, the prorated charge, the new plan/size/price, and an operation
//      that keeps every other action off the server meanwhile. The request holds the operation's
//      lease while it works; if its process dies, the lease lapses and the worker finishes or
//      undoes the upgrade (runners/server.upgrade.ts) within about OPERATION_LEASE_S;
//   2. the platform resizes the machine (the operation id is the request token; retryable
//      failures are asked again, and the machine checked, before anything is undone);
//   3. the operation completes — or, if the platform failed, it fails with the runner's
//      compensation (refund, server put back as it was) before the error answer.
import { findCatalogRow } from '../../db/queries/catalog.ts';
import { finishOperation, lockOperation } from '../../db/queries/operations.ts';
import { changeServerSize, findServerById } from '../../db/queries/servers.ts';
import { inTransaction } from '../../db/transaction.ts';
import { type MachineSpec, ProviderError } from '../../providers/compute/types.ts';
import type { Ctx } from '../context.ts';
import { ApiError, invalid } from '../errors.ts';
import { type Cents, formatCents } from '../money.ts';
import { requireNodeRoom } from '../nodes/placement.ts';
import { describeFailure, failOperation } from '../operations/execute.ts';
import { DEFAULT_LEASE_S, holdLease } from '../operations/lease.ts';
import { startOperation } from '../operations/service.ts';
import { payServerCharge, quoteServerCharge } from './charge.ts';
import { baseMonthlyCents, cycleOf, lockServer, refuseWhileBuilding, requireActive } from './guards.ts';
import { type ServerView, viewOf } from './read.ts';
import type { UpgradeParams } from './runners/server.upgrade.ts';

export interface UpgradeResult {
  package: string;
  from: string;
  chargedCents: Cents;
  remainingHours: number;
  view: ServerView;
}

/** Pauses between the request's own retries of a failed resize. */
const RETRY_PAUSES_MS = [200, 800];

/**
 * The resize, made as sure as a waiting request can: a retryable failure may be a lost answer to
 * a resize that happened, so it is asked again with the same token (the platform answers a done
 * request with its result), and before giving up the machine itself is checked. Only a failure
 * that survives both is undone; undoing a resize that did happen would give the machine away.
 */
async function resizeSurely(ctx: Ctx, ref: string, spec: MachineSpec, token: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await ctx.compute.resize(ref, spec, token, async () => {});
      return;
    } catch (e) {
      if (!(e instanceof ProviderError) || !e.retryable) throw e;
      if (attempt >= RETRY_PAUSES_MS.length) {
        const live = await ctx.compute.status(ref, ctx.providerTimeoutMs).catch(() => null);
        if (live && live.cpuCores === spec.cpuCores && live.ramMb === spec.ramMb && live.storageGb === spec.storageGb) return;
        throw e;
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSES_MS[attempt]));
    }
  }
}

/** `field`: the name the client sent the package under (`package_id`, or `plan_id`), which a refusal names. */
export async function upgradeServer(ctx: Ctx, id: string, packageId: number, field = 'package_id'): Promise<UpgradeResult> {
  const leaseS = ctx.operationLeaseS ?? DEFAULT_LEASE_S;
  const started = await inTransaction(ctx.db, async (trx) => {
    const server = await lockServer(ctx, trx, id);
    const plan = await findCatalogRow(trx, 'plans', packageId);
    if (!plan || !plan.available) throw invalid(field, 'no such package (see GET /packages)');
    const base = await baseMonthlyCents(trx, server);
    if (plan.price_cents <= base) {
      throw invalid(field, `${plan.name} costs ${formatCents(plan.price_cents)} USD/month, not more than the current ${formatCents(base)}; downgrades are not supported`);
    }
    if (plan.storage_gb < server.storage_gb) {
      throw invalid(field, `${plan.name} has a ${plan.storage_gb} GB disk, smaller than the server's ${server.storage_gb} GB; disks only grow`);
    }
    await refuseWhileBuilding(trx, server);
    requireActive(server);
    const from = server.plan_id === null ? 'custom' : (await findCatalogRow(trx, 'plans', server.plan_id))?.name ?? 'custom';
    const diff = plan.price_cents - base;
    const { period, remaining } = cycleOf(server, ctx.now);
    const quote = await quoteServerCharge(trx, {
      accountId: ctx.accountId, fromCents: server.price_cents, toCents: server.price_cents + diff, heldDiscountCents: server.discount_cents,
      cycle: { remaining, period }, resource: `server/${id}`,
      description: `Server ${server.name} (${id}): upgrade ${from} → ${plan.name}, ${remaining} of ${period} hours of +${formatCents(diff)} USD/month`,
    });
    const chargedCents = quote.chargedCents;
    const spec: MachineSpec = { cpuCores: plan.cpu_cores, ramMb: plan.ram_mb, storageGb: plan.storage_gb };
    await requireNodeRoom(trx, server.node_id, { cpuCores: server.cpu_cores, ramMb: server.ram_mb, storageGb: server.storage_gb }, spec);
    const params: UpgradeParams = {
      server_name: server.name, plan_name: plan.name, spec,
      previous: { plan_id: server.plan_id, spec: { cpuCores: server.cpu_cores, ramMb: server.ram_mb, storageGb: server.storage_gb } },
      charged_cents: chargedCents, price_delta_cents: diff, discount_delta_cents: quote.discountDeltaCents,
    };
    const operation = await startOperation(ctx, trx, {
      type: 'server.upgrade', resourceId: id, enqueue: false, leaseS, detail: `Upgrading to ${plan.name}`, params,
    });
    await payServerCharge(trx, quote);
    await changeServerSize(trx, id, { plan_id: plan.id, cpu_cores: spec.cpuCores, ram_mb: spec.ramMb, storage_gb: spec.storageGb }, diff, quote.discountDeltaCents);
    return { ref: server.provider_ref, plan, from, chargedCents, remaining, operation, spec };
  });

  const { plan, operation } = started;
  // The sandbox's transaction ends with the request; there is no worker to take over anyway.
  const lease = ctx.sandbox ? null : holdLease(ctx.db, operation.id, leaseS);
  try {
    try {
      await resizeSurely(ctx, started.ref, started.spec, operation.id);
    } catch (e) {
      await failOperation({ db: ctx.db, compute: ctx.compute, hosting: ctx.hosting }, operation.id, describeFailure(e));
      if (!(e instanceof ProviderError)) throw e;
      if (e.code === 'CAPACITY_UNAVAILABLE') throw new ApiError('CAPACITY_UNAVAILABLE', `No capacity to upgrade server ${id} to ${plan.name}; nothing was charged`);
      throw new ApiError('UPSTREAM_ERROR', `The platform failed to upgrade server ${id}; nothing was charged, try again later`);
    }

    return await inTransaction(ctx.db, async (trx) => {
      // Only a request whose lease lapsed (it could not renew it for OPERATION_LEASE_S, e.g.
      // through a database outage) finds the worker's verdict here.
      const op = await lockOperation(trx, operation.id);
      if (op?.status === 'failed') throw new ApiError('UPSTREAM_ERROR', `The upgrade of server ${id} took too long and was undone; nothing was charged`);
      await finishOperation(trx, operation.id, 'completed', `Upgraded to ${plan.name}`);
      const fresh = (await findServerById(trx, id))!;
      return { package: plan.name, from: started.from, chargedCents: started.chargedCents, remainingHours: started.remaining, view: await viewOf(trx, fresh) };
    });
  } finally {
    lease?.release();
  }
}
