import { Type } from '@sinclair/typebox';
import { OPERATION_AREAS, OPERATION_FAMILY_AREAS } from '../../../core/families.ts';
import { getOperation, requireOperationScope } from '../../../core/operations/service.ts';
import { MAX_WAIT_S, awaitOperation } from '../../../core/operations/wait.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import { type RouteDeps, type TypedApp, callerOf } from '../../route-types.ts';
import { Envelope, errorResponses } from '../../schemas.ts';
import { OperationSchema, operationView } from '../servers/presenters.ts';

// From the catalogue, so a new family's operations are documented with their scope by its entry alone.
const scopeSentence = OPERATION_FAMILY_AREAS
  .map(({ family, area }, i) => `\`${area}:read\` for \`${family}.*\` ${i === 0 ? 'operations' : 'ones'}`).join(', ');

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
        + `Rather than polling, pass \`wait\` (up to ${MAX_WAIT_S} seconds): the answer comes the moment the operation completes or fails, or once \`wait\` `
        + 'seconds have passed with the operation as it stands then (still `queued` or `running`: ask again). One such request replaces dozens of polls '
        + 'and counts once against the rate limit. Without `wait`, a few seconds between polls is plenty. '
        + `A key with scopes needs read access to the operation's resource: ${scopeSentence} `
        + '(else 403 `AUTH_SCOPE_INSUFFICIENT`).',
      params: Type.Object({ id: Type.String({ maxLength: 200, description: 'Operation id (`op_…`).', examples: ['op_4Kq9vX2mLp8RtY1z'] }) }),
      querystring: Type.Object({
        wait: Type.Integer({
          minimum: 0, maximum: MAX_WAIT_S, default: 0,
          description: `Seconds to wait for the operation to finish, 0 to ${MAX_WAIT_S}: the answer comes as soon as it is \`completed\` or \`failed\`, `
            + 'else after this long with its current state. 0 (the default) answers at once.',
          examples: [30],
        }),
      }, { additionalProperties: false }),
      response: { 200: Envelope(OperationSchema), ...errorResponses('RESOURCE_NOT_FOUND') },
    },
  }, async (request) => {
    const id = request.params.id;
    // Each read is a statement of its own (and, for a test key, a sandbox of its own): nothing is
    // held while the request waits. The scope is checked on the first read, before any wait.
    const read = () => withCtx(deps, request, (ctx) => getOperation(ctx, id)).then((op) => {
      requireOperationScope(callerOf(request).scopes, op);
      return op;
    });
    const op = await awaitOperation(read, deps.operationWaits, id, request.query.wait * 1000);
    return ok(request, operationView(op));
  });
}
