// clone: a new server with the source's location, size, plan and OS, bought like a create (its
// first cycle charged now, pending until provisioned). The server.clone operation runs on the
// SOURCE: the platform copies its disk, so the source must not be resized, reinstalled or deleted
// meanwhile — the one-operation-per-resource index gives exactly that. The new server cannot be
// acted on either while it is pending. The 202 names the new server (data.server).
import { ApiError } from '../errors.ts';
import type { Ctx } from '../context.ts';
import { newId } from '../ids.ts';
import { placeMachine, servedNodes } from '../nodes/placement.ts';
import { startOperation } from '../operations/service.ts';
import type { Db } from '../types.ts';
import type { ActionInput, ActionResult } from './action-types.ts';
import { payServerCharge, quoteServerCharge } from './charge.ts';
import { insertServerChecked } from './create.ts';
import { defaultFirewall } from '../../db/default-firewall.ts';
import { newMachineId, reserveAddresses } from '../ip-pools/reserve-addresses.ts';
import { findOsSlug } from '../../db/queries/servers.ts';
import { baseMonthlyCents, lockServer, refuseWhileBuilding, requireActive } from './guards.ts';
import { viewOf } from './read.ts';
import { addMonth, checkHostname } from './rules.ts';
import type { CloneParams } from './runners/server.clone.ts';

export async function cloneServer(ctx: Ctx, trx: Db, id: string, input: ActionInput): Promise<ActionResult> {
  if (input.hostname !== undefined) checkHostname(input.hostname, 'hostname');
  const source = await lockServer(ctx, trx, id);
  // web-1.example.com → web-1-clone.example.com: the host label changes, the domain stays.
  const [label, ...domain] = source.name.split('.');
  const name = input.hostname ?? [`${label!.slice(0, 57)}-clone`, ...domain].join('.');
  if (input.hostname === undefined) checkHostname(name, 'hostname');
  await refuseWhileBuilding(trx, source);
  requireActive(source);

  // The machine's own price: extra addresses are not copied (the clone gets fresh primary ones).
  const priceCents = await baseMonthlyCents(trx, source);
  const cloneId = newId('srv');
  const quote = await quoteServerCharge(trx, {
    accountId: ctx.accountId, fromCents: 0, toCents: priceCents,
    description: `Server ${name} (${cloneId}): first monthly cycle, clone of ${source.name} (${source.id})`, resource: `server/${cloneId}`,
  });
  // Started before the clone row exists so that a busy source refuses before anything is written.
  const operation = await startOperation(ctx, trx, {
    type: 'server.clone', resourceId: source.id, detail: `Queued: clone into ${cloneId}`,
    params: { clone_id: cloneId, charged_cents: quote.chargedCents, ipv6: source.network?.ipv6 != null } satisfies CloneParams,
  });
  const node = await placeMachine(trx, source.location_id, { cpuCores: source.cpu_cores, ramMb: source.ram_mb, storageGb: source.storage_gb }, servedNodes(ctx.compute));
  const server = await insertServerChecked(trx, {
    id: cloneId,
    account_id: ctx.accountId,
    name,
    location_id: source.location_id,
    node_id: node.id,
    os_version_id: source.os_version_id,
    plan_id: source.plan_id,
    cpu_cores: source.cpu_cores,
    ram_mb: source.ram_mb,
    storage_gb: source.storage_gb,
    price_cents: priceCents,
    period_started_at: ctx.now,
    next_billing_at: addMonth(ctx.now),
    discount_cents: quote.discountDeltaCents,
    created_at: ctx.now,
  }).catch((e: unknown) => {
    // The name is the clone's `hostname` field here, not the create body's `name`.
    if (e instanceof ApiError && e.code === 'HOSTNAME_IN_USE') {
      throw new ApiError(e.code, e.message, [{ field: 'hostname', code: 'INVALID', message: 'another live server of the account has this host name' }]);
    }
    throw e;
  });
  // The clone's addresses now, before the charge: none free → 422, nothing charged.
  const ipv6 = source.network?.ipv6 != null;
  await reserveAddresses(trx, {
    id: newMachineId(), token: operation.id, locationId: source.location_id, hostname: name, cpuCores: source.cpu_cores, ramMb: source.ram_mb,
    storageGb: source.storage_gb, osSlug: (await findOsSlug(trx, source.os_version_id))?.slug ?? null, sshKeys: [], node: node.name,
    v4: 1, v6: ipv6 ? 1 : 0, primaryV6: ipv6, firewall: defaultFirewall(ipv6),
  });
  await payServerCharge(trx, quote);
  return { operation, server: await viewOf(trx, server) };
}
