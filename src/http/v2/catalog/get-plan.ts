import { Type } from '@sinclair/typebox';
import { getPlan } from '../../../core/catalog/customer-lists.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, IntId, errorResponses } from '../../schemas.ts';
import { PlanSchema, planView } from '../presenters.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  app.get('/plans/:id', {
    config: { area: 'catalog' },
    schema: {
      tags: ['Catalog'],
      summary: 'One server plan',
      params: Type.Object({ id: IntId }),
      response: { 200: Envelope(PlanSchema), ...errorResponses },
    },
  }, async (request) => ok(request, planView(await getPlan(db, request.params.id))));
}
