// Everything an account holds, of every kind, for the operator looking at one customer.
import { type ServiceRow, listAccountServicesPage } from '../../db/queries/admin-machines.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';
import { getAccount } from './service.ts';

export async function listAccountServices(db: Db, accountId: string, page: PageRequest): Promise<Paged<ServiceRow>> {
  await getAccount(db, accountId);
  const { rows, total } = await listAccountServicesPage(db, accountId, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}
