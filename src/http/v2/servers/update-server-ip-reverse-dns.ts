import { Type } from '@sinclair/typebox';
import { setReverseDns } from '../../../core/servers/reverse-dns.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { ADDITION, ReverseDnsSchema, ServerAddressParams, reverseDnsView } from './additions-presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.put('/servers/:id/ips/:address/rdns', {
    config: { area: 'servers' },
    schema: {
      operationId: 'updateServerIpReverseDns',
      tags: ['Servers'],
      summary: 'Set the reverse DNS of an address',
      description: `${ADDITION}

Sets the PTR name of one of the server's addresses at the platform (null removes it); answers once the platform has it.
The name must be a fully qualified host name (an IDN is stored as punycode, in lower case, without a trailing dot), else 422 naming \`rdns\`.
The server must be active (409 otherwise); a platform failure is 502 and changes nothing.`,
      params: ServerAddressParams,
      body: Type.Object({
        rdns: Type.Union([Type.String({ minLength: 1, maxLength: 253, examples: ['mail.example.com'] }), Type.Null()], { description: 'The PTR name, or null to remove it.' }),
      }, { additionalProperties: false }),
      response: { 200: Envelope(ReverseDnsSchema), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'UPSTREAM_ERROR') },
    },
  }, async (request) => {
    const r = await withCtx(deps, request, (ctx) => setReverseDns(ctx, request.params.id, request.params.address, request.body.rdns));
    return ok(request, reverseDnsView(r));
  });
}
