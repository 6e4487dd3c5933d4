import { Type } from '@sinclair/typebox';
import { cancelIp } from '../../../core/servers/ip-cancel.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1money, v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data, V1Money } from '../schemas.ts';
import { AddressParams } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'DELETE',
    url: '/servers/:server_id/ips/:ip_address',
    area: 'servers',
    operationId: 'cancelServerIp',
    tag: 'IPs',
    summary: 'Cancel an extra address',
    description: 'The extra address stops billing at once (the server\'s monthly price drops by it), the unused hours of this cycle are refunded, '
      + 'and the address is released. The primary address cannot be cancelled (422 `STATE_CONFLICT`).',
    params: AddressParams,
    response: V1Data(Type.Object({
      ip_address: Type.String({ examples: ['10.1.0.42'] }),
      refund_amount: V1Money('Refunded to the balance, USD.'),
      monthly_price: V1Money('The server\'s monthly price now, USD.'),
    })),
    errors: ['RESOURCE_NOT_FOUND', 'STATE_CONFLICT'],
    handler: async (request) => {
      const r = await withCtx(deps, request, (ctx) => cancelIp(ctx, request.params.server_id, request.params.ip_address));
      return v1ok({ ip_address: r.address, refund_amount: v1money(r.refundCents), monthly_price: v1money(r.monthlyPriceCents) }, `${r.address} cancelled`);
    },
  });
}
