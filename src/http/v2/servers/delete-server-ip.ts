import { cancelIp } from '../../../core/servers/ip-cancel.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { ADDITION, IpCancelledSchema, ServerAddressParams, ipCancelledView } from './additions-presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.delete('/servers/:id/ips/:address', {
    config: { area: 'servers' },
    schema: {
      operationId: 'deleteServerIp',
      tags: ['Servers'],
      summary: 'Cancel an extra address',
      description: `${ADDITION}

The address stops billing at once: the server's monthly price drops by its price, and the unused hours of the current cycle
are refunded (rounded down to the cent). Its reverse DNS is removed, and the \`server.ip_release\` operation returns it to the platform.
A primary address cannot be cancelled (409 \`STATE_CONFLICT\`); an address the server does not hold is 404.`,
      params: ServerAddressParams,
      response: { 200: Envelope(IpCancelledSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request) => {
    const r = await withCtx(deps, request, (ctx) => cancelIp(ctx, request.params.id, request.params.address));
    return ok(request, ipCancelledView(r));
  });
}
