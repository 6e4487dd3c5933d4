import { Type } from '@sinclair/typebox';
import { createVmSnapshot } from '../../../core/vdc/snapshots.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1ok } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1Data } from '../schemas.ts';
import { V1VmSnapshot, VmParams } from './schemas.ts';
import { v1VmSnapshot } from './views.ts';

export function register(app: TypedApp, deps: RouteDeps) {
  v1Route(app, {
    method: 'POST', url: '/vms/:vm_id/snapshots', area: 'vdc', operationId: 'createVmSnapshot', tag: 'VDC',
    summary: 'Take a snapshot of a VM',
    description: 'Free. Answers with the snapshot (`creating`); it is `completed` once taken. A VM that is not active, or busy with '
      + 'another action, is 422 `STATE_CONFLICT`.',
    params: VmParams,
    body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 100, description: 'A label.', examples: ['before-upgrade'] }) }, { additionalProperties: false }),
    response: V1Data(V1VmSnapshot),
    errors: ['RESOURCE_NOT_FOUND', 'STATE_CONFLICT'],
    handler: async (request) => {
      const { snapshot } = await withCtx(deps, request, (ctx) => createVmSnapshot(ctx, request.params.vm_id, request.body));
      return v1ok(v1VmSnapshot(snapshot), 'Snapshot is being taken');
    },
  });
}
