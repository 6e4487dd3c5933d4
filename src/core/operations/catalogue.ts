// The catalogue of operations: every kind of long-running work, in one table. An entry says what
// the operation acts on (`resource`, its `resource.type` in the API), which API area's scope reads
// it (GET /v2/operations/{id} needs `<area>:read`), and the runner the worker runs; the runner's
// type fixes the params that the start writes and the run reads (Runner<P>: startOperation takes
// exactly those P for that type), and `completed` names the event its completion writes about its
// resource (server.create → server.created; an event of the event catalogue about that very kind
// of resource, or the compiler says which entry is wrong). Everything else is derived from here:
// the worker's runners and their claim-time reads (execute.ts), the scope check of an operation
// (service.ts), the areas the operations route admits, the events an operation's end writes
// (events/of-operations.ts). A new kind of operation is one entry here and one runner file named
// after its type (<family>/runners/<type>.ts); the compiler then asks every start of it for its
// params.
import type { EVENT_CATALOGUE, EventType } from '../events/catalogue.ts';
import type { Area } from '../types.ts';
import { domainRegisterRunner } from '../domains/runners/domain.register.ts';
import { domainRenewRunner } from '../domains/runners/domain.renew.ts';
import { domainTransferRunner } from '../domains/runners/domain.transfer.ts';
import { hostingCancelRunner } from '../hosting/runners/hosting.cancel.ts';
import { hostingCreateRunner } from '../hosting/runners/hosting.create.ts';
import { hostingSuspendRunner } from '../hosting/runners/hosting.suspend.ts';
import { hostingUnsuspendRunner } from '../hosting/runners/hosting.unsuspend.ts';
import { powerRunner, reinstallRunner, resetPasswordRunner } from '../machines/runners.ts';
import { serverMigrateRunner } from '../nodes/runners/server.migrate.ts';
import { SERVER_ROWS } from '../servers/guards.ts';
import { serverCloneRunner } from '../servers/runners/server.clone.ts';
import { serverCreateRunner } from '../servers/runners/server.create.ts';
import { serverDeleteRunner } from '../servers/runners/server.delete.ts';
import { serverIpAttachRunner } from '../servers/runners/server.ip_attach.ts';
import { serverIpReleaseRunner } from '../servers/runners/server.ip_release.ts';
import { serverResizeRunner } from '../servers/runners/server.resize.ts';
import { serverRestoreRunner } from '../servers/runners/server.restore.ts';
import { serverSnapshotRunner } from '../servers/runners/server.snapshot.ts';
import { serverSnapshotDeleteRunner } from '../servers/runners/server.snapshot_delete.ts';
import { serverUpgradeRunner } from '../servers/runners/server.upgrade.ts';
import { VM_ROWS } from '../vdc/guards.ts';
import { vmCreateRunner } from '../vdc/runners/vdc_vm.create.ts';
import { vmDeleteRunner } from '../vdc/runners/vdc_vm.delete.ts';
import { vmMigrateRunner } from '../vdc/runners/vdc_vm.migrate.ts';
import { vmResizeRunner } from '../vdc/runners/vdc_vm.resize.ts';
import { vmRestoreRunner } from '../vdc/runners/vdc_vm.restore.ts';
import { vmSnapshotRunner } from '../vdc/runners/vdc_vm.snapshot.ts';
import { vmSnapshotDeleteRunner } from '../vdc/runners/vdc_vm.snapshot_delete.ts';
import type { Runner } from './runner.ts';

/**
 * What an operation acts on (`resource.type` of an operation): a server, an extra address of one
 * (attach, release), a VDC VM, a domain, a web hosting account. The document lists these.
 */
export const OPERATION_RESOURCE_TYPES = ['server', 'server_ip', 'vdc_vm', 'domain', 'web_hosting'] as const;
export type OperationResourceType = (typeof OPERATION_RESOURCE_TYPES)[number];

