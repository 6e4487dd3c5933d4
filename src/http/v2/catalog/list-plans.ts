import { Type } from '@sinclair/typebox';
import { listPlans } from '../../../core/catalog/customer-lists.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, errorResponses } from '../../schemas.ts';
import { PlanSchema, planView } from '../presenters.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  app.get('/plans', {
    config: { area: 'catalog' },
    schema: {
      operationId: 'listPlans',
      tags: ['Catalog'],
      summary: 'List plans',
      description: 'The server plans; `id` is the `plan_id` of POST /servers (package mode). A plan with `available: false` is no longer sold.',
      querystring: Type.Object(PageQuery(), { additionalProperties: false }),
      response: { 200: ListEnvelope(PlanSchema), ...errorResponses() },
    },
  }, async (request) => page(request, await listPlans(db, pageOf(request.query)), planView));
}
