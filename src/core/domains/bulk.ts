// POST /domains/bulk/{register|transfer|renew}: up to 100 names, each its own order — its own
// checks, its own transaction and charge — through the very code of the single-name endpoints.
// The answer is always 200 with one result per item in request order; items fail alone (partial
// success). Charges are taken in request order, so with a short balance the first items win.
// The registrar is asked in bulk where EPP allows it (one <check> for every name to register),
// otherwise a few items at a time. With an Idempotency-Key the whole answer is replayed, and a
// retry of a request that died midway finishes only the items it had not done (batch.ts).
import { type DomainRow, findAccountLiveDomainByName } from '../../db/queries/domains.ts';
import { findOperation } from '../../db/queries/operations.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Operation } from '../../db/schema.ts';
import type { DomainContact } from '../../providers/registrar/types.ts';
import type { Ctx } from '../context.ts';
import { ApiError, invalid } from '../errors.ts';
import { type Batch, startBatch } from '../idempotency/batch.ts';
import type { Replayable } from '../idempotency/service.ts';
import { DEFAULT_LEASE_S } from '../operations/lease.ts';
import { parseHostName } from './names.ts';
import { type Idempotency, type Placed, placeRegistration, prepareRegistration, requireFreeWithUs } from './register.ts';
import { completeRenewal, reserveRenewal } from './renew.ts';
import { registryAvailability } from './read.ts';
import { placeTransfer, prepareTransfer, verifyTransfer } from './transfer.ts';

export const BULK_ACTIONS = ['register', 'transfer', 'renew'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
export const MAX_BULK_ITEMS = 100;
/** Items whose registrar calls run at once (transfers' checks, renewals). */
const CONCURRENCY = 8;

export interface BulkItem {
  domain: string;
  years?: number;
  auth_code?: string;
  nameservers?: string[];
  whois_privacy?: boolean;
  auto_renew?: boolean;
  contact?: DomainContact;
}

export interface BulkInput {
  domains: (string | BulkItem)[];
  years?: number;
}

export interface BulkResult {
  domain: string;
  ok: boolean;
  id?: string;
  operation?: unknown;
  error?: { code: string; message: string };
}

/** A renewal whose first transaction committed; its outcome is its operation's. */
interface PendingRenewal {
  pending_operation: string;
  domain: string;
  id: string;
}

/** Fields an item of each action may carry besides `domain` and `years`. */
const ALLOWED: Record<BulkAction, readonly (keyof BulkItem)[]> = {
  register: ['nameservers', 'whois_privacy', 'auto_renew', 'contact'],
  transfer: ['auth_code', 'nameservers', 'whois_privacy', 'auto_renew'],
  renew: [],
};

/** An item's failure as its result: the code, and the message with the fields it names. */
function failure(domain: string, e: unknown): BulkResult {
  // Anything but the API's own errors (a bug, the database away) fails the whole request.
  if (!(e instanceof ApiError)) throw e;
  const fields = e.errors.map((f) => `${f.field} ${f.message}`).join('; ');
  return { domain, ok: false, error: { code: e.code, message: fields ? `${e.message}: ${fields}` : e.message } };
}

async function inPool<T>(items: T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(Array.from({ length: Math.min(size, queue.length) }, async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) await fn(next);
  }));
}

interface Run {
  ctx: Ctx;
  batch: Batch;
  items: BulkItem[];
  results: (BulkResult | undefined)[];
  presentOperation: (op: Operation) => unknown;
}

/** Records a result that wrote nothing else (a refusal) in a transaction of its own. */
async function settle(run: Run, i: number, result: BulkResult): Promise<void> {
  run.results[i] = result;
  await inTransaction(run.ctx.db, (trx) => run.batch.record(trx, i, result));
}

