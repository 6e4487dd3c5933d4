// The operator's power actions on any account's VDC VM (POST /admin/v1/vdc-vms/{id}/actions): the
// customer's own verbs, run for the account that owns the VM (same operation, event and checks).
import { findVdcVmById } from '../../db/queries/vdc-vms.ts';
import type { Operation } from '../../db/schema.ts';
import type { Services } from '../context.ts';
import { notFound } from '../errors.ts';
import type { Db } from '../types.ts';
import { vmAction } from './actions.ts';

export async function powerVmAsOperator(deps: { db: Db; services: Services; now: () => Date }, id: string, type: 'start' | 'stop' | 'reboot'): Promise<Operation> {
  const vm = await findVdcVmById(deps.db, id);
  if (!vm || vm.deleted_at) throw notFound('VM');
  const ctx = { ...deps.services, db: deps.db, accountId: vm.account_id, sandbox: false, now: deps.now() };
  return (await vmAction(ctx, id, type, {})).operation;
}
