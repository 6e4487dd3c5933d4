// Reading web-hosting accounts. The detail asks the panel for the disk used, best effort: a slow
// or failing panel makes `used_mb` null, never an error, because a customer's dashboard must load.
import { findAccountWebHosting, listWebHostingPage, type WebHostingRow } from '../../db/queries/web-hosting.ts';
import type { WebHostingStatus } from '../../db/schema.ts';
import type { Ctx } from '../context.ts';
import { notFound } from '../errors.ts';
import { type PageRequest, type Paged, offsetOf } from '../pagination.ts';
import type { Db } from '../types.ts';
import { panelCall } from './panel-calls.ts';

export interface HostingView {
  hosting: WebHostingRow;
  /** Live from the panel in the detail; null in lists, and when the panel is slow, down or has no account yet. */
  usedMb: number | null;
}

export async function listHosting(ctx: Ctx, filter: { status?: WebHostingStatus }, page: PageRequest): Promise<Paged<WebHostingRow>> {
  const { rows, total } = await listWebHostingPage(ctx.db, ctx.accountId, filter.status, page.perPage, offsetOf(page));
  return { items: rows, total, ...page };
}

/** The account's hosting account, or RESOURCE_NOT_FOUND (another account's id included). */
export async function requireHosting(ctx: Ctx, id: string, db: Db = ctx.db): Promise<WebHostingRow> {
  const row = await findAccountWebHosting(db, ctx.accountId, id);
  if (!row) throw notFound('Web hosting account');
  return row;
}

export async function getHosting(ctx: Ctx, id: string): Promise<HostingView> {
  const hosting = await requireHosting(ctx, id);
  const ref = hosting.panel_ref;
  // Nothing on the panel to ask about (pending, cancelled, or the sandbox's no-op panel).
  if (!ref || ctx.sandbox || (hosting.status !== 'active' && hosting.status !== 'suspended')) return { hosting, usedMb: null };
  try {
    const { usedMb } = await panelCall(() => ctx.hosting.diskUsage(ref, ctx.providerTimeoutMs), ctx.providerTimeoutMs, 'disk usage');
    return { hosting, usedMb };
  } catch {
    return { hosting, usedMb: null };
  }
}
