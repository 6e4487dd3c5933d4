// The operator's view of machines across accounts: who owns each, where it runs, its state.
import { type MachineFilter, type MachineKind, type MachineRow, listMachinesPage } from '../../db/queries/admin-machines.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';

export const SERVER_LIST_STATUSES = ['pending', 'active', 'suspended', 'cancelled', 'deleted'] as const;
export const VM_LIST_STATUSES = ['pending', 'active', 'failed', 'deleted'] as const;

export async function listMachines(db: Db, kind: MachineKind, filter: MachineFilter, page: PageRequest): Promise<Paged<MachineRow>> {
  const { rows, total } = await listMachinesPage(db, kind, filter, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}
