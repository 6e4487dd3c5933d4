// server.create: asks the provider for the machine (the operation id is the request token, so a
// run repeated after a lost worker gets the same machine), then activates the server with its
// addresses. If it finally fails, the first cycle is refunded and the server is cancelled (with its
// server.cancelled event): it leaves the active list and frees its host name.
import { findAccountSnapshot } from '../../../db/queries/snapshots.ts';
import {
  type ProvisionedServer, findServerById, findServerForProvisioning, markServersProvisioned, serversProvisionedOnCompletion, updateServerRow,
} from '../../../db/queries/servers.ts';
import { type ServerToProvision, serverToProvisionOnClaim } from '../../../db/queries/server-provisioning.ts';
import type { Operation } from '../../../db/schema.ts';
import { refund } from '../../billing/ledger.ts';
import { recordEvent } from '../../events/record.ts';
import { type BatchApplier, type RunContext, type Runner, batched } from '../../operations/runner.ts';

/** What provisioning needs and what a failure refunds (written by create.ts's provisioning). */
export interface ServerCreateParams {
  password?: string;
  extra_ipv4?: number;
  extra_ipv6?: number;
  ipv6?: boolean;
  ipv4_price_cents?: number;
  ipv6_price_cents?: number;
  charged_cents?: number;
  ssh_keys?: string[];
  user_data?: string;
}

/** The servers of the completions committed together go active in one statement. */
const serversProvisioned: BatchApplier<ProvisionedServer> = {
  applyAll: (trx, servers) => markServersProvisioned(trx, servers),
  onCompletion: (items) => serversProvisionedOnCompletion(items.map(({ operationId, item }) => ({ ...item, operationId }))),
};

export const serverCreateRunner: Runner<ServerCreateParams> = {
  // Its server, read as a worker claims the operation; null: the server is gone.
  claimRead: serverToProvisionOnClaim,

  async run(rc, op) {
    const server: ServerToProvision | null | undefined = rc.loaded === undefined ? await findServerForProvisioning(rc.db, op.resource_id) : rc.loaded as ServerToProvision | null;
    if (!server || server.deleted_at || server.status !== 'pending') {
      // Its machine's addresses were taken with the create: they go back.
      await destroyMachineMadeBy(rc, op);
      return { detail: 'Nothing to provision: the server is no longer pending' };
    }
    const p = op.params;
    const snapshot = server.source_snapshot_id === null ? undefined : await findAccountSnapshot(rc.db, server.account_id, server.source_snapshot_id);
    await rc.progress(5, 'Provisioning started');
    const machine = await rc.compute.create({
      token: op.id,
      hostname: server.name,
      locationId: server.location_id,
      node: server.node_name,
      cpuCores: server.cpu_cores,
      ramMb: server.ram_mb,
      storageGb: server.storage_gb,
      osSlug: server.os_slug,
      password: p.password ?? '',
      fromSnapshotRef: snapshot?.provider_ref ?? null,
      extraIpv4: p.extra_ipv4 ?? 0,
      extraIpv6: p.extra_ipv6 ?? 0,
      ipv6: p.ipv6 ?? true,
      sshKeys: p.ssh_keys ?? [],
      resourceId: server.id,
      userData: p.user_data ?? null,
    }, rc.progress);
    return {
      detail: 'Server is running',
      batched: batched(serversProvisioned, {
        id: server.id,
        providerRef: machine.ref,
        network: machine.network,
        ips: machine.extraIps.map((ip) => ({
          version: ip.version,
          address: ip.address,
          price_cents: (ip.version === 4 ? p.ipv4_price_cents : p.ipv6_price_cents) ?? 0,
        })),
      }),
    };
  },

  async compensate(trx, op, reason) {
    const server = await findServerById(trx, op.resource_id);
    if (!server || server.status !== 'pending') return;
    await updateServerRow(trx, server.id, { status: 'cancelled', power_state: 'error' });
    // The server the customer was told about is gone from the active list: a server.* subscriber learns it here.
    await recordEvent(trx, 'server.cancelled', server.account_id, server.id);
    const charged = op.params.charged_cents ?? 0;
    if (charged > 0) {
      await refund(trx, server.account_id, charged, `Refund: server ${server.name} (${server.id}) could not be provisioned (${reason})`, `server/${server.id}`);
    }
  },

  afterFailure: destroyMachineMadeBy,
};

/**
 * After a create-like operation finally failed: the platform may have built the machine before
 * the failure (or before a worker died). The customer was refunded, so it must not keep running.
 */
export async function destroyMachineMadeBy(rc: RunContext, op: Pick<Operation, 'id'>): Promise<void> {
  const ref = await rc.compute.findMachine(op.id);
  if (ref) await rc.compute.destroy(ref, `${op.id}:undo`);
}
