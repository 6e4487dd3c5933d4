// start, stop and restart: the v2 action of the same meaning, answered as v1's `{success, message}`.
// The operation runs on in the background, as in v2; v1 had no operation to poll.
import { Type } from '@sinclair/typebox';
import { serverAction } from '../../../core/servers/actions.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1message } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Message } from '../schemas.ts';
import { ServerIdParams } from './presenters.ts';

const NoBody = Type.Object({}, { additionalProperties: false, description: 'None (an empty body, or none at all).' });

export function registerPower(app: TypedApp, deps: RouteDeps, v1Verb: 'start' | 'stop' | 'restart', operationId: string, message: string) {
  v1Route(app, {
    method: 'POST',
    url: `/servers/:server_id/${v1Verb}`,
    area: 'servers',
    operationId,
    tag: 'Servers',
    summary: `${v1Verb[0]!.toUpperCase()}${v1Verb.slice(1)} a server`,
    description: `Starts the ${v1Verb} and answers at once; the server's status shows the result. A server that is not active, is busy, `
      + `or is already in that power state is 422 \`STATE_CONFLICT\`.`,
    params: ServerIdParams,
    body: NoBody,
    response: V1Message,
    errors: ['RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'UPSTREAM_ERROR'],
    handler: async (request) => {
      await withCtx(deps, request, (ctx) => serverAction(ctx, request.params.server_id, v1Verb === 'restart' ? 'reboot' : v1Verb, {}));
      return v1message(message);
    },
  });
}
