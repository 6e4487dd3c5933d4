import { Type } from '@sinclair/typebox';
import { listActiveDepartments } from '../../../core/catalog/customer-lists.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, errorResponses } from '../../schemas.ts';
import { DepartmentSchema, departmentView } from '../presenters.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  app.get('/departments', {
    config: { area: 'tickets' },
    schema: {
      operationId: 'listDepartments',
      tags: ['Support tickets'],
      summary: 'List support departments',
      description: 'The active departments a ticket can be addressed to (`department_id`).',
      querystring: Type.Object(PageQuery(), { additionalProperties: false }),
      response: { 200: ListEnvelope(DepartmentSchema), ...errorResponses() },
    },
  }, async (request) => page(request, await listActiveDepartments(db, pageOf(request.query)), departmentView));
}
