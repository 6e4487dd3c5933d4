// GET /panel/api/servers/:id/delete-preview: what deleting the server now would refund, so the
// panel shows it before the customer confirms (DELETE /v2/servers/{id} then refunds it).
import { Type } from '@sinclair/typebox';
import { money } from '../../../core/money.ts';
import { previewServerDelete } from '../../../core/servers/delete.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { TypedApp } from '../../route-types.ts';
import { Envelope, MoneySchema, errorResponses, ref } from '../../schemas.ts';
import type { PanelDeps } from '../deps.ts';

export function register(app: TypedApp, deps: PanelDeps) {
  app.get('/api/servers/:id/delete-preview', {
    config: { auth: 'panel', area: 'servers', access: 'write' },
    schema: {
      params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
      response: {
        200: Envelope(Type.Object({ id: Type.String(), refund: ref(MoneySchema), unused_hours: Type.Integer(), period_hours: Type.Integer() })),
        ...errorResponses('RESOURCE_NOT_FOUND'),
      },
    },
  }, async (request) => {
    const p = await withCtx(deps, request, (ctx) => previewServerDelete(ctx, request.params.id));
    return ok(request, { id: p.id, refund: money(p.refundCents), unused_hours: p.unusedHours, period_hours: p.periodHours });
  });
}
