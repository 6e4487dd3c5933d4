// Every operation type the worker knows, by name. A type missing here fails its operations
// with a readable detail rather than retrying forever.
import type { Runner } from './runner.ts';
import { serverCreateRunner } from '../servers/runners/server.create.ts';
import { serverCloneRunner } from '../servers/runners/server.clone.ts';
import { serverDeleteRunner } from '../servers/runners/server.delete.ts';
import { serverResetPasswordRunner } from '../servers/password-runner.ts';
import { serverPowerRunner } from '../servers/power-runner.ts';
import { serverReinstallRunner } from '../servers/reinstall-runner.ts';
import { serverResizeRunner } from '../servers/runners/server.resize.ts';
import { serverUpgradeRunner } from '../servers/runners/server.upgrade.ts';
import { serverIpAttachRunner } from '../servers/runners/server.ip_attach.ts';
import { serverSnapshotRunner } from '../servers/runners/server.snapshot.ts';
import { serverMigrateRunner, vmMigrateRunner } from '../nodes/runners/server.migrate.ts';
import { powerRunner, reinstallRunner, resetPasswordRunner } from '../machines/runners.ts';
import { VM_ROWS } from '../vdc/guards.ts';
import { vmCreateRunner, vmDeleteRunner, vmResizeRunner } from '../vdc/runners/vdc_vm.create.ts';
import { vmRestoreRunner, vmSnapshotDeleteRunner, vmSnapshotRunner } from '../vdc/runners/vdc_vm.snapshot.ts';

const vmPowerRunner = powerRunner(VM_ROWS);
import { domainRegisterRunner } from '../domains/register.ts';
import { domainRenewRunner } from '../domains/runners/domain.renew.ts';
import { domainTransferRunner } from '../domains/transfer.ts';
import { hostingCreateRunner } from '../hosting/runners/hosting.create.ts';
import { hostingCancelRunner } from '../hosting/runners/hosting.cancel.ts';
import { serverIpReleaseRunner } from '../servers/ip-cancel.ts';
import { serverRestoreRunner, serverSnapshotDeleteRunner } from '../servers/snapshot-manage.ts';
import { hostingSuspendRunner, hostingUnsuspendRunner } from '../hosting/runners/hosting.suspend.ts';

const RUNNERS: Record<string, Runner> = {
  'server.create': serverCreateRunner,
  'server.delete': serverDeleteRunner,
  'server.start': serverPowerRunner,
  'server.stop': serverPowerRunner,
  'server.reboot': serverPowerRunner,
  'server.reset_password': serverResetPasswordRunner,
  'server.reinstall': serverReinstallRunner,
  'server.resize': serverResizeRunner,
  'server.clone': serverCloneRunner,
  'server.upgrade': serverUpgradeRunner,
  'server.ip_attach': serverIpAttachRunner,
  'server.snapshot': serverSnapshotRunner,
  'server.migrate': serverMigrateRunner,
  'vdc_vm.create': vmCreateRunner,
  'vdc_vm.delete': vmDeleteRunner,
  'vdc_vm.start': vmPowerRunner,
  'vdc_vm.stop': vmPowerRunner,
  'vdc_vm.reboot': vmPowerRunner,
  'vdc_vm.reset_password': resetPasswordRunner(VM_ROWS),
  'vdc_vm.reinstall': reinstallRunner(VM_ROWS),
  'vdc_vm.resize': vmResizeRunner,
  'vdc_vm.snapshot': vmSnapshotRunner,
  'vdc_vm.snapshot_delete': vmSnapshotDeleteRunner,
  'vdc_vm.restore': vmRestoreRunner,
  'vdc_vm.migrate': vmMigrateRunner,
  'domain.register': domainRegisterRunner,
  'domain.transfer': domainTransferRunner,
  'domain.renew': domainRenewRunner,
  'hosting.create': hostingCreateRunner,
  'hosting.cancel': hostingCancelRunner,
  'server.ip_release': serverIpReleaseRunner,
  'server.snapshot_delete': serverSnapshotDeleteRunner,
  'server.restore': serverRestoreRunner,
  // Recurring billing (core/billing/lifecycle.ts).
  'server.suspend': serverPowerRunner,
  'server.resume': serverPowerRunner,
  'server.cancel': serverDeleteRunner,
  'hosting.suspend': hostingSuspendRunner,
  'hosting.unsuspend': hostingUnsuspendRunner,
};

export function runnerFor(type: string): Runner | undefined {
  return Object.hasOwn(RUNNERS, type) ? RUNNERS[type] : undefined;
}

/** Every operation type with its runner. */
export function runnerEntries(): [string, Runner][] {
  return Object.entries(RUNNERS);
}
