import { Type } from '@sinclair/typebox';
import { addIpOnce } from '../../../core/servers/ip-purchase.ts';

import { locate, ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, BillableHeaders, errorResponses } from '../../schemas.ts';
import { IpEntrySchema } from './extras-presenters.ts';
import { ServerParams } from './presenters.ts';
import { answerOnce } from '../../idempotent-route.ts';
import type { ipBody } from '../../../core/servers/ips.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/servers/:id/ips', {
    config: { area: 'servers' },
    schema: {
      operationId: 'addServerIp',
      tags: ['Servers'],
      summary: 'Add an address to a server',
      description: '**Billable**: the address\'s monthly price joins the server\'s bill, and the rest of the current cycle is charged now. '
        + 'The address is attached before the answer (201); if the platform fails, nothing is charged. A server holds at most 16 addresses of a family. '
        + 'Accepts `Idempotency-Key`.',
      params: ServerParams,
      headers: BillableHeaders,
      body: Type.Object({ version: Type.Integer({ enum: [4, 6], description: '4 or 6.', examples: [4] }) }, { additionalProperties: false }),
      response: {
        201: Envelope(IpEntrySchema),
        ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'QUOTA_EXCEEDED', 'INSUFFICIENT_BALANCE', 'IDEMPOTENCY_KEY_CONFLICT', 'CAPACITY_UNAVAILABLE', 'UPSTREAM_ERROR'),
      },
    },
  }, async (request, reply) => {
    const { id } = request.params;
    const version = request.body.version as 4 | 6;
    // A replay returns the stored body of the first response (or the one the safety net stored), built by ipBody too.
    const body = await answerOnce<ReturnType<typeof ipBody>>(deps, request, reply, (ctx, idem) => addIpOnce(ctx, id, version, idem));
    locate(reply, deps.config.publicUrl, 'v2', 'servers', id, 'ips', body.address);
    return ok(request, body);
  });
}
