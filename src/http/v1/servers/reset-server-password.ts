import { Type } from '@sinclair/typebox';
import { serverAction } from '../../../core/servers/actions.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { ServerIdParams } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'POST',
    url: '/servers/:server_id/password-reset',
    area: 'servers',
    operationId: 'resetServerPassword',
    tag: 'Servers',
    summary: 'Reset the root password',
    description: 'Generates a new root password, answers it (shown only here) and sets it on the server in the background.',
    params: ServerIdParams,
    body: Type.Object({}, { additionalProperties: false, description: 'None.' }),
    response: V1Data(Type.Object({
      server_id: Type.String({ examples: ['srv_8fJ2kLmN4pQ7rS1t'] }),
      new_password: Type.String({ description: 'The new root password. Shown only here.', examples: ['xK9#mP2q-Lw7$zR4'] }),
    })),
    errors: ['RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'UPSTREAM_ERROR'],
    handler: async (request) => {
      const id = request.params.server_id;
      const r = await withCtx(deps, request, (ctx) => serverAction(ctx, id, 'reset_password', {}));
      return v1ok({ server_id: id, new_password: r.password! }, 'The password is being set');
    },
  });
}
