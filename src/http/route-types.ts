import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { Config } from '../config.ts';
import type { Services } from '../core/context.ts';
import type { FinishSignals } from '../core/operations/wait.ts';
import type { Caller, Db } from '../core/types.ts';
import { ApiError } from '../core/errors.ts';

export type TypedApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** What a route file may use: the database handle for the core, settings, the clock, and the outside systems. */
export interface RouteDeps {
  db: Db;
  config: Config;
  now: () => Date;
  services: Services;
  /** What wakes a request waiting on an operation (GET /v2/operations/{id}?wait=N); absent: no wait. */
  operationWaits?: FinishSignals;
}

/** The caller of a customer route (the auth hook guarantees one). */
export function callerOf(request: { caller: Caller | null }): Caller {
  if (!request.caller) throw new ApiError('AUTH_REQUIRED', 'Authentication is required');
  return request.caller;
}
