// How every route that takes an Idempotency-Key answers, in v2 and v1 alike: the key read from
// its header (a UUID, else 422), the request's fingerprint (method, path, body), the core run for
// the caller with both, `Idempotent-Replayed: true` on a stored answer, and the status the core's
// outcome has in the route's API. The core says what a request did (created, done); only here does
// that become an HTTP status.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx } from '../core/context.ts';
import { type Idempotency, type Outcome, type Replayable, parseIdempotencyKey, requestFingerprint } from '../core/idempotency/service.ts';
import { withCtx } from './core-call.ts';
import type { RouteDeps } from './route-types.ts';

/** The status of an outcome: v2 answers a creation 201 and anything else 200; v1 answers 200 always. */
export function statusOf(api: 'v1' | 'v2', outcome: Outcome): 200 | 201 {
  return api === 'v2' && outcome === 'created' ? 201 : 200;
}

/** The request's path as its route names it, parameters filled in (no query string). */
function pathOf(request: FastifyRequest): string {
  const params = (request.params ?? {}) as Record<string, string>;
  return request.routeOptions.url!.replace(/:(\w+)/g, (_, name: string) => params[name] ?? '');
}

export interface AnswerOnceOptions {
  /**
   * What the fingerprint hashes instead of the body, when two spellings of one request must
   * replay each other (v1's `ip_type` in any letter case).
   */
  fingerprintBody?: unknown;
}

/**
 * Runs `run` once per Idempotency-Key for the caller, sets the replay header and the status, and
 * returns the answer's body (a replay's is the first answer's, of the same shape).
 */
export async function answerOnce<T>(
  deps: RouteDeps, request: FastifyRequest, reply: FastifyReply, run: (ctx: Ctx, idem: Idempotency) => Promise<Replayable>, opts: AnswerOnceOptions = {},
): Promise<T> {
  const key = parseIdempotencyKey(request.headers['idempotency-key']);
  const fingerprint = requestFingerprint(request.method, pathOf(request), 'fingerprintBody' in opts ? opts.fingerprintBody : request.body);
  const result = await withCtx(deps, request, (ctx) => run(ctx, { key, fingerprint }));
  if (result.replayed) reply.header('Idempotent-Replayed', 'true');
  reply.code(statusOf(pathOf(request).startsWith('/v1/') ? 'v1' : 'v2', result.outcome));
  return result.body as T;
}