export interface CatalogueEntry {
  resource: OperationResourceType;
  /** The API area whose `<area>:read` scope reads the operation. */
  area: Area;
  /** Runner<never>: any runner; the table's literal type keeps each one's own params. */
  runner: Runner<never>;
  /**
   * The resource's own event, written with operation.completed at the commit that completes it
   * (migration 0041's hc_completion_event mirrors these; test/v2/events.test.ts checks it does).
   */
  completed?: EventType;
  /**
   * The operator may run it again once it failed (POST /admin/v1/operations/{id}/retry): it
   * charged nothing and its failure undid nothing that a second run would need back, and its
   * params hold no secret that its end erased — running it again is the same request.
   */
  retry?: true;
}

// Machines of both kinds share their power, password and reinstall runners (machines/runners.ts).
const serverPower = powerRunner(SERVER_ROWS);
const vmPower = powerRunner(VM_ROWS);

export const OPERATIONS = {
  'server.create': { resource: 'server', area: 'servers', runner: serverCreateRunner, completed: 'server.created' },
  'server.delete': { resource: 'server', area: 'servers', runner: serverDeleteRunner, retry: true },
  'server.start': { resource: 'server', area: 'servers', runner: serverPower, retry: true },
  'server.stop': { resource: 'server', area: 'servers', runner: serverPower, retry: true },
  'server.reboot': { resource: 'server', area: 'servers', runner: serverPower, retry: true },
  'server.reset_password': { resource: 'server', area: 'servers', runner: resetPasswordRunner(SERVER_ROWS) },
  'server.reinstall': { resource: 'server', area: 'servers', runner: reinstallRunner(SERVER_ROWS), retry: true },
  'server.resize': { resource: 'server', area: 'servers', runner: serverResizeRunner },
  'server.clone': { resource: 'server', area: 'servers', runner: serverCloneRunner },
  'server.upgrade': { resource: 'server', area: 'servers', runner: serverUpgradeRunner },
  'server.snapshot': { resource: 'server', area: 'servers', runner: serverSnapshotRunner },
  'server.snapshot_delete': { resource: 'server', area: 'servers', runner: serverSnapshotDeleteRunner, retry: true },
  'server.restore': { resource: 'server', area: 'servers', runner: serverRestoreRunner },
  'server.migrate': { resource: 'server', area: 'servers', runner: serverMigrateRunner },
  'server.ip_attach': { resource: 'server_ip', area: 'servers', runner: serverIpAttachRunner },
  'server.ip_release': { resource: 'server_ip', area: 'servers', runner: serverIpReleaseRunner },
  // Recurring billing (billing/lifecycle.ts): the power runner stops and starts, the delete runner destroys.
  'server.suspend': { resource: 'server', area: 'servers', runner: serverPower, retry: true },
  'server.resume': { resource: 'server', area: 'servers', runner: serverPower, retry: true },
  'server.cancel': { resource: 'server', area: 'servers', runner: serverDeleteRunner, retry: true },
  'vdc_vm.create': { resource: 'vdc_vm', area: 'vdc', runner: vmCreateRunner, completed: 'vdc_vm.created' },
  'vdc_vm.delete': { resource: 'vdc_vm', area: 'vdc', runner: vmDeleteRunner, retry: true },
  'vdc_vm.start': { resource: 'vdc_vm', area: 'vdc', runner: vmPower, retry: true },
  'vdc_vm.stop': { resource: 'vdc_vm', area: 'vdc', runner: vmPower, retry: true },
  'vdc_vm.reboot': { resource: 'vdc_vm', area: 'vdc', runner: vmPower, retry: true },
  'vdc_vm.reset_password': { resource: 'vdc_vm', area: 'vdc', runner: resetPasswordRunner(VM_ROWS) },
  'vdc_vm.reinstall': { resource: 'vdc_vm', area: 'vdc', runner: reinstallRunner(VM_ROWS), retry: true },
  'vdc_vm.resize': { resource: 'vdc_vm', area: 'vdc', runner: vmResizeRunner },
  'vdc_vm.snapshot': { resource: 'vdc_vm', area: 'vdc', runner: vmSnapshotRunner },
  'vdc_vm.snapshot_delete': { resource: 'vdc_vm', area: 'vdc', runner: vmSnapshotDeleteRunner, retry: true },
  'vdc_vm.restore': { resource: 'vdc_vm', area: 'vdc', runner: vmRestoreRunner },
  'vdc_vm.migrate': { resource: 'vdc_vm', area: 'vdc', runner: vmMigrateRunner },
  'domain.register': { resource: 'domain', area: 'domains', runner: domainRegisterRunner, completed: 'domain.registered' },
  'domain.transfer': { resource: 'domain', area: 'domains', runner: domainTransferRunner, completed: 'domain.transferred' },
  'domain.renew': { resource: 'domain', area: 'domains', runner: domainRenewRunner, completed: 'domain.renewed' },
  'hosting.create': { resource: 'web_hosting', area: 'hosting', runner: hostingCreateRunner, completed: 'web_hosting.created' },
  'hosting.cancel': { resource: 'web_hosting', area: 'hosting', runner: hostingCancelRunner },
  // Recurring billing (billing/lifecycle.ts).
  'hosting.suspend': { resource: 'web_hosting', area: 'hosting', runner: hostingSuspendRunner, retry: true },
  'hosting.unsuspend': { resource: 'web_hosting', area: 'hosting', runner: hostingUnsuspendRunner, retry: true },
} as const satisfies Record<string, CatalogueEntry>;

