import { Type } from '@sinclair/typebox';
import { OPERATION_AREAS } from '../../../core/operations/catalogue.ts';
import { getOperation, requireOperationScope } from '../../../core/operations/service.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import { type RouteDeps, type TypedApp, callerOf } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { OperationSchema, operationView } from '../servers/presenters.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  app.get('/operations/:id', {
    // An operation's scope is its type's area in the catalogue: any of those areas admits the
    // request, and the operation found must be of an area the key may read.
    config: { area: 'servers', alsoAreas: OPERATION_AREAS.filter((a) => a !== 'servers') },
    schema: {
      operationId: 'getOperation',
      tags: ['Operations'],
      summary: 'Get an operation',
      description: 'Poll an asynchronous operation until its `status` is `completed` or `failed` (then `detail` says why, and anything charged was refunded). '
        + 'A few seconds between polls is plenty. A key with scopes needs read access to the operation\'s resource: `servers:read` for '
        + '`server.*` operations, `vdc:read` for `vdc_vm.*` ones, `domains:read` for `domain.*` ones, `hosting:read` for `hosting.*` ones '
        + '(else 403 `AUTH_SCOPE_INSUFFICIENT`).',
      params: Type.Object({ id: Type.String({ maxLength: 200, description: 'Operation id (`op_…`).', examples: ['op_4Kq9vX2mLp8RtY1z'] }) }),
      response: { 200: Envelope(OperationSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const op = await withCtx(deps, request, (ctx) => getOperation(ctx, request.params.id));
    requireOperationScope(callerOf(request).scopes, op);
    return ok(request, operationView(op));
  });
}
