// The v1 vdc routes, in the order of the v1 document (src/http/v1/index.ts lists each family once).
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import * as getResources from './get-resources.ts';
import * as listVms from './list-vms.ts';
import * as createVm from './create-vm.ts';
import * as getVm from './get-vm.ts';
import * as deleteVm from './delete-vm.ts';
import * as resizeVm from './resize-vm.ts';
import * as startVm from './start-vm.ts';
import * as stopVm from './stop-vm.ts';
import * as getVmUsage from './get-vm-usage.ts';
import * as listVmSnapshots from './list-vm-snapshots.ts';
import * as createVmSnapshot from './create-vm-snapshot.ts';
import * as deleteVmSnapshot from './delete-vm-snapshot.ts';
import * as restoreVmSnapshot from './restore-vm-snapshot.ts';

export const VDC_ROUTES: { register(app: TypedApp, deps: RouteDeps): void }[] = [
  getResources, listVms, createVm, getVm, deleteVm, resizeVm, startVm, stopVm, getVmUsage, listVmSnapshots, createVmSnapshot, deleteVmSnapshot, restoreVmSnapshot,
];
