import { Type } from '@sinclair/typebox';
import { createZone } from '../../../core/dns/zones.ts';
import { withCtx } from '../../core-call.ts';
import { locate, ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { DnsZoneSchema, zoneView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.post('/dns/zones', {
    config: { area: 'dns' },
    schema: {
      operationId: 'createDnsZone',
      tags: ['DNS'],
      summary: 'Create a DNS zone',
      description: `Makes a zone served by the service's nameservers, with its managed apex records: the SOA and one NS per nameserver
(\`nameservers\`; point the domain's registration at them). It is served within seconds; \`synced_at\` is null until then. Free.

\`name\` is a domain name (an IDN is taken and stored as punycode). A public suffix such as \`com\` or \`co.uk\` is 422, and so are reverse
zones (\`in-addr.arpa\`: set reverse DNS on the address instead). A name already in your account, or held by another account, is 409
\`STATE_CONFLICT\`. A domain registered or transferred in gets its zone by itself. Writes the \`dns_zone.created\` event. Needs \`dns:write\`.`,
      body: Type.Object({
        name: Type.String({ minLength: 1, maxLength: 253, description: 'The zone\'s domain name.', examples: ['example.com'] }),
      }, { additionalProperties: false }),
      response: { 201: Envelope(DnsZoneSchema), ...errorResponses('STATE_CONFLICT') },
    },
  }, async (request, reply) => {
    const view = zoneView(await withCtx(deps, request, (ctx) => createZone(ctx, request.body)));
    reply.code(201);
    locate(reply, deps.config.publicUrl, 'v2', 'dns', 'zones', view.id);
    return reply.send(ok(request, view));
  });
}
