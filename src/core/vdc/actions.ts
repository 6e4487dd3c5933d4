// POST /vdc/vms/{id}/actions/{verb}: every verb starts a `vdc_vm.<verb>` operation on the same
// machinery as servers (one unfinished operation per VM, the worker runs it, the customer polls it),
// checked in the API's check order (docs/architecture.md, "Check order"): input, references, state, then the pool. Nothing is charged.
import { requireImage } from '../catalog/customer-lists.ts';
import { findCatalogRow } from '../../db/queries/catalog.ts';
import { updateVdcVmRow } from '../../db/queries/vdc-vms.ts';
import { inTransaction } from '../../db/transaction.ts';
import { resourceWrite } from '../one-at-a-time.ts';
import type { PowerAction } from '../../providers/compute/types.ts';
import type { Ctx } from '../context.ts';
import { ApiError } from '../errors.ts';
import { checkVerbFields, powerStateDuring } from '../machines/action-rules.ts';
import { startOperation } from '../operations/service.ts';
import { generatePassword } from '../servers/password.ts';
import { checkPassword } from '../servers/rules.ts';
import type { Db } from '../types.ts';
import type { VmActionInput, VmActionResult } from './action-types.ts';
import { lockVm, requireActiveVm } from './guards.ts';
import { resizeVm } from './resize.ts';

export const VM_VERBS = ['start', 'stop', 'reboot', 'reinstall', 'reset_password', 'resize'] as const;
export type VmVerb = (typeof VM_VERBS)[number];
export type { VmActionInput, VmActionResult };

export const VM_VERB_FIELDS: Record<VmVerb, readonly (keyof VmActionInput)[]> = {
  start: [], stop: [], reboot: [],
  reinstall: ['os_version_id'],
  reset_password: ['password'],
  resize: ['cpu_cores', 'ram_mb', 'storage_gb'],
};

type Handler = (ctx: Ctx, trx: Db, id: string, input: VmActionInput) => Promise<VmActionResult>;

export async function vmAction(ctx: Ctx, id: string, verb: VmVerb, input: VmActionInput): Promise<VmActionResult> {
  checkVerbFields(verb, input, VM_VERB_FIELDS[verb]);
  return resourceWrite(ctx, 'vdc_vm', id, () => inTransaction(ctx.db, (trx) => HANDLERS[verb](ctx, trx, id, input)));
}

function power(action: PowerAction): Handler {
  return async (ctx, trx, id) => {
    const vm = await requireActiveVm(trx, await lockVm(ctx, trx, id));
    const during = powerStateDuring(`VM ${id}`, vm.power_state, action);
    const operation = await startOperation(ctx, trx, {
      type: `vdc_vm.${action}`, resourceId: id, params: { action }, detail: `Queued: ${action}`,
    });
    await updateVdcVmRow(trx, id, { power_state: during });
    return { operation };
  };
}

const resetPassword: Handler = async (ctx, trx, id, input) => {
  if (input.password !== undefined) checkPassword(input.password);
  await requireActiveVm(trx, await lockVm(ctx, trx, id));
  const password = input.password ?? generatePassword();
  // The operation carries the password to the worker; finishing the operation erases it.
  const operation = await startOperation(ctx, trx, {
    type: 'vdc_vm.reset_password', resourceId: id, params: { password }, detail: 'Queued: set the root password',
  });
  return input.password === undefined ? { operation, password } : { operation };
};

const reinstall: Handler = async (ctx, trx, id, input) => {
  const vm = await lockVm(ctx, trx, id);
  const osId = input.os_version_id ?? vm.os_version_id;
  const os = osId === null ? undefined : await findCatalogRow(trx, 'operating_systems', osId);
  if (!os || !os.available) {
    const message = input.os_version_id === undefined
      ? 'the VM\'s current OS is no longer offered; choose one (see GET /operating-systems)'
      : 'no such OS version (see GET /operating-systems)';
    throw new ApiError('OS_VERSION_INVALID', `OS version ${osId ?? '(none)'} is not available`, [{ field: 'os_version_id', code: 'INVALID', message }]);
  }
  requireImage(os, os.id, ctx.compute.capabilities?.osImages === true);
  await requireActiveVm(trx, vm);
  const operation = await startOperation(ctx, trx, {
    type: 'vdc_vm.reinstall', resourceId: id,
    params: { os_version_id: os.id, os_slug: os.slug }, detail: `Queued: reinstall with ${os.slug}`,
  });
  return { operation };
};

const HANDLERS: Record<VmVerb, Handler> = {
  start: power('start'),
  stop: power('stop'),
  reboot: power('reboot'),
  reinstall,
  reset_password: resetPassword,
  resize: resizeVm,
};
