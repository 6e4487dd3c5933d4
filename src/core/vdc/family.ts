// The VDC family: an account's pool of resources and the VMs carved from it (see src/core/family.ts).
import type { FamilyManifest } from '../family.ts';
import { powerRunner, reinstallRunner, resetPasswordRunner } from '../machines/runners.ts';
import { VM_ROWS } from './guards.ts';
import { vdcPoolCharges } from './upcoming.ts';
import { vmCreateRunner } from './runners/vdc_vm.create.ts';
import { vmDeleteRunner } from './runners/vdc_vm.delete.ts';
import { vmMigrateRunner } from './runners/vdc_vm.migrate.ts';
import { vmResizeRunner } from './runners/vdc_vm.resize.ts';
import { vmRestoreRunner } from './runners/vdc_vm.restore.ts';
import { vmSnapshotRunner } from './runners/vdc_vm.snapshot.ts';
import { vmSnapshotDeleteRunner } from './runners/vdc_vm.snapshot_delete.ts';

const power = powerRunner(VM_ROWS);

export const vdcFamily = {
  name: 'vdc',
  area: 'vdc',
  idPrefix: 'vm',
  operationResources: { vdc_vm: '`vdc_vm.*`' },
  operations: {
    'vdc_vm.create': { resource: 'vdc_vm', area: 'vdc', runner: vmCreateRunner, completed: 'vdc_vm.created' },
    'vdc_vm.delete': { resource: 'vdc_vm', area: 'vdc', runner: vmDeleteRunner, retry: true },
    'vdc_vm.start': { resource: 'vdc_vm', area: 'vdc', runner: power, retry: true },
    'vdc_vm.stop': { resource: 'vdc_vm', area: 'vdc', runner: power, retry: true },
    'vdc_vm.reboot': { resource: 'vdc_vm', area: 'vdc', runner: power, retry: true },
    'vdc_vm.reset_password': { resource: 'vdc_vm', area: 'vdc', runner: resetPasswordRunner(VM_ROWS) },
    'vdc_vm.reinstall': { resource: 'vdc_vm', area: 'vdc', runner: reinstallRunner(VM_ROWS), retry: true },
    'vdc_vm.resize': { resource: 'vdc_vm', area: 'vdc', runner: vmResizeRunner },
    'vdc_vm.snapshot': { resource: 'vdc_vm', area: 'vdc', runner: vmSnapshotRunner },
    'vdc_vm.snapshot_delete': { resource: 'vdc_vm', area: 'vdc', runner: vmSnapshotDeleteRunner, retry: true },
    'vdc_vm.restore': { resource: 'vdc_vm', area: 'vdc', runner: vmRestoreRunner },
    'vdc_vm.migrate': { resource: 'vdc_vm', area: 'vdc', runner: vmMigrateRunner },
  },
  events: ['vdc_vm.created', 'vdc_vm.deleted'],
  billable: { vdc_pool: vdcPoolCharges },
} as const satisfies FamilyManifest;
