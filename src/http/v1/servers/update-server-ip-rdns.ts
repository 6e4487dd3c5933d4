import { Type } from '@sinclair/typebox';
import { setReverseDns } from '../../../core/servers/reverse-dns.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { AddressParams, V1Rdns } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'POST',
    url: '/servers/:server_id/ips/:ip_address',
    area: 'servers',
    operationId: 'updateServerIpRdns',
    tag: 'IPs',
    summary: 'Set the reverse DNS of an address',
    description: 'Sets the reverse DNS (PTR) name of a primary or extra address at the platform; answers once it is set. The name must be a '
      + 'fully qualified host name (422 naming `rdns` otherwise); it is stored in lower case, an IDN as punycode.',
    params: AddressParams,
    body: Type.Object({
      rdns: Type.String({ minLength: 1, maxLength: 253, description: 'The PTR name.', examples: ['mail.example.com'] }),
    }, { additionalProperties: false }),
    response: V1Data(V1Rdns),
    errors: ['RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'UPSTREAM_ERROR'],
    handler: async (request) => {
      const r = await withCtx(deps, request, (ctx) => setReverseDns(ctx, request.params.server_id, request.params.ip_address, request.body.rdns));
      return v1ok({ ip_address: r.address, rdns: r.rdns }, 'Reverse DNS updated');
    },
  });
}
