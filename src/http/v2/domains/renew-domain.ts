import { Type } from '@sinclair/typebox';
import { renewDomain } from '../../../core/domains/renew.ts';
import type { DomainBody } from '../../../core/domains/view.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, BillableHeaders, errorResponses } from '../../schemas.ts';
import { Years } from './bodies.ts';
import { DomainParams, DomainSchema } from './presenters.ts';
import { answerOnce } from '../../idempotent-route.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/domains/:id/renew', {
    config: { area: 'domains' },
    schema: {
      operationId: 'renewDomain',
      tags: ['Domains'],
      summary: 'Renew a domain',
      description: `**Billable**, and synchronous: the renewal price × \`years\` is charged, the registrar extends the registration, and the
answer is the domain with its new \`expires_at\`. If the registrar fails, the charge is refunded and the answer is 502 \`UPSTREAM_ERROR\`.
Only an \`active\` or \`expired\` domain can be renewed (else 409), and registries allow at most 10 years ahead. The body is optional.
Send an \`Idempotency-Key\` so that a retry never adds a second period.`,
      params: DomainParams,
      headers: BillableHeaders,
      body: Type.Object({
        years: Type.Optional({ ...Years('Years to add, within the TLD\'s years_min..years_max.'), default: 1 }),
      }, { additionalProperties: false }),
      response: {
        200: Envelope(DomainSchema),
        ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'INSUFFICIENT_BALANCE', 'IDEMPOTENCY_KEY_CONFLICT', 'UPSTREAM_ERROR'),
      },
    },
  }, async (request, reply) => {
    return ok(request, await answerOnce<DomainBody>(deps, request, reply, (ctx, idem) => renewDomain(ctx, request.params.id, request.body.years ?? 1, idem)));
  });
}