function checkFields(action: BulkAction, item: BulkItem): void {
  for (const field of Object.keys(item) as (keyof BulkItem)[]) {
    if (field !== 'domain' && field !== 'years' && !ALLOWED[action].includes(field)) throw invalid(field, `does not apply to bulk ${action}`);
  }
  if (action === 'transfer' && item.auth_code === undefined) throw invalid('auth_code', 'is required to transfer a domain (the EPP code from its current registrar)');
}

/** The answer of a placed order (the domain and its operation). */
const placedResult = (run: Run, placed: Placed): BulkResult =>
  ({ domain: placed.domain.name, ok: true, id: placed.domain.id, operation: run.presentOperation(placed.operation) });

async function bulkRegister(run: Run, todo: number[], years: number | undefined): Promise<void> {
  const { ctx } = run;
  const orders = new Map<number, Awaited<ReturnType<typeof prepareRegistration>>>();
  for (const i of todo) {
    const item = run.items[i]!;
    try {
      checkFields('register', item);
      orders.set(i, await prepareRegistration(ctx, ctx.db, { ...item, years: item.years ?? years ?? 1 }));
    } catch (e) {
      await settle(run, i, failure(item.domain, e));
    }
  }
  // One EPP <check> for every name.
  let free: Map<string, boolean> | ApiError;
  try {
    free = await registryAvailability(ctx, [...new Set([...orders.values()].map((o) => o.name))]);
  } catch (e) {
    if (!(e instanceof ApiError)) throw e;
    free = e;
  }
  for (const [i, order] of orders) {
    try {
      if (free instanceof ApiError) throw free;
      if (!free.get(order.name)) throw invalid('domain', `${order.name} is not available: it is registered already`);
      await inTransaction(ctx.db, async (trx) => {
        // An earlier item of this request may have taken the name.
        await requireFreeWithUs(ctx, trx, order.name);
        const result = placedResult(run, await placeRegistration(ctx, trx, order));
        await run.batch.record(trx, i, result);
        run.results[i] = result;
      });
    } catch (e) {
      await settle(run, i, failure(order.name, e));
    }
  }
}

async function bulkTransfer(run: Run, todo: number[], years: number | undefined): Promise<void> {
  const { ctx } = run;
  const orders = new Map<number, Awaited<ReturnType<typeof prepareTransfer>>>();
  for (const i of todo) {
    const item = run.items[i]!;
    try {
      checkFields('transfer', item);
      orders.set(i, await prepareTransfer(ctx, ctx.db, { ...item, auth_code: item.auth_code!, years: item.years ?? years }));
    } catch (e) {
      await settle(run, i, failure(item.domain, e));
    }
  }
  const held = new Map<number, Awaited<ReturnType<typeof verifyTransfer>>>();
  await inPool([...orders.keys()], CONCURRENCY, async (i) => {
    try {
      held.set(i, await verifyTransfer(ctx, orders.get(i)!));
    } catch (e) {
      await settle(run, i, failure(orders.get(i)!.name, e));
    }
  });
  for (const [i, order] of orders) {
    if (!held.has(i)) continue;
    try {
      await inTransaction(ctx.db, async (trx) => {
        await requireFreeWithUs(ctx, trx, order.name);
        const result = placedResult(run, await placeTransfer(ctx, trx, order, held.get(i)!));
        await run.batch.record(trx, i, result);
        run.results[i] = result;
      });
    } catch (e) {
      await settle(run, i, failure(order.name, e));
    }
  }
}

const renewedResult = (row: DomainRow): BulkResult => ({ domain: row.name, ok: true, id: row.id });

