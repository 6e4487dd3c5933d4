// POST /vms/{vm_id}/start and /stop: the core's VM power actions, answered with v1's message.
import { vmAction } from '../../../core/vdc/actions.ts';
import { withCtx } from '../../core-call.ts';
import type { RouteDeps, TypedApp } from '../../route-types.ts';
import { v1message } from '../reply.ts';
import { v1Route } from '../route.ts';
import { V1MessageSaying } from '../schemas.ts';
import { VmParams } from './schemas.ts';

export function registerVmPower(app: TypedApp, deps: RouteDeps, verb: 'start' | 'stop', operationId: string, message: string) {
  v1Route(app, {
    method: 'POST', url: `/vms/:vm_id/${verb}`, area: 'vdc', operationId, tag: 'VDC',
    summary: verb === 'start' ? 'Start a VM' : 'Stop a VM',
    description: `Queues the power action and answers \`${message}\`. A VM that is not active, already ${verb === 'start' ? 'running' : 'stopped'}, `
      + 'or busy with another action is 422 `STATE_CONFLICT`. No body.',
    params: VmParams,
    response: V1MessageSaying(message),
    errors: ['RESOURCE_NOT_FOUND', 'STATE_CONFLICT'],
    handler: async (request) => {
      await withCtx(deps, request, (ctx) => vmAction(ctx, request.params.vm_id, verb, {}));
      return v1message(message);
    },
  });
}
