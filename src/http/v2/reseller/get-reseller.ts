import { resellerStanding } from '../../../core/reseller/service.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { ResellerStatusSchema, resellerStatusView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/reseller', {
    config: { area: 'reseller' },
    schema: {
      operationId: 'getReseller',
      tags: ['Reseller'],
      summary: 'Get the reseller status',
      description: `Whether the account is a reseller (the operator decides), how many of its servers are \`active\`, and the tier
that count falls in. A reseller's tier discount is taken off every server charge (create, clone, resize, upgrade, extra
addresses, snapshots), and each such transaction names it. A non-reseller has discount 0 and \`current_tier: null\`.`,
      response: { 200: Envelope(ResellerStatusSchema), ...errorResponses() },
    },
  }, async (request) => ok(request, resellerStatusView(await withCtx(deps, request, (ctx) => resellerStanding(ctx.db, ctx.accountId)))));
}
