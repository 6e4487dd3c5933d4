import { Type } from '@sinclair/typebox';
import { listInstallableOperatingSystems } from '../../../core/catalog/customer-lists.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, errorResponses } from '../../schemas.ts';
import { OperatingSystemSchema, operatingSystemView } from '../presenters.ts';

export function register(app: TypedApp, { db }: RouteDeps) {
  app.get('/operating-systems', {
    config: { area: 'catalog' },
    schema: {
      operationId: 'listOperatingSystems',
      tags: ['Catalog'],
      summary: 'List operating systems',
      description: 'The installable OS versions, a flat list; `id` is the `os_version_id` of POST /servers and of the reinstall action.',
      querystring: Type.Object(PageQuery(), { additionalProperties: false }),
      response: { 200: ListEnvelope(OperatingSystemSchema), ...errorResponses() },
    },
  }, async (request) => page(request, await listInstallableOperatingSystems(db, pageOf(request.query)), operatingSystemView));
}
