import { getReverseDns } from '../../../core/servers/reverse-dns.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { ADDITION, ReverseDnsSchema, ServerAddressParams, reverseDnsView } from './additions-presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/servers/:id/ips/:address/rdns', {
    config: { area: 'servers' },
    schema: {
      operationId: 'getServerIpReverseDns',
      tags: ['Servers'],
      summary: 'Get the reverse DNS of an address',
      description: `${ADDITION}\n\nThe PTR name of one of the server's addresses, primary or extra (\`rdns\` null when none is set). An address the server does not hold is 404.`,
      params: ServerAddressParams,
      response: { 200: Envelope(ReverseDnsSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const r = await withCtx(deps, request, (ctx) => getReverseDns(ctx, request.params.id, request.params.address));
    return ok(request, reverseDnsView(r));
  });
}
