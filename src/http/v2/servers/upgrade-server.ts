import { Type } from '@sinclair/typebox';
import { invalid } from '../../../core/errors.ts';
import { formatCents, money } from '../../../core/money.ts';
import { upgradeServer } from '../../../core/servers/upgrade.ts';
import { withCtx } from '../../core-call.ts';
import { ok } from '../../reply.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { DryRunHeader, Envelope, IntId, MoneySchema, component, errorResponses, ref } from '../../schemas.ts';
import { ServerParams, ServerSchema, serverView } from './presenters.ts';

const UpgradeResult = component('UpgradeResult', Type.Object({
  id: Type.String({ examples: ['srv_8fJ2kLmN4pQ7rS1t'] }),
  package: Type.String({ description: 'The new package\'s name', examples: ['Cloud L'] }),
  amount: Type.String({ description: 'The new monthly amount, decimal USD', examples: ['30.00'] }),
  upgrade: Type.Object({
    from: Type.String({ description: 'The previous package\'s name, or "custom"', examples: ['Cloud M'] }),
    to: Type.String({ examples: ['Cloud L'] }),
    charged: ref(MoneySchema),
    remaining_hours: Type.Number({ description: 'Unused hours of the current cycle the difference was prorated over', examples: [412] }),
  }),
  server: ref(ServerSchema),
}, { description: 'A finished upgrade: what was charged, and the server as it is now.' }));

export function register(app: TypedApp, deps: RouteDeps) {
  // A static segment: find-my-way matches it before the /actions/:verb route.
  app.post('/servers/:id/actions/upgrade', {
    config: { area: 'servers' },
    schema: {
      operationId: 'upgradeServer',
      tags: ['Servers'],
      headers: Type.Object(DryRunHeader),
      summary: 'Upgrade a server to a bigger package',
      description: '**Billable**, and synchronous: the machine is resized before the answer. The monthly difference is prorated over the unused hours '
        + 'of the cycle and charged now; if the platform fails, nothing is charged. The package must cost more and have at least the current disk. '
        + 'Send it as `package_id` or `plan_id` (one catalog, two names).',
      params: ServerParams,
      body: Type.Object({
        package_id: Type.Optional({ ...IntId, description: 'A package from GET /packages that costs more and has at least the current disk.', examples: [3] }),
        plan_id: Type.Optional({ ...IntId, description: 'The same, under its other name (plans and packages are one catalog): send either. Both at once must name '
          + 'the same package, else 422 `VALIDATION_FAILED` naming `plan_id`.', examples: [3] }),
      }, { additionalProperties: false, description: 'The package to move to, as `package_id` or `plan_id` (one of them is required).' }),
      response: {
        200: Envelope(UpgradeResult),
        ...errorResponses('RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'INSUFFICIENT_BALANCE', 'CAPACITY_UNAVAILABLE', 'UPSTREAM_ERROR'),
      },
    },
  }, async (request) => {
    const { package_id: a, plan_id: b } = request.body;
    if (a === undefined && b === undefined) throw invalid('package_id', 'is required (or plan_id: the same catalog, under its other name)');
    if (a !== undefined && b !== undefined && a !== b) throw invalid('plan_id', `names another package (${b}) than package_id (${a}); send one of them`);
    const r = await withCtx(deps, request, (ctx) => upgradeServer(ctx, request.params.id, (a ?? b)!, a === undefined ? 'plan_id' : 'package_id'));
    return ok(request, {
      id: r.view.server.id,
      package: r.package,
      amount: formatCents(r.view.server.price_cents),
      upgrade: { from: r.from, to: r.package, charged: money(r.chargedCents), remaining_hours: r.remainingHours },
      server: serverView(r.view),
    });
  });
}
