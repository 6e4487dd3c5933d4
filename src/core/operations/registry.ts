// Every operation type the worker knows, by name. A type missing here fails its operations
// with a readable detail rather than retrying forever.
import type { Runner } from './runner.ts';
import { serverCreateRunner } from '../servers/provision.ts';
import { serverCloneRunner } from '../servers/clone-runner.ts';
import { serverDeleteRunner } from '../servers/delete-runner.ts';
import { serverResetPasswordRunner } from '../servers/password-runner.ts';
import { serverPowerRunner } from '../servers/power-runner.ts';
import { serverReinstallRunner } from '../servers/reinstall-runner.ts';
import { serverResizeRunner } from '../servers/resize-runner.ts';
import { serverUpgradeRunner } from '../servers/upgrade-runner.ts';
import { serverIpAttachRunner } from '../servers/ip-attach-runner.ts';
import { serverSnapshotRunner } from '../servers/snapshot-runner.ts';
import { serverMigrateRunner, vmMigrateRunner } from '../nodes/migrate-runner.ts';
import { powerRunner, reinstallRunner, resetPasswordRunner } from '../machines/runners.ts';
import { VM_ROWS } from '../vdc/guards.ts';
import { vmCreateRunner, vmDeleteRunner, vmResizeRunner } from '../vdc/runners.ts';
import { vmRestoreRunner, vmSnapshotDeleteRunner, vmSnapshotRunner } from '../vdc/snapshot-runners.ts';

const vmPowerRunner = powerRunner(VM_ROWS);
import { domainRegisterRunner } from '../domains/register.ts';
import { domainRenewRunner } from '../domains/renew-runner.ts';
import { domainTransferRunner } from '../domains/transfer.ts';
import { hostingCreateRunner } from '../hosting/provision.ts';
import { hostingCancelRunner } from '../hosting/cancel-runner.ts';
import { serverIpReleaseRunner } from '../servers/ip-cancel.ts';
import { serverRestoreRunner, serverSnapshotDeleteRunner } from '../servers/snapshot-manage.ts';
import { hostingSuspendRunner, hostingUnsuspendRunner } from '../billing/runners.ts';

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
