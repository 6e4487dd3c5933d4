import { Type } from '@sinclair/typebox';
import { money } from '../../../core/money.ts';
import { deleteServer } from '../../../core/servers/delete.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { DryRunHeader, Envelope, MoneySchema, StringEnum, component, errorResponses, ref } from '../../schemas.ts';
import { ServerParams } from './presenters.ts';

const DeleteResult = component('ServerDeleteResult', Type.Object({
  id: Type.String({ examples: ['srv_8fJ2kLmN4pQ7rS1t'] }),
  status: StringEnum(['deleted'] as const),
  refund: ref(MoneySchema),
  balance: ref(MoneySchema),
}, { description: 'A deleted server: what was refunded, and the balance after the refund.' }));

export function register(app: TypedApp, deps: RouteDeps) {
  app.delete('/servers/:id', {
    config: { area: 'servers' },
    schema: {
      operationId: 'deleteServer',
      tags: ['Servers'],
      headers: Type.Object(DryRunHeader),
      summary: 'Delete a server',
      description: 'The server leaves every list and frees its name at once; the unused hours of its cycle are refunded now, and the machine is '
        + 'destroyed in the background. A server still being provisioned, or busy with another operation, is 409 `STATE_CONFLICT`.',
      params: ServerParams,
      response: { 200: Envelope(DeleteResult), ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT') },
    },
  }, async (request) => {
    const r = await withCtx(deps, request, (ctx) => deleteServer(ctx, request.params.id));
    return ok(request, { id: r.id, status: 'deleted' as const, refund: money(r.refundCents), balance: money(r.balanceCents) });
  });
}
