import { Type } from '@sinclair/typebox';
import { money } from '../../../core/money.ts';
import { deleteServer } from '../../../core/servers/delete.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, MoneySchema, StringEnum, errorResponses } from '../../schemas.ts';
import { ServerParams } from './presenters.ts';

const DeleteResult = Type.Object({
  id: Type.String(),
  status: StringEnum(['deleted'] as const),
  refund: Type.Ref(MoneySchema),
  balance: Type.Ref(MoneySchema),
}, { title: 'ServerDeleteResult' });

export function register(app: TypedApp, deps: RouteDeps) {
  app.delete('/servers/:id', {
    config: { area: 'servers' },
    schema: {
      tags: ['Servers'],
      summary: 'Delete a server: the unused hours of its cycle are refunded now, the machine is destroyed in the background',
      params: ServerParams,
      response: { 200: Envelope(DeleteResult), ...errorResponses },
    },
  }, async (request) => {
    const r = await withCtx(deps, request, (ctx) => deleteServer(ctx, request.params.id));
    return ok(request, { id: r.id, status: 'deleted' as const, refund: money(r.refundCents), balance: money(r.balanceCents) });
  });
}
