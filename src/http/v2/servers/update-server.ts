import { Type } from '@sinclair/typebox';
import { renameServer } from '../../../core/servers/rename.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { ServerParams, ServerSchema, serverView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.patch('/servers/:id', {
    config: { area: 'servers' },
    schema: {
      operationId: 'updateServer',
      tags: ['Servers'],
      summary: 'Rename a server',
      description: 'Changes the server\'s name, the only field that can change here. Free; the platform is not called.',
      params: ServerParams,
      body: Type.Object({
        name: Type.String({ minLength: 1, maxLength: 253, description: 'New host name; unique among the account\'s live servers.', examples: ['web-2.example.com'] }),
      }, { additionalProperties: false }),
      response: { 200: Envelope(ServerSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'HOSTNAME_IN_USE') },
    },
  }, async (request) => {
    const view = await withCtx(deps, request, (ctx) => renameServer(ctx, request.params.id, request.body.name));
    return ok(request, serverView(view));
  });
}
