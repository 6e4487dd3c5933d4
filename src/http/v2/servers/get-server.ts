import { getServer } from '../../../core/servers/read.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { ServerParams, ServerSchema, serverView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/servers/:id', {
    config: { area: 'servers' },
    schema: {
      tags: ['Servers'],
      summary: 'A server, with live power state, OS and size (best effort: `unknown` if the platform does not answer)',
      params: ServerParams,
      response: { 200: Envelope(ServerSchema), ...errorResponses },
    },
  }, async (request) => {
    const view = await withCtx(deps, request, (ctx) => getServer(ctx, request.params.id));
    return ok(request, serverView(view));
  });
}
