import { Type } from '@sinclair/typebox';
import { addIpOnce } from '../../../core/servers/ip-purchase.ts';

import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { IdempotencyKeyHeaders } from '../../schemas.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { ServerIdParams, V1IpEntry } from './presenters.ts';
import { answerOnce } from '../../idempotent-route.ts';
import type { ipBody } from '../../../core/servers/ips.ts';


export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'POST',
    url: '/servers/:server_id/ips/purchase',
    area: 'servers',
    operationId: 'purchaseServerIp',
    tag: 'IPs',
    summary: 'Buy an extra address',
    description: 'Billable: the address\'s monthly price joins the server\'s bill and the rest of the current cycle is charged now. '
      + 'The address is attached before the answer; if the platform fails, nothing is charged. `ip_type` is `IPv4` or `IPv6` (any letter case). '
      + 'An optional `Idempotency-Key` header (a UUID) makes a retry replay the first answer instead of buying twice.',
    params: ServerIdParams,
    headers: IdempotencyKeyHeaders,
    body: Type.Object({
      ip_type: Type.String({ pattern: '^[Ii][Pp][Vv][46]$', description: '`IPv4` or `IPv6`.', examples: ['IPv4'] }),
    }, { additionalProperties: false }),
    response: V1Data(V1IpEntry),
    errors: ['RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'QUOTA_EXCEEDED', 'INSUFFICIENT_BALANCE', 'IDEMPOTENCY_KEY_CONFLICT', 'CAPACITY_UNAVAILABLE', 'UPSTREAM_ERROR'],
    renames: { version: 'ip_type' },
    handler: async (request, reply) => {
      const id = request.params.server_id;
      const version = request.body.ip_type.endsWith('4') ? 4 : 6;
      // The stored answer is the core's address body, the same one v2 stores: v1's shape is made from it.
      const ip = await answerOnce<ReturnType<typeof ipBody>>(deps, request, reply, (ctx, idem) => addIpOnce(ctx, id, version, idem), { fingerprintBody: { version } });
      return v1ok({ ip_address: ip.address, type: ip.version === 4 ? 'IPv4' : 'IPv6', rdns: null }, `Extra ${ip.version === 4 ? 'IPv4' : 'IPv6'} address added`);
    },
  });
}
