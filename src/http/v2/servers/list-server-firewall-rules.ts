import { Type } from '@sinclair/typebox';
import { listFirewallRules } from '../../../core/servers/telemetry.ts';
import { withCtx } from '../../core-call.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, errorResponses } from '../../schemas.ts';
import { FirewallRuleSchema } from './extras-presenters.ts';
import { ServerParams } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/servers/:id/firewall/rules', {
    config: { area: 'servers' },
    schema: {
      operationId: 'listServerFirewallRules',
      tags: ['Servers'],
      summary: 'List firewall rules of a server',
      description: "The server's stateful firewall rules, ordered by position ascending, read live from the platform.",
      params: ServerParams,
      querystring: Type.Object({ ...PageQuery() }, { additionalProperties: false }),
      response: { 200: ListEnvelope(FirewallRuleSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'CAPACITY_UNAVAILABLE', 'UPSTREAM_ERROR') },
    },
  }, async (request) => {
    const result = await withCtx(deps, request, (ctx) => listFirewallRules(ctx, request.params.id, pageOf(request.query)));
    return page(request, result, (r) => r);
  });
}
