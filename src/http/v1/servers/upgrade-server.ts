import { Type } from '@sinclair/typebox';
import { invalid } from '../../../core/errors.ts';
import { formatCents } from '../../../core/money.ts';
import { upgradeServer } from '../../../core/servers/upgrade.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { detailParts } from './detail.ts';
import { ServerIdParams, V1ServerDetail, v1Detail } from './presenters.ts';

const PackageId = (description: string) => Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, description, examples: [3] }));

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'POST',
    url: '/servers/:server_id/upgrade',
    area: 'servers',
    operationId: 'upgradeServer',
    tag: 'Servers',
    summary: 'Upgrade a server',
    description: 'Billable, and finished before the answer: the server moves to a bigger package and the monthly difference, prorated over the '
      + 'unused hours of the cycle, is charged now. Send the package as `new_package_id` (or `plan_id`; both at once must agree). '
      + 'Answers with the server as it is now.',
    params: ServerIdParams,
    body: Type.Object({
      new_package_id: PackageId('The package to move to (GET /packages): it must cost more and have at least the current disk.'),
      plan_id: PackageId('The same, under its other name.'),
    }, { additionalProperties: false }),
    response: V1Data(V1ServerDetail),
    errors: ['RESOURCE_NOT_FOUND', 'STATE_CONFLICT', 'INSUFFICIENT_BALANCE', 'CAPACITY_UNAVAILABLE', 'UPSTREAM_ERROR'],
    renames: { package_id: 'new_package_id' },
    handler: async (request) => {
      const { new_package_id: a, plan_id: b } = request.body;
      if (a === undefined && b === undefined) throw invalid('new_package_id', 'is required (or plan_id)');
      if (a !== undefined && b !== undefined && a !== b) throw invalid('plan_id', 'names another package than new_package_id');
      return withCtx(deps, request, async (ctx) => {
        const r = await upgradeServer(ctx, request.params.server_id, (a ?? b)!, a === undefined ? 'plan_id' : 'package_id');
        return v1ok(v1Detail(await detailParts(ctx, r.view)), `Upgraded from ${r.from} to ${r.package}; charged ${formatCents(r.chargedCents)} USD`);
      });
    },
  });
}