async function bulkRenew(run: Run, todo: number[], years: number | undefined): Promise<void> {
  const { ctx } = run;
  const reserved: { i: number; r: Awaited<ReturnType<typeof reserveRenewal>> }[] = [];
  for (const i of todo) {
    const item = run.items[i]!;
    try {
      checkFields('renew', item);
      const host = parseHostName(item.domain);
      if (!host.ok) throw invalid('domain', host.problem);
      const domain = await findAccountLiveDomainByName(ctx.db, ctx.accountId, host.value.name);
      if (!domain) throw new ApiError('RESOURCE_NOT_FOUND', `No live domain ${item.domain} in this account`);
      reserved.push({
        i,
        r: await inTransaction(ctx.db, async (trx) => {
          const r = await reserveRenewal(ctx, trx, domain.id, item.years ?? years ?? 1, null);
          const pending: PendingRenewal = { pending_operation: r.operationId, domain: domain.name, id: domain.id };
          await run.batch.record(trx, i, pending);
          return r;
        }),
      });
    } catch (e) {
      await settle(run, i, failure(item.domain, e));
    }
  }
  await inPool(reserved, CONCURRENCY, async ({ i, r }) => {
    try {
      const row = await completeRenewal(ctx, r, async (trx, renewed) => {
        run.results[i] = renewedResult(renewed);
        await run.batch.record(trx, i, run.results[i]);
      });
      run.results[i] = renewedResult(row);
    } catch (e) {
      await settle(run, i, failure(r.params.name, e));
    }
  });
}

/** A renewal an earlier, dead run of this request started: its operation's outcome, once it has one. */
async function outcomeOf(ctx: Ctx, p: PendingRenewal): Promise<BulkResult> {
  const deadline = Date.now() + ((ctx.operationLeaseS ?? DEFAULT_LEASE_S) + 10) * 1000;
  for (;;) {
    const op = await findOperation(ctx.db, p.pending_operation);
    if (op?.status === 'completed') return { domain: p.domain, ok: true, id: p.id };
    if (!op || op.status === 'failed') return { domain: p.domain, ok: false, error: { code: 'UPSTREAM_ERROR', message: op?.detail ?? 'The renewal did not complete' } };
    if (Date.now() > deadline) {
      return { domain: p.domain, ok: false, error: { code: 'STATE_CONFLICT', message: `Still being renewed by operation ${op.id}; poll GET /v2/operations/${op.id}` } };
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The bulk request: the answer (200), or the stored answer of its Idempotency-Key. */
export async function bulkDomains(
  ctx: Ctx, action: BulkAction, input: BulkInput, idem: Idempotency, presentOperation: (op: Operation) => unknown,
): Promise<Replayable> {
  if (!(BULK_ACTIONS as readonly string[]).includes(action)) throw invalid('action', `must be one of ${BULK_ACTIONS.join(', ')}`);
  if (!Array.isArray(input.domains) || input.domains.length === 0 || input.domains.length > MAX_BULK_ITEMS) {
    throw invalid('domains', `must be a list of 1 to ${MAX_BULK_ITEMS} domains`);
  }
  const started = await startBatch(ctx, idem.key, idem.fingerprint);
  if ('stored' in started) return started.stored;
  const { batch } = started;
  const items = input.domains.map((d) => (typeof d === 'string' ? { domain: d } : d));
  const run: Run = { ctx, batch, items, results: items.map(() => undefined), presentOperation };
  try {
    const todo: number[] = [];
    for (let i = 0; i < items.length; i++) {
      const done = batch.done.get(i) as BulkResult | PendingRenewal | undefined;
      if (done === undefined) todo.push(i);
      else run.results[i] = 'pending_operation' in done ? await outcomeOf(ctx, done) : done;
    }
    if (action === 'register') await bulkRegister(run, todo, input.years);
    else if (action === 'transfer') await bulkTransfer(run, todo, input.years);
    else await bulkRenew(run, todo, input.years);
    const results = run.results.map((r, i) => r ?? { domain: items[i]!.domain, ok: false, error: { code: 'INTERNAL_ERROR', message: 'The item was not processed' } });
    const okCount = results.filter((r) => r.ok).length;
    const body = { ok_count: okCount, fail_count: results.length - okCount, results };
    await batch.finish('done', body);
    return { outcome: 'done', body, replayed: false };
  } catch (e) {
    await batch.abandon();
    throw e;
  }
}
