// vdc_vm.migrate: a VM moves to another node as a server does (nodes/runners/server.migrate.ts).
import { setVmPlacement } from '../../../db/queries/nodes.ts';
import { findVdcVmById } from '../../../db/queries/vdc-vms.ts';
import { migrationRunner } from '../../nodes/runners/server.migrate.ts';

export const vmMigrateRunner = migrationRunner({
  noun: 'VM',
  async find(db, id) {
    const vm = await findVdcVmById(db, id);
    return vm && !vm.deleted_at ? { ref: vm.provider_ref, migrationNodeId: vm.migration_node_id } : undefined;
  },
  complete: (trx, id, p, power) => setVmPlacement(trx, id, { node_id: p.to_node_id, migration_node_id: null, power_state: power }),
  restore: (trx, id, p) => setVmPlacement(trx, id, { migration_node_id: null, power_state: p.power_before }),
});
