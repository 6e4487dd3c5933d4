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
      tags: ['Operations'],
      summary: 'Poll an asynchronous operation',
      params: Type.Object({ id: Type.String({ maxLength: 200, description: 'Operation id (op_…)' }) }),
      response: { 200: Envelope(OperationSchema), ...errorResponses },
    },
  }, async (request) => {
    const op = await withCtx(deps, request, (ctx) => getOperation(ctx, request.params.id));
    return ok(request, operationView(op));
  });
}
