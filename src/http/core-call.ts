// Runs a core service for the caller of a request. Live keys get the real database, provider and
// queue. Test keys (the sandbox) get the very same code inside a transaction that is always
// rolled back, with a provider and queue that do nothing: validation and 422s are real, nothing
// persists, nothing is charged. The provider claims the live one's capabilities, so placement and
// the checks that depend on the platform (OS images, live moves) answer as they would live.
// A live key's request with `Dry-Run: true` runs the same way on its own account, and the balance
// is read before and after inside that transaction: what the request would charge or refund, by
// the very code that would charge it — the price the panel shows before a purchase.
import type { FastifyRequest } from 'fastify';
import { getBalance } from '../core/billing/ledger.ts';
import type { Ctx } from '../core/context.ts';
import { noopQueue } from '../jobs/queue.ts';
import { noopCompute } from '../providers/compute/noop.ts';
import { noopDns } from '../providers/dns/noop.ts';
import { noopPanel } from '../providers/hosting/noop.ts';
import { noopRegistrar } from '../providers/registrar/noop.ts';
import { type RouteDeps, callerOf } from './route-types.ts';

class Rollback extends Error {}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once a `Dry-Run: true` request ran: the balance before its first core call and what its calls would charge (negative: refund). */
    dryRun?: { balanceBeforeCents: number; chargedCents: number; refundedCents: number };
  }
}

function wantsDryRun(request: FastifyRequest): boolean {
  // The route's header schema admits only true/false where it documents the header; elsewhere any other value is ignored.
  return request.headers['dry-run'] === 'true';
}

export async function withCtx<T>(deps: RouteDeps, request: FastifyRequest, fn: (ctx: Ctx) => Promise<T>): Promise<T> {
  const caller = callerOf(request);
  const base = { accountId: caller.accountId, now: deps.now(), providerTimeoutMs: deps.services.providerTimeoutMs, operationLeaseS: deps.services.operationLeaseS, dnsNameservers: deps.services.dnsNameservers };
  const dryRun = wantsDryRun(request);
  if (!caller.sandbox && !dryRun) return fn({ ...base, ...deps.services, db: deps.db, sandbox: false });
  let result: { value: T } | undefined;
  try {
    await deps.db.transaction().execute(async (trx) => {
      const before = dryRun ? await getBalance(trx, caller.accountId) : 0;
      result = { value: await fn({ ...base, db: trx, sandbox: true, compute: { ...noopCompute, capabilities: deps.services.compute.capabilities }, hosting: noopPanel, registrar: noopRegistrar, dns: noopDns, jobs: noopQueue }) };
      if (dryRun) {
        const change = before - await getBalance(trx, caller.accountId);
        const seen = request.dryRun ?? { balanceBeforeCents: before, chargedCents: 0, refundedCents: 0 };
        request.dryRun = {
          ...seen,
          chargedCents: seen.chargedCents + Math.max(0, change),
          refundedCents: seen.refundedCents + Math.max(0, -change),
        };
      }
      throw new Rollback();
    });
  } catch (e) {
    if (!(e instanceof Rollback)) throw e;
  }
  return result!.value;
}
