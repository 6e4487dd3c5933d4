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
      tags: ['Servers'],
      summary: 'Rename a server (the name is the only field that can change)',
      params: ServerParams,
      body: Type.Object({
        name: Type.String({ minLength: 1, maxLength: 253, description: 'New host name, e.g. web-2.example.com; unique among the account\'s live servers' }),
      }, { additionalProperties: false }),
      response: { 200: Envelope(ServerSchema), ...errorResponses },
    },
  }, async (request) => {
    const view = await withCtx(deps, request, (ctx) => renameServer(ctx, request.params.id, request.body.name));
    return ok(request, serverView(view));
  });
}
