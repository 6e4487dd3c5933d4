import { Type } from '@sinclair/typebox';
import { consoleSigningKey, openConsoleSession } from '../../../core/servers/console.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1ok, v1time } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data, V1Timestamp } from '../schemas.ts';
import { ServerIdParams } from './presenters.ts';

const USAGE = 'Open viewer_url in a browser within 300 seconds; it works once. Request a new session after it expires. '
  + 'A VNC client that asks for a password takes vnc_password.';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'POST',
    url: '/servers/:server_id/vnc',
    area: 'servers',
    operationId: 'openServerVnc',
    tag: 'Servers',
    summary: 'Open a VNC console session',
    description: 'A single-use viewer URL that must be opened within 300 seconds (request again after expiry). The server must be running '
      + '(422 `STATE_CONFLICT` otherwise).',
    params: ServerIdParams,
    body: Type.Object({}, { additionalProperties: false, description: 'None.' }),
    response: V1Data(Type.Object({
      server_id: Type.String({ examples: ['srv_8fJ2kLmN4pQ7rS1t'] }),
      viewer_url: Type.String({ description: 'Single use; opens without an API key.', examples: ['https://api.example.net/v2/console/tkt_9Qw2?expires=1795338900&signature=5d1f'] }),
      expires_at: V1Timestamp,
      expires_in: Type.Integer({ enum: [300], description: 'Seconds.' }),
      vnc_password: Type.String({ minLength: 8, maxLength: 8, examples: ['q7Hk2LmX'] }),
      usage_note: Type.String({ examples: [USAGE] }),
    })),
    errors: ['RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'CAPACITY_UNAVAILABLE', 'UPSTREAM_ERROR'],
    handler: async (request) => {
      // From the pool, before any sandbox transaction: a key created in one would be rolled back.
      const key = await consoleSigningKey(deps.db);
      const id = request.params.server_id;
      const s = await withCtx(deps, request, (ctx) => openConsoleSession(ctx, id, key, deps.config.publicUrl));
      return v1ok({ server_id: id, viewer_url: s.viewerUrl, expires_at: v1time(s.expiresAt), expires_in: s.expiresIn, vnc_password: s.vncPassword, usage_note: USAGE });
    },
  });
}
