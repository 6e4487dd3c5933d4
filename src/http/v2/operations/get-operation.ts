import { Type } from '@sinclair/typebox';
import { getOperation } from '../../../core/operations/service.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { OperationSchema, operationView } from '../servers/presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/operations/:id', {
    // Operations today belong to servers; their scope follows the resource family.
    config: { area: 'servers' },
    schema: {
      operationId: 'getOperation',
      tags: ['Operations'],
      summary: 'Get an operation',
      description: 'Poll an asynchronous operation until its `status` is `completed` or `failed` (then `detail` says why, and anything charged was refunded). '
        + 'A few seconds between polls is plenty.',
      params: Type.Object({ id: Type.String({ maxLength: 200, description: 'Operation id (`op_…`).', examples: ['op_4Kq9vX2mLp8RtY1z'] }) }),
      response: { 200: Envelope(OperationSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const op = await withCtx(deps, request, (ctx) => getOperation(ctx, request.params.id));
    return ok(request, operationView(op));
  });
}
