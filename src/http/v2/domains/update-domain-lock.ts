import { Type } from '@sinclair/typebox';
import { setTransferLock } from '../../../core/domains/manage.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { DomainParams, DomainSchema, domainView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.put('/domains/:id/lock', {
    config: { area: 'domains' },
    schema: {
      operationId: 'updateDomainLock',
      tags: ['Domains'],
      summary: 'Set the transfer lock',
      description: 'Free. `enabled: true` locks the domain against transfers away; unlock it before moving it to another registrar. '
        + 'The domain must be `active` (else 409); if the registrar fails, nothing changes (502).',
      params: DomainParams,
      body: Type.Object({ enabled: Type.Boolean({ description: 'true locks.' }) }, { additionalProperties: false }),
      response: { 200: Envelope(DomainSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'UPSTREAM_ERROR') },
    },
  }, async (request) => ok(request, domainView(await withCtx(deps, request, (ctx) => setTransferLock(ctx, request.params.id, request.body.enabled)))));
}
