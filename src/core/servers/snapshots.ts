// Server snapshots. Taking one is billable: the first month of the protection fee (unit price
// `snapshot`) is charged in the same transaction as the snapshot row, its operation and the job,
// so the customer never pays for a snapshot that was not queued nor gets one unpaid.
import { insertSnapshot, listServerSnapshotsPage } from '../../db/queries/snapshots.ts';
import { lockAccountServer } from '../../db/queries/servers.ts';
import type { Operation, Snapshot } from '../../db/schema.ts';
import type { Ctx } from '../context.ts';
import { ApiError, invalid, notFound } from '../errors.ts';
import { startOperation } from '../operations/service.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';
import { payServerCharge, quoteServerCharge } from './charge.ts';
import { unitPrice } from './pricing.ts';
import { requireServer } from './read.ts';
import { suspendedConflict } from '../billing/suspension.ts';
import type { SnapshotParams } from './runners/server.snapshot.ts';

export const SNAPSHOT_OPERATION = 'server.snapshot';

export async function listSnapshots(ctx: Ctx, serverId: string, page: PageRequest): Promise<Paged<Snapshot>> {
  const server = await requireServer(ctx, serverId);
  const { rows, total } = await listServerSnapshotsPage(ctx.db, server.id, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}

/** Queues a snapshot of an active server and charges its first month, all in `trx`. */
export async function createSnapshot(ctx: Ctx, trx: Db, serverId: string, input: { name: string }): Promise<{ snapshot: Snapshot; operation: Operation }> {
  const name = input.name.trim();
  if (name === '') throw invalid('name', 'must not be blank');
  // Locked: a delete or another action committing meanwhile must not slip between check and write.
  const server = await lockAccountServer(trx, ctx.accountId, serverId);
  if (!server) throw notFound('Server');
  if (server.status !== 'active' || server.provider_ref === null) {
    throw new ApiError('STATE_CONFLICT', suspendedConflict('Server', server.id, server.status) ?? `Server ${server.id} is ${server.status}; only an active server can be snapshotted`);
  }
  const fee = await unitPrice(trx, 'snapshot');
  const snapshot = await insertSnapshot(trx, {
    account_id: ctx.accountId,
    server_id: server.id,
    name,
    monthly_fee_cents: fee,
    cpu_cores: server.cpu_cores,
    ram_mb: server.ram_mb,
    storage_gb: server.storage_gb,
    os_version_id: server.os_version_id,
    created_at: ctx.now,
  });
  // The operation before the charge: a server busy with another operation is a state conflict,
  // which the check order ranks before the balance.
  const quote = await quoteServerCharge(trx, {
    accountId: ctx.accountId, fromCents: 0, toCents: fee, resource: `snapshot/${snapshot.id}`,
    description: `Snapshot ${name} (${snapshot.id}) of server ${server.name} (${server.id}): first month`,
  });
  const params: SnapshotParams = { snapshot_id: snapshot.id, charged_cents: quote.chargedCents };
  const operation = await startOperation(ctx, trx, {
    type: SNAPSHOT_OPERATION,
    resourceId: server.id,
    detail: `Queued: snapshot ${name}`,
    params,
  });
  await payServerCharge(trx, quote);
  return { snapshot, operation };
}
