// resize: new vCPU (custom servers only), RAM and a larger disk, priced at the per-unit catalog
// prices. Growth is paid now for the rest of the cycle and the monthly price moves at once; if the
// operation finally fails, the runner refunds the charge and moves the price back. A shrink
// (RAM, vCPU) changes nothing until the platform has done it: then the price drops and the unused
// hours' difference is refunded, so a failed shrink never has to take money back.
import { changeServerSize } from '../../db/queries/servers.ts';
import type { MachineSpec } from '../../providers/compute/types.ts';
import { invalid } from '../errors.ts';
import { formatCents } from '../money.ts';
import { holdServerGrowth } from '../nodes/placement.ts';
import { startOperation } from '../operations/service.ts';
import type { ActionInput, ActionResult } from './action-types.ts';
import type { Ctx } from '../context.ts';
import type { Db } from '../types.ts';
import { cycleOf, lockServer, refuseWhileBuilding, requireActive } from './guards.ts';
import { payServerCharge, quoteServerCharge } from './charge.ts';
import { customPrice } from './pricing.ts';
import type { ResizeParams } from './runners/server.resize.ts';

const specText = (s: MachineSpec) => `${s.cpuCores} vCPU, ${s.ramMb / 1024} GB RAM, ${s.storageGb} GB disk`;

export async function resizeServer(ctx: Ctx, trx: Db, id: string, input: ActionInput): Promise<ActionResult> {
  const { cpu, ram_gb: ramGb, disk_gb: diskGb } = input;
  if (cpu === undefined && ramGb === undefined && diskGb === undefined) throw invalid('body', 'give at least one of cpu, ram_gb, disk_gb');
  const server = await lockServer(ctx, trx, id);
  if (cpu !== undefined && server.plan_id !== null) {
    throw invalid('cpu', 'only custom servers change vCPUs; a package server moves to a bigger package with the upgrade action');
  }
  if (diskGb !== undefined && diskGb < server.storage_gb) throw invalid('disk_gb', `disks only grow: must be at least ${server.storage_gb}`);
  const previous: MachineSpec = { cpuCores: server.cpu_cores, ramMb: server.ram_mb, storageGb: server.storage_gb };
  const spec: MachineSpec = { cpuCores: cpu ?? previous.cpuCores, ramMb: ramGb === undefined ? previous.ramMb : ramGb * 1024, storageGb: diskGb ?? previous.storageGb };
  if (spec.cpuCores === previous.cpuCores && spec.ramMb === previous.ramMb && spec.storageGb === previous.storageGb) {
    throw invalid('body', `nothing to change: the server already has ${specText(previous)}`);
  }
  await refuseWhileBuilding(trx, server);
  requireActive(server);
  await holdServerGrowth(trx, id, server.node_id, previous, spec);

  // A RAM size that is not whole GB (old plans) would price in fractions of a cent.
  const delta = Math.round((await customPrice(trx, spec)) - (await customPrice(trx, previous)));
  const { period, remaining } = cycleOf(server, ctx.now);
  const quote = delta > 0
    ? await quoteServerCharge(trx, {
      accountId: ctx.accountId, fromCents: server.price_cents, toCents: server.price_cents + delta, heldDiscountCents: server.discount_cents,
      cycle: { remaining, period }, resource: `server/${id}`,
      description: `Server ${server.name} (${id}): resize to ${specText(spec)}, ${remaining} of ${period} hours of +${formatCents(delta)} USD/month`,
    })
    : null;
  const params: ResizeParams = {
    spec, previous, price_delta_cents: delta, charged_cents: quote?.chargedCents ?? 0, discount_delta_cents: quote?.discountDeltaCents ?? 0,
  };
  const operation = await startOperation(ctx, trx, {
    type: 'server.resize', resourceId: id, params, detail: `Queued: resize to ${specText(spec)}`,
  });
  if (quote) {
    await payServerCharge(trx, quote);
    await changeServerSize(trx, id, {}, delta, quote.discountDeltaCents);
  }
  return { operation };
}
