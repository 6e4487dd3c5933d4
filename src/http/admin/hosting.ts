// The hosting panel's servers as the operator sees them: GET /hosting/servers, with usage. The
// panel answers (listServers), so a panel that is down is 502 here too.
import { Type } from '@sinclair/typebox';
import { listPanelServers } from '../../core/hosting/panel-calls.ts';
import { page, pageOf } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { ListEnvelope, PageQuery, errorResponses } from '../schemas.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'services' as const };

const PanelServerSchema = Type.Object({
  hostname: Type.String({ examples: ['web1.fra1.panel.hostcloud.example'] }),
  location_id: Type.Union([Type.Integer(), Type.Null()], { description: 'Catalog location; null when the panel does not say.' }),
  capacity: Type.Integer({ description: 'Accounts it may hold.' }),
  accounts: Type.Integer({ description: 'Accounts it holds (those being created included).' }),
  free: Type.Integer({ description: 'capacity − accounts (0 when over).' }),
}, { title: 'HostingServer' });

export function register(app: TypedApp, { services }: RouteDeps) {
  app.get('/hosting/servers', {
    config: admin,
    schema: {
      operationId: 'listHostingServers',
      tags: ['Admin'],
      summary: 'List the hosting panel servers, with usage',
      description: 'New accounts go to the server with the most free places (the lowest id on a tie); an order is refused with 503 while every server is full.',
      querystring: Type.Object({ ...PageQuery() }, { additionalProperties: false }),
      response: { 200: ListEnvelope(PanelServerSchema), ...errorResponses('UPSTREAM_ERROR') },
    },
  }, async (request) => {
    const servers = await listPanelServers(services.hosting, services.providerTimeoutMs);
    const { page: n, perPage } = pageOf(request.query);
    const items = servers.slice((n - 1) * perPage, n * perPage).map((s) => ({
      hostname: s.hostname, location_id: s.locationId, capacity: s.capacity, accounts: s.accounts, free: Math.max(0, s.capacity - s.accounts),
    }));
    return page(request, { items, total: servers.length, page: n, perPage }, (x) => x);
  });
}
