// The vdc routes, in the order of the OpenAPI document (registered by ../index.ts).
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import * as createVdcVm from './create-vdc-vm.ts';
import * as createVdcVmSnapshot from './create-vdc-vm-snapshot.ts';
import * as deleteVdcVm from './delete-vdc-vm.ts';
import * as deleteVdcVmSnapshot from './delete-vdc-vm-snapshot.ts';
import * as getVdcResources from './get-vdc-resources.ts';
import * as getVdcVm from './get-vdc-vm.ts';
import * as getVdcVmUsage from './get-vdc-vm-usage.ts';
import * as listVdcVmSnapshots from './list-vdc-vm-snapshots.ts';
import * as listVdcVms from './list-vdc-vms.ts';
import * as restoreVdcVmSnapshot from './restore-vdc-vm-snapshot.ts';
import * as runVdcVmAction from './run-vdc-vm-action.ts';

export const routes: { register(app: TypedApp, deps: RouteDeps): void }[] = [
  getVdcResources, listVdcVms, getVdcVm, createVdcVm, deleteVdcVm, getVdcVmUsage, runVdcVmAction, listVdcVmSnapshots, createVdcVmSnapshot, deleteVdcVmSnapshot, restoreVdcVmSnapshot,
];
