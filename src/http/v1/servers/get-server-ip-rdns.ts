import { getReverseDns } from '../../../core/servers/reverse-dns.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { AddressParams, V1Rdns } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'GET',
    url: '/servers/:server_id/ips/:ip_address',
    area: 'servers',
    operationId: 'getServerIpRdns',
    tag: 'IPs',
    summary: 'Get the reverse DNS of an address',
    description: 'The reverse DNS (PTR) name of a primary or extra address of the server; `rdns` is null when none is set.',
    params: AddressParams,
    response: V1Data(V1Rdns),
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async (request) => {
      const r = await withCtx(deps, request, (ctx) => getReverseDns(ctx, request.params.server_id, request.params.ip_address));
      return v1ok({ ip_address: r.address, rdns: r.rdns });
    },
  });
}
