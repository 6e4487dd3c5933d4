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
      operationId: 'getPlan',
      tags: ['Catalog'],
      summary: 'Get a plan',
      description: 'One server plan by id.',
      params: Type.Object({ id: { ...IntId, description: 'Plan id.', examples: [2] } }),
      response: { 200: Envelope(PlanSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => ok(request, planView(await getPlan(db, request.params.id))));
}
