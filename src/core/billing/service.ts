// The billing pass as the adapters start it (admin API, CLI through it, deposits) and the
// operator's overdue list.
import { listOverdueAccounts, type OverdueRow } from '../../db/queries/billing.ts';
import type { Services } from '../context.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';
import { type BillingSettings, type PassReport, runBillingPass } from './pass.ts';

export function runPass(db: Db, services: Services, settings: BillingSettings, now: Date, accountId?: string, onError?: (e: unknown, what: string) => void): Promise<PassReport> {
  return runBillingPass({ ...services, ...settings, db }, now, { accountId, onError });
}

export async function listOverdue(db: Db, page: PageRequest): Promise<Paged<OverdueRow>> {
  const { rows, total } = await listOverdueAccounts(db, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}
