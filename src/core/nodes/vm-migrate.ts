// vdc_vm.migrate, accepted (the operator's, through a drain): a VM moves between the nodes of its
// location only (its pool is the account's, its addresses the location's). Same rules and
// runner as a server's migration; the target holds the VM's share while it moves.
import { findNode, setVmPlacement } from '../../db/queries/nodes.ts';
import type { VdcVm } from '../../db/schema.ts';
import type { Ctx } from '../context.ts';
import { ApiError, invalid, notFound } from '../errors.ts';
import type { OperationOf } from '../operations/runner.ts';
import { startOperation } from '../operations/service.ts';
import type { Db } from '../types.ts';
import { requireActiveVm } from '../machines/guards.ts';
import { type MigrateMode, type MigrateParams, chooseTarget, refuseUnsupportedLive } from './migrate.ts';
import { servedNodes, withCapacityCheck } from './placement.ts';

export const VM_MIGRATE_OPERATION = 'vdc_vm.migrate';

export async function startVmMigration(ctx: Ctx, trx: Db, vm: VdcVm, input: { mode?: MigrateMode; node_id?: number }): Promise<OperationOf<MigrateParams>> {
  const mode = input.mode ?? 'live';
  const named = input.node_id === undefined ? undefined : await findNode(trx, input.node_id);
  if (input.node_id !== undefined && !named) throw notFound('Node');
  if (named && named.location_id !== vm.location_id) throw invalid('node_id', `node ${named.id} is in location ${named.location_id}, not ${vm.location_id}`);
  await requireActiveVm(trx, vm);
  if (named && named.id === vm.node_id) throw new ApiError('STATE_CONFLICT', `VM ${vm.id} already runs on node ${named.id}`);
  refuseUnsupportedLive(ctx, mode, vm.power_state);
  const spec = { cpuCores: vm.held_cpu, ramMb: vm.held_ram_mb, storageGb: vm.held_storage_gb };
  const target = await chooseTarget(trx, { locationId: vm.location_id, current: vm.node_id, spec, mode, named, served: servedNodes(ctx.compute) });
  const params: MigrateParams = {
    mode, from_node_id: vm.node_id, to_node_id: target.id, from_location_id: vm.location_id, to_location_id: vm.location_id, power_before: vm.power_state,
  };
  const operation = await startOperation(ctx, trx, {
    type: VM_MIGRATE_OPERATION, resourceId: vm.id, params, detail: `Queued: ${mode} migration`,
  });
  await withCapacityCheck(vm.location_id, spec, () => setVmPlacement(trx, vm.id, { migration_node_id: target.id, power_state: 'migrating' }));
  return operation;
}
