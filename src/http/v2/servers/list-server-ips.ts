import { Type } from '@sinclair/typebox';
import { listIps } from '../../../core/servers/ips.ts';
import { withCtx } from '../../core-call.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, errorResponses } from '../../schemas.ts';
import { IpEntrySchema, ipView } from './extras-presenters.ts';
import { ServerParams } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/servers/:id/ips', {
    config: { area: 'servers' },
    schema: {
      operationId: 'listServerIps',
      tags: ['Servers'],
      summary: 'List addresses of a server',
      description: 'The IPv4 and IPv6 addresses assigned to the server: primary ones first, then extra ones in the order they were added.',
      params: ServerParams,
      querystring: Type.Object({ ...PageQuery() }, { additionalProperties: false }),
      response: { 200: ListEnvelope(IpEntrySchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const result = await withCtx(deps, request, (ctx) => listIps(ctx, request.params.id, pageOf(request.query)));
    return page(request, result, ipView);
  });
}
