import { getServer } from '../../../core/servers/read.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { ServerParams, ServerSchema, serverView } from './presenters.ts';
import { nextChargeView } from '../billing/presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/servers/:id', {
    config: { area: 'servers' },
    schema: {
      operationId: 'getServer',
      tags: ['Servers'],
      summary: 'Get a server',
      description: 'A server with its live power state, OS and size, asked of the platform. Best effort: if the platform does not answer in time, '
        + '`power_state` is `unknown` and the rest is what was last known — never an error. Another account\'s id is 404.',
      params: ServerParams,
      response: { 200: Envelope(ServerSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    // One round trip for our rows and the next charge, one for the platform's live read.
    const view = await withCtx(deps, request, (ctx) => getServer(ctx, request.params.id));
    return ok(request, { ...serverView(view), ...nextChargeView(view.nextCharge ?? null) });
  });
}
