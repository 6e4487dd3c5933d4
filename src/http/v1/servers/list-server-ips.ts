import { addressesWithReverseDns } from '../../../core/servers/reverse-dns.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { ServerIdParams, V1IpList, v1IpList } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'GET',
    url: '/servers/:server_id/ips',
    area: 'servers',
    operationId: 'listServerIps',
    tag: 'IPs',
    summary: 'List a server\'s addresses',
    description: 'The primary IPv4 address, the extra addresses (IPv4 and IPv6) and the primary IPv6 address, each with its reverse DNS name.',
    params: ServerIdParams,
    response: V1Data(V1IpList),
    errors: ['RESOURCE_NOT_FOUND'],
    handler: async (request) => {
      const { server, held, rdns } = await withCtx(deps, request, (ctx) => addressesWithReverseDns(ctx, request.params.server_id));
      return v1ok(v1IpList(server, held, rdns));
    },
  });
}
