import { Type } from '@sinclair/typebox';
import { formatCents, money } from '../../../core/money.ts';
import { upgradeServer } from '../../../core/servers/upgrade.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { Envelope, IntId, MoneySchema, errorResponses } from '../../schemas.ts';
import { ServerParams, ServerSchema, serverView } from './presenters.ts';

const UpgradeResult = Type.Object({
  id: Type.String(),
  package: Type.String({ description: 'The new package\'s name' }),
  amount: Type.String({ description: 'The new monthly amount, decimal USD', examples: ['30.00'] }),
  upgrade: Type.Object({
    from: Type.String({ description: 'The previous package\'s name, or "custom"' }),
    to: Type.String(),
    charged: Type.Ref(MoneySchema),
    remaining_hours: Type.Number({ description: 'Unused hours of the current cycle the difference was prorated over' }),
  }),
  server: ServerSchema,
}, { title: 'UpgradeResult' });

export function register(app: TypedApp, deps: RouteDeps) {
  // A static segment: find-my-way matches it before the /actions/:verb route.
  app.post('/servers/:id/actions/upgrade', {
    config: { area: 'servers' },
    schema: {
      tags: ['Servers'],
      summary: 'Move to a bigger package, synchronously (billable: the monthly difference is prorated over the unused hours and charged now)',
      params: ServerParams,
      body: Type.Object({ package_id: { ...IntId, description: 'A package from GET /packages that costs more and has at least the current disk' } }, { additionalProperties: false }),
      response: { 200: Envelope(UpgradeResult), ...errorResponses },
    },
  }, async (request) => {
    const r = await withCtx(deps, request, (ctx) => upgradeServer(ctx, request.params.id, request.body.package_id));
    return ok(request, {
      id: r.view.server.id,
      package: r.package,
      amount: formatCents(r.view.server.price_cents),
      upgrade: { from: r.from, to: r.package, charged: money(r.chargedCents), remaining_hours: r.remainingHours },
      server: serverView(r.view),
    });
  });
}
