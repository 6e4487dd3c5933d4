// An account's timeline for the console: events, ledger rows, tickets and the audit rows about the
// account, newest first. What the caller's role does not read is left out (ledger rows need
// billing:read), so the one route serves every role that reads accounts.
import { type TimelineKind, type TimelineRow, accountTimeline } from '../../db/queries/account-timeline.ts';
import type { StaffRole } from '../../db/schema.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import { mayDo } from '../staff/roles.ts';
import type { Db } from '../types.ts';
import { getAccount } from './service.ts';

export const TIMELINE_KINDS = ['event', 'ledger', 'ticket', 'audit'] as const satisfies readonly TimelineKind[];

const NEEDS: Record<TimelineKind, Parameters<typeof mayDo>[1]> = {
  event: 'accounts:read',
  ledger: 'billing:read',
  ticket: 'tickets:read',
  audit: 'accounts:read',
};

export type { TimelineKind, TimelineRow };

export async function timelineOf(db: Db, accountId: string, role: StaffRole, kind: TimelineKind | undefined, page: PageRequest): Promise<Paged<TimelineRow>> {
  await getAccount(db, accountId);
  const kinds = (kind ? [kind] : [...TIMELINE_KINDS]).filter((k) => mayDo(role, NEEDS[k]));
  const { rows, total } = await accountTimeline(db, accountId, kinds, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}