export type OperationType = keyof typeof OPERATIONS;

/** The operation types whose `completed` event is about another kind of resource than the operation's own (none, or the line below fails to compile). */
type CompletionAboutAnother = {
  [T in OperationType]: (typeof OPERATIONS)[T] extends { completed: infer E extends EventType }
    ? ((typeof EVENT_CATALOGUE)[E]['resource'] extends (typeof OPERATIONS)[T]['resource'] ? never : T)
    : never;
}[OperationType];
const _completionsAboutTheirResource: [CompletionAboutAnother] extends [never] ? true : CompletionAboutAnother = true;

/** The params an operation of type T carries: what its start writes and its runner reads. */
export type ParamsOf<T extends OperationType> = T extends OperationType ? ((typeof OPERATIONS)[T]['runner'] extends Runner<infer P> ? P : never) : never;

/** The catalogue's entry for a stored operation's type; undefined for a type it does not know. */
export function entryOf(type: string): CatalogueEntry | undefined {
  return Object.hasOwn(OPERATIONS, type) ? OPERATIONS[type as OperationType] : undefined;
}

/** The runner of a stored operation's type; a type missing here fails its operations with a readable detail. */
export function runnerFor(type: string): Runner<never> | undefined {
  return entryOf(type)?.runner;
}

/** Every operation type with its runner. */
export function runnerEntries(): [string, Runner<never>][] {
  return Object.entries(OPERATIONS).map(([type, e]) => [type, e.runner]);
}

/** The areas whose scope reads some operation: the operations route admits any of them. */
/** Whether the operator may run a failed operation of this type again (CatalogueEntry.retry). */
export function retryable(type: string): boolean {
  return entryOf(type)?.retry === true;
}

export const OPERATION_AREAS: readonly Area[] = [...new Set(Object.values(OPERATIONS).map((e) => e.area))];

/** Each family of operation types (the type's prefix: `server` of `server.create`) with the area whose scope reads it, in catalogue order. */
export const OPERATION_FAMILY_AREAS: readonly { family: string; area: Area }[] = [
  ...new Map(Object.entries(OPERATIONS).map(([type, e]) => [type.slice(0, type.indexOf('.')), e.area] as const)),
].map(([family, area]) => ({ family, area }));
