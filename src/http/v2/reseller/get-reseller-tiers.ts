import { resellerTiers } from '../../../core/reseller/service.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { ResellerTiersSchema, resellerTiersView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/reseller/tiers', {
    config: { area: 'reseller' },
    schema: {
      operationId: 'getResellerTiers',
      tags: ['Reseller'],
      summary: 'Get the discount ladder',
      description: 'Every tier of the discount ladder by active server count, lowest first; the top tier is open-ended (`max_servers: null`). '
        + 'For a reseller the tier holding its `active_server_count` has `is_current: true`; a non-reseller has no current tier.',
      response: { 200: Envelope(ResellerTiersSchema), ...errorResponses() },
    },
  }, async (request) => ok(request, resellerTiersView(await withCtx(deps, request, (ctx) => resellerTiers(ctx.db, ctx.accountId)))));
}
