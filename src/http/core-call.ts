// Runs a core service for the caller of a request. Live keys get the real database, provider and
// queue. Test keys (the sandbox) get the very same code inside a transaction that is always
// rolled back, with a provider and queue that do nothing: validation and 422s are real, nothing
// persists, nothing is charged. The provider claims the live one's capabilities, so placement and
// the checks that depend on the platform (OS images, live moves) answer as they would live.
import type { FastifyRequest } from 'fastify';
import type { Ctx } from '../core/context.ts';
import { noopQueue } from '../jobs/queue.ts';
import { noopCompute } from '../providers/compute/noop.ts';
import { noopDns } from '../providers/dns/noop.ts';
import { noopPanel } from '../providers/hosting/noop.ts';
import { noopRegistrar } from '../providers/registrar/noop.ts';
import { type RouteDeps, callerOf } from './route-types.ts';

class Rollback extends Error {}

export async function withCtx<T>(deps: RouteDeps, request: FastifyRequest, fn: (ctx: Ctx) => Promise<T>): Promise<T> {
  const caller = callerOf(request);
  const base = { accountId: caller.accountId, now: deps.now(), providerTimeoutMs: deps.services.providerTimeoutMs, operationLeaseS: deps.services.operationLeaseS, dnsNameservers: deps.services.dnsNameservers };
  if (!caller.sandbox) return fn({ ...base, ...deps.services, db: deps.db, sandbox: false });
  let result: { value: T } | undefined;
  try {
    await deps.db.transaction().execute(async (trx) => {
      result = { value: await fn({ ...base, db: trx, sandbox: true, compute: { ...noopCompute, capabilities: deps.services.compute.capabilities }, hosting: noopPanel, registrar: noopRegistrar, dns: noopDns, jobs: noopQueue }) };
      throw new Rollback();
    });
  } catch (e) {
    if (!(e instanceof Rollback)) throw e;
  }
  return result!.value;
}
