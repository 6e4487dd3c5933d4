import { Type } from '@sinclair/typebox';
import { listHosting } from '../../../core/hosting/read.ts';
import { HOSTING_STATUSES } from '../../../core/hosting/rules.ts';
import { withCtx } from '../../core-call.ts';
import { page, pageOf } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { ListEnvelope, PageQuery, StringEnum, errorResponses } from '../../schemas.ts';
import { WebHostingSchema, webHostingListItemView } from './presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/web-hosting', {
    config: { area: 'hosting' },
    schema: {
      operationId: 'listWebHosting',
      tags: ['Web hosting'],
      summary: 'List web hosting accounts',
      description: 'The account\'s web hosting accounts, newest first, cancelled ones included (filter with `status`). '
        + 'List items carry no live disk usage (`disk_usage.used_mb` is null): read an account for it.',
      querystring: Type.Object({
        ...PageQuery(),
        status: Type.Optional(StringEnum(HOSTING_STATUSES, { description: 'Only accounts in this status.' })),
      }, { additionalProperties: false }),
      response: { 200: ListEnvelope(WebHostingSchema), ...errorResponses() },
    },
  }, async (request) => {
    const result = await withCtx(deps, request, (ctx) => listHosting(ctx, { status: request.query.status }, pageOf(request.query)));
    return page(request, result, webHostingListItemView);
  });
}
