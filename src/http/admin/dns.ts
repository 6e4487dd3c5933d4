// The operator's DNS controls: a resync that rebuilds the DNS provider's copy of every zone (or
// one) from the database — after PowerDNS lost its data, or was replaced. The worker's pushers do
// the work within seconds; the answer says how many zones were queued.
import { Type } from '@sinclair/typebox';
import { queueResync } from '../../core/dns/push.ts';
import { ApiError } from '../../core/errors.ts';
import { ok } from '../reply.ts';
import type { RouteDeps, TypedApp } from '../route-types.ts';
import { Envelope, errorResponses } from '../schemas.ts';

const admin = { auth: 'admin' as const, rateLimit: false, right: 'infrastructure' as const };

export function register(app: TypedApp, { db }: RouteDeps) {
  app.post('/dns/resync', {
    config: admin,
    schema: {
      tags: ['Admin DNS'],
      summary: 'Push every zone (or one) to the DNS provider again, whole',
      body: Type.Optional(Type.Object({
        zone: Type.Optional(Type.String({ minLength: 1, maxLength: 253, description: 'Only this zone (its name); default every zone' })),
      }, { additionalProperties: false })),
      response: { 200: Envelope(Type.Object({ queued: Type.Integer({ description: 'Zones queued for a whole push' }) })), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const zone = request.body?.zone?.trim().toLowerCase().replace(/\.$/, '');
    const queued = await queueResync(db, zone);
    if (zone !== undefined && queued === 0) throw new ApiError('RESOURCE_NOT_FOUND', `No DNS zone ${zone}`);
    return ok(request, { queued });
  });
}
